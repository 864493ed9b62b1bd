import { createWriteStream } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type CommandContext, CommandFailure } from '@parley/server/cli';
import type { Command } from 'commander';
import { type ConnectionFlags, clientOf, remote, remoteOptions } from './connection.js';

interface ExportFlags extends ConnectionFlags {
  format?: string;
  from?: string;
  to?: string;
  conversation?: string;
  output?: string;
}

/** `conversations export`: a bot's conversations of a period (or one) as JSON or CSV, over HTTP, streamed. */
export function conversationsCommands(program: Command, ctx: CommandContext): void {
  const conversations = program
    .command('conversations')
    .description(
      "work on a bot's conversations over HTTP (a running Parley: --url, --token, --workspace, --bot)",
    );

  remoteOptions(
    conversations
      .command('export')
      .description(
        "write the bot's conversations created from --from (included) to --to (excluded), or one (--conversation), with their messages, as JSON or CSV",
      ),
  )
    .option('--format <format>', 'json (default) or csv (one row per message)')
    .option('--from <time>', 'conversations created at or after this date or time (ISO 8601)')
    .option('--to <time>', 'conversations created before this date or time (ISO 8601)')
    .option('--conversation <conversationId>', 'only this conversation')
    .option('-o, --output <file>', 'file to write (default: standard output)')
    .action(async (flags: ExportFlags, command: Command) => {
      const format = flags.format ?? (flags.output?.toLowerCase().endsWith('.csv') ? 'csv' : 'json');
      if (format !== 'csv' && format !== 'json')
        throw new CommandFailure(`--format is csv or json, not "${format}"`);
      const client = clientOf(command, flags, ctx.io, ['bot', 'workspace']);
      const id = client.botId as string;
      const conversationId = flags.conversation;
      const exported = await remote(() =>
        conversationId
          ? client.exportBotConversation({ id, conversationId, format })
          : client.exportBotConversations({ id, format, from: flags.from, to: flags.to }),
      );
      const source = Readable.fromWeb(exported.stream as Parameters<typeof Readable.fromWeb>[0]);
      if (flags.output) {
        await remote(() => pipeline(source, createWriteStream(flags.output as string)));
        ctx.io.err(`Exported to ${flags.output}\n`);
        return;
      }
      const decoder = new TextDecoder();
      const out = new Writable({
        write(chunk: Buffer, _encoding, done) {
          ctx.io.out(decoder.decode(chunk, { stream: true }));
          done();
        },
      });
      await remote(() => pipeline(source, out));
    });
}
