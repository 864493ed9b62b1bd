import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config/config.js';
import { packageVersion } from '../server.js';
import { type CommandContext, CommandFailure, formatBytes } from './context.js';

/** Why `backup` and `restore` refuse a PostgreSQL or S3 deployment, and what to back up there instead. */
export const EXTERNAL_STORES_MESSAGE =
  'parley backup and restore work on a data folder holding SQLite (parley.db) and the files (blobs/); ' +
  'this Parley keeps its data elsewhere. Back up PostgreSQL with its own tools, e.g. ' +
  'pg_dump --format=custom "$PARLEY_DATABASE_URL" > parley.dump (restore with pg_restore into an empty database), ' +
  'and the S3 bucket (the objects under PARLEY_S3_PREFIX) with versioning or a copy of the bucket, taken after the dump. ' +
  'See docs/cli.md, "Backup and restore".';

interface LocalFlags {
  dataDir?: string;
  json?: boolean;
}

/** The data folder of a SQLite + local disk deployment, or a refusal naming what to back up instead. */
function localDataDir(ctx: CommandContext, flags: LocalFlags): string {
  const config = loadConfig(flags.dataDir ? { ...ctx.io.env, PARLEY_DATA_DIR: flags.dataDir } : ctx.io.env);
  const external = [
    ...(config.databaseUrl ? ['PostgreSQL (PARLEY_DATABASE_URL)'] : []),
    ...(config.blobStore.kind === 's3' ? ['S3 (PARLEY_S3_BUCKET)'] : []),
  ];
  if (external.length > 0)
    throw new CommandFailure(`${external.join(' and ')} in use: ${EXTERNAL_STORES_MESSAGE}`);
  return resolve(config.dataDir);
}

/**
 * `backup` and `restore`: local commands that read and write the data folder directly (not over HTTP), for
 * a Parley on SQLite and local disk.
 */
export function backupCommands(program: Command, ctx: CommandContext): void {
  program
    .command('backup')
    .summary('copy the data folder into a .tar.gz while Parley runs (local, not over HTTP)')
    .description(
      'copy the data folder (PARLEY_DATA_DIR: SQLite database, files, bootstrap.json) into a .tar.gz while Parley ' +
        "runs: a local command, run on the server's machine, not over HTTP. The database is copied with SQLite's " +
        'online backup API (one consistent instant), then the files its records name. SQLite and local disk only; ' +
        'with PostgreSQL or S3 it explains what to back up instead. The archive holds secrets: it is written 0600.',
    )
    .option('-o, --output <file>', 'archive to write (default parley-YYYYMMDD.tar.gz in this folder)')
    .option('--data-dir <dir>', 'data folder (default PARLEY_DATA_DIR)')
    .option('--json', 'print JSON')
    .action(async (flags: LocalFlags & { output?: string }) => {
      const dataDir = localDataDir(ctx, flags);
      // tar and the archive code are imported by the commands that use them, not by every start of the CLI.
      const { backupDataDir, defaultBackupName } = await import('./backup-archive.js');
      const output = resolve(flags.output ?? defaultBackupName());
      const manifest = await backupDataDir(dataDir, output, packageVersion());
      if (flags.json) ctx.print({ backup: output, ...manifest });
      else
        ctx.io.out(
          `Backed up ${dataDir} to ${output}: ${manifest.files} file record(s), ${manifest.blobs} stored file(s) (${formatBytes(manifest.blobBytes)})\n`,
        );
    });

  program
    .command('restore')
    .summary('restore a backup into an empty data folder (local, not over HTTP)')
    .description(
      'restore a backup archive into an empty or new data folder (PARLEY_DATA_DIR); refuses a folder that is not ' +
        'empty. A local command, not over HTTP: run it with Parley stopped, then start Parley on that folder.',
    )
    .argument('<archive>', 'a .tar.gz written by parley backup')
    .option('--data-dir <dir>', 'data folder to restore into (default PARLEY_DATA_DIR)')
    .option('--json', 'print JSON')
    .action(async (archive: string, flags: LocalFlags) => {
      const dataDir = localDataDir(ctx, flags);
      const { restoreDataDir } = await import('./backup-archive.js');
      const manifest = await restoreDataDir(resolve(archive), dataDir);
      if (flags.json) ctx.print({ restored: dataDir, ...manifest });
      else
        ctx.io.out(
          `Restored ${archive} (taken ${manifest.createdAt}) into ${dataDir}: ${manifest.files} file record(s), ${manifest.blobs} stored file(s). Start Parley with PARLEY_DATA_DIR=${dataDir}\n`,
        );
    });
}
