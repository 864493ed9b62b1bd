import { resolve } from 'node:path';
import { type CommandContext, formatBytes } from '@parley/server/cli';
import type { Command } from 'commander';
import { type ConnectionFlags, clientOf, remote, remoteOptions } from './connection.js';

/** `n Q&A entries`, singular for one. */
const entries = (n: number) => `${n} Q&A entr${n === 1 ? 'y' : 'ies'}`;

interface ExportFlags extends ConnectionFlags {
  output?: string;
  json?: boolean;
}

interface ImportFlags extends ConnectionFlags {
  name?: string;
  carryPassages?: boolean;
  json?: boolean;
}

/**
 * `bots export` and `bots import`: a bot moved between Parleys over HTTP, added to the `bots` group of the
 * server's commands (registered after it).
 */
export function botTransferCommands(program: Command, ctx: CommandContext): void {
  const bots =
    program.commands.find((c) => c.name() === 'bots') ?? program.command('bots').description('manage bots');
  remoteOptions(
    bots
      .command('export')
      .summary('write a bot to a .tar.gz, to move it to another Parley (over HTTP)')
      .description(
        "write a bot's settings, webchat configuration, knowledge bases, Q&A entries and files (bytes, tags, metadata, policies, " +
          'links, passages of indexed files) to a .tar.gz, over HTTP (a running Parley: --url, --token, --workspace, --bot). ' +
          'Not exported: conversations, access keys, the webhook URL and secrets.',
      ),
  )
    .option('-o, --output <file>', 'archive to write (default bot-<botId>.tar.gz)')
    .option('--json', 'print JSON')
    .action(async (flags: ExportFlags, command: Command) => {
      // tar and the transfer code are imported by the commands that use them, not by every start of the CLI.
      const { exportBot } = await import('./bot-transfer.js');
      const client = clientOf(command, flags, ctx.io, ['bot', 'workspace']);
      const botId = client.botId as string;
      const output = resolve(flags.output ?? `bot-${botId}.tar.gz`);
      const manifest = await remote(() => exportBot(client, botId, output));
      const bytes = manifest.files.reduce((n, f) => n + f.size, 0);
      if (flags.json)
        ctx.print({
          export: output,
          files: manifest.files.length,
          knowledgeBases: manifest.knowledgeBases.length,
          qaEntries: manifest.qaEntries?.length ?? 0,
          skipped: manifest.skipped,
        });
      else
        ctx.io.out(
          `Exported bot ${botId} to ${output}: ${manifest.files.length} file(s) (${formatBytes(bytes)}), ${manifest.knowledgeBases.length} knowledge base(s), ${entries(manifest.qaEntries?.length ?? 0)}${manifest.skipped.length ? `; ${manifest.skipped.length} file(s) without bytes left out` : ''}\n`,
        );
    });

  remoteOptions(
    bots
      .command('import')
      .summary('create a bot from a parley bots export archive (over HTTP)')
      .description(
        'create a bot in a workspace from a parley bots export archive, over HTTP (--url, --token, --workspace): ' +
          'new ids for the bot, its knowledge bases and files; files are indexed again from their bytes.',
      )
      .argument('<archive>', 'a .tar.gz written by parley bots export'),
  )
    .option('--name <name>', "the new bot's name (default: the exported bot's)")
    .option(
      '--carry-passages',
      "set the exported passages as each indexed file's own instead of extracting it again (the target embeds them with its model; heading paths are not carried)",
    )
    .option('--json', 'print JSON')
    .action(async (archive: string, flags: ImportFlags, command: Command) => {
      const { importBot } = await import('./bot-transfer.js');
      const client = clientOf(command, flags, ctx.io, ['workspace']);
      const made = await remote(() =>
        importBot(client, resolve(archive), {
          name: flags.name,
          carryPassages: flags.carryPassages === true,
        }),
      );
      if (flags.json) ctx.print(made);
      else
        ctx.io.out(
          `Imported ${archive} as bot ${made.botId} in workspace ${client.workspaceId}: ${Object.keys(made.files).length} file(s), ${Object.keys(made.knowledgeBases).length} knowledge base(s), ${entries(made.qaEntries)}${made.carried ? `, passages carried for ${made.carried}` : ''}\n`,
        );
    });
}
