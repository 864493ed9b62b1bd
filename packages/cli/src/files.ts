import { basename, resolve } from 'node:path';
import type { FileAccessPolicy, FileStatus } from '@parley/client';
import { FILE_STATUSES } from '@parley/protocol';
import { type CommandContext, CommandFailure, formatBytes, terminalOf } from '@parley/server/cli';
import { type Command, Option } from 'commander';
import { type ConnectionFlags, clientOf, remote, remoteOptions, wholeNumber } from './connection.js';
import { saveTo } from './download.js';
import { knowledgeBaseOf } from './kb.js';
import { collectTags, columns } from './text.js';
import type { SkippedLink } from './upload-plan.js';

interface UploadFlags extends ConnectionFlags {
  kb?: string;
  tags: Record<string, string>;
  public?: boolean;
  concurrency: number;
  prefix: string;
  index: boolean;
  wait: boolean;
  indexTimeout: number;
  followSymlinks?: boolean;
  json?: boolean;
}

/** Why a symbolic link under a folder or glob was left out. */
const LINK_NOTES: Record<SkippedLink['reason'], string> = {
  link: 'a symbolic link (--follow-symlinks follows the ones inside the folder)',
  outside: 'a symbolic link to outside the folder given (never followed)',
  loop: 'a symbolic link to a folder that holds it (a loop)',
};

/** `files upload`: folders, files and globs to a bot, with live progress and a summary. */
function uploadCommand(files: Command, ctx: CommandContext): void {
  remoteOptions(
    files
      .command('upload')
      .description(
        'upload files, folders (every file under them, hidden ones left out) and globs to a bot, then wait for ' +
          'indexing; a file whose key and sha256 the bot already holds is skipped. Keys are paths under the folder ' +
          "(or the glob's fixed part) given. Symbolic links under a folder or glob are left out (with a note) " +
          'unless --follow-symlinks. Exit code 1 when any file failed.',
      )
      .argument('<paths...>', 'files, folders or globs (quote globs: "docs/**/*.pdf")'),
  )
    .option('--kb <knowledgeBase>', 'link every file to this knowledge base (id or name)')
    .option('--tags <key=value>', 'tag every file (repeat, or comma-separate)', collectTags, {})
    .option('--public', 'give the files the public_content policy (a permanent URL anyone may open)')
    .addOption(new Option('--concurrency <n>', 'files uploading at once').argParser(wholeNumber).default(4))
    .option('--prefix <prefix>', 'put the keys under this folder', '')
    .option('--no-index', 'store the files without indexing them')
    .option('--no-wait', 'end once the bytes are stored, without waiting for indexing')
    .addOption(
      new Option('--index-timeout <seconds>', "longest wait for one file's indexing")
        .argParser(wholeNumber)
        .default(600),
    )
    .option(
      '--follow-symlinks',
      'upload what symbolic links under a folder or glob point to, when it is inside that folder (never outside)',
    )
    .option('--json', 'print a JSON report (one entry per file) instead of progress and a table')
    .action(async (paths: string[], flags: UploadFlags, command: Command) => {
      // Imported by the command that uses them (progress bars, tables, globs), not by every start of the CLI.
      const { planUpload } = await import('./upload-plan.js');
      const { runUpload } = await import('./upload-run.js');
      const { liveDisplay, plainDisplay, silentDisplay, summarize } = await import('./upload-display.js');
      const client = clientOf(command, flags, ctx.io, ['bot']);
      const { files: planned, skipped } = await planUpload(paths, process.cwd(), {
        prefix: flags.prefix,
        followSymlinks: flags.followSymlinks ?? false,
      });
      for (const link of skipped) ctx.io.err(`note: skipped ${link.path}: ${LINK_NOTES[link.reason]}\n`);
      const reports = await remote(async () => {
        // Unknown bot or bad token: one clear error before any file is read.
        await client.listFiles({ pageSize: 1 });
        const kb = flags.kb ? await knowledgeBaseOf(client, flags.kb) : undefined;
        const terminal = terminalOf(ctx.io);
        const display = flags.json
          ? silentDisplay()
          : terminal
            ? liveDisplay(terminal, planned)
            : plainDisplay(ctx.io, planned.length);
        if (!flags.json && !terminal)
          ctx.io.out(
            `Uploading ${planned.length} file(s), ${formatBytes(planned.reduce((n, f) => n + f.size, 0))}, to bot ${client.botId}\n`,
          );
        const started = Date.now();
        const { reports: ended, storedMs } = await runUpload(
          client,
          planned,
          {
            tags: flags.tags,
            accessPolicies: flags.public ? (['public_content'] satisfies FileAccessPolicy[]) : undefined,
            knowledgeBaseId: kb?.id,
            concurrency: flags.concurrency,
            index: flags.index,
            wait: flags.wait,
            indexTimeoutMs: flags.indexTimeout * 1000,
            pollMs: 500,
          },
          display,
        );
        const summary = summarize(ended, storedMs / 1000, (Date.now() - started) / 1000);
        display.end(ended, summary);
        if (flags.json) ctx.print({ botId: client.botId, summary, files: ended, skippedLinks: skipped });
        return summary;
      });
      if (reports.failed > 0)
        throw new CommandFailure(`${reports.failed} of ${reports.files} file(s) failed`);
    });
}

interface ListFlags extends ConnectionFlags {
  tags: Record<string, string>;
  status?: FileStatus[];
  keyContains?: string;
  json?: boolean;
}

/** `files list`. */
function listCommand(files: Command, ctx: CommandContext): void {
  remoteOptions(files.command('list').description("list a bot's files (every page)"))
    .option('--tags <key=value>', 'only files with these tags (repeat, or comma-separate)', collectTags, {})
    .addOption(new Option('--status <status...>', 'only files in these states').choices(FILE_STATUSES))
    .option('--key-contains <text>', 'only files whose key contains this text')
    .option('--json', 'print JSON')
    .action(async (flags: ListFlags, command: Command) => {
      const client = clientOf(command, flags, ctx.io, ['bot']);
      const all = await remote(() =>
        client.list
          .files({
            ...(Object.keys(flags.tags).length > 0 ? { tags: flags.tags } : {}),
            ...(flags.status ? { status: flags.status } : {}),
            ...(flags.keyContains ? { keyContains: flags.keyContains } : {}),
            pageSize: 100,
            sortField: 'key',
            sortDirection: 'asc',
          })
          .collect(),
      );
      if (flags.json) {
        ctx.print({ files: all });
        return;
      }
      const rows = [['KEY', 'STATUS', 'SIZE', 'UPDATED', 'ID']];
      for (const f of all)
        rows.push([f.key, f.status, f.size === null ? '-' : formatBytes(f.size), f.updatedAt, f.id]);
      ctx.io.out(columns(rows));
      ctx.io.out(`${all.length} file(s)\n`);
    });
}

interface DownloadFlags extends ConnectionFlags {
  output?: string;
}

/** `files download`. */
function downloadCommand(files: Command, ctx: CommandContext): void {
  remoteOptions(
    files
      .command('download')
      .description("download a file's bytes (checked against its sha256)")
      .argument('<file>', 'file id or key'),
  )
    .option('-o, --output <path>', 'where to write it (default: the last part of its key, in this folder)')
    .action(async (idOrKey: string, flags: DownloadFlags, command: Command) => {
      const client = clientOf(command, flags, ctx.io, ['bot']);
      const target = resolve(flags.output ?? basename(idOrKey));
      const file = await remote(() => saveTo(client, idOrKey, target));
      ctx.io.out(`${file.key} → ${target} (${formatBytes(file.size ?? 0)})\n`);
    });
}

/** `files rm`. */
function rmCommand(files: Command, ctx: CommandContext): void {
  remoteOptions(
    files
      .command('rm')
      .description('delete files (their bytes and passages)')
      .argument('<files...>', 'file ids or keys'),
  ).action(async (ids: string[], flags: ConnectionFlags, command: Command) => {
    const client = clientOf(command, flags, ctx.io, ['bot']);
    await remote(async () => {
      for (const id of ids) {
        await client.deleteFile({ id });
        ctx.io.out(`deleted ${id}\n`);
      }
    });
  });
}

/** `files upload|list|download|rm`: a bot's files, over the Files API of a running Parley. */
export function filesCommands(program: Command, ctx: CommandContext): void {
  const files = program
    .command('files')
    .description("work on a bot's files over HTTP (a running Parley: --url, --token, --bot)");
  for (const add of [uploadCommand, listCommand, downloadCommand, rmCommand]) add(files, ctx);
}
