import type { Client, KnowledgeBase } from '@parley/client';
import { type CommandContext, CommandFailure } from '@parley/server/cli';
import type { Command } from 'commander';
import { type ConnectionFlags, clientOf, remote, remoteOptions } from './connection.js';
import { collectTags, columns } from './text.js';

/** The bot's knowledge base with this id, else with this name; a failure naming `kb list` when none. */
export async function knowledgeBaseOf(client: Client, idOrName: string): Promise<KnowledgeBase> {
  const all = await client.list.knowledgeBases({ pageSize: 100 }).collect();
  const found = all.find((kb) => kb.id === idOrName) ?? all.filter((kb) => kb.name === idOrName);
  if (!Array.isArray(found)) return found;
  if (found.length === 1 && found[0]) return found[0];
  if (found.length > 1)
    throw new CommandFailure(
      `${found.length} knowledge bases are named "${idOrName}": give its id (parley kb list)`,
    );
  throw new CommandFailure(
    `No knowledge base "${idOrName}" on bot ${client.botId} (parley kb list shows them)`,
  );
}

interface JsonFlags extends ConnectionFlags {
  json?: boolean;
}

function show(ctx: CommandContext, flags: JsonFlags, kb: KnowledgeBase, verb: string): void {
  if (flags.json) ctx.print({ knowledgeBase: kb });
  else
    ctx.io.out(
      `${verb} ${kb.id} "${kb.name}": ${kb.files.total} file(s), ${kb.files.indexed} indexed, ${kb.files.pending} pending, ${kb.files.failed} failed\n`,
    );
}

/** `kb create|list|link|unlink`: a bot's knowledge bases over HTTP. */
export function kbCommands(program: Command, ctx: CommandContext): void {
  const kb = program
    .command('kb')
    .description("work on a bot's knowledge bases over HTTP (a running Parley: --url, --token, --bot)");

  remoteOptions(kb.command('create').description('create a knowledge base').argument('<name>', 'its name'))
    .option('--tags <key=value>', 'its tags (repeat, or comma-separate)', collectTags, {})
    .option('--json', 'print JSON')
    .action(async (name: string, flags: JsonFlags & { tags: Record<string, string> }, command: Command) => {
      const client = clientOf(command, flags, ctx.io, ['bot']);
      const { knowledgeBase } = await remote(() =>
        client.createKnowledgeBase({
          name,
          ...(Object.keys(flags.tags).length > 0 ? { tags: flags.tags } : {}),
        }),
      );
      show(ctx, flags, knowledgeBase, 'created');
    });

  remoteOptions(kb.command('list').description("list the bot's knowledge bases"))
    .option('--json', 'print JSON')
    .action(async (flags: JsonFlags, command: Command) => {
      const client = clientOf(command, flags, ctx.io, ['bot']);
      const all = await remote(() => client.list.knowledgeBases({ pageSize: 100 }).collect());
      if (flags.json) {
        ctx.print({ knowledgeBases: all });
        return;
      }
      const rows = [['ID', 'NAME', 'FILES', 'INDEXED', 'PENDING', 'FAILED']];
      for (const k of all)
        rows.push([
          k.id,
          k.name,
          String(k.files.total),
          String(k.files.indexed),
          String(k.files.pending),
          String(k.files.failed),
        ]);
      ctx.io.out(columns(rows));
    });

  for (const [verb, past] of [
    ['link', 'linked to'],
    ['unlink', 'unlinked from'],
  ] as const) {
    remoteOptions(
      kb
        .command(verb)
        .description(
          `${verb} files ${verb === 'link' ? 'to' : 'from'} a knowledge base${verb === 'link' ? ' (a file not indexed starts indexing)' : ' (the files stay)'}`,
        )
        .argument('<knowledgeBase>', 'knowledge base id or name')
        .argument('<files...>', 'file ids or keys'),
    )
      .option('--json', 'print JSON')
      .action(async (idOrName: string, files: string[], flags: JsonFlags, command: Command) => {
        const client = clientOf(command, flags, ctx.io, ['bot']);
        const updated = await remote(async () => {
          const target = await knowledgeBaseOf(client, idOrName);
          let last = target;
          for (const fileId of files) {
            const input = { id: target.id, fileId };
            last = (
              verb === 'link'
                ? await client.linkKnowledgeBaseFile(input)
                : await client.unlinkKnowledgeBaseFile(input)
            ).knowledgeBase;
            if (!flags.json) ctx.io.out(`${fileId} ${past} ${target.name}\n`);
          }
          return last;
        });
        show(ctx, flags, updated, 'now');
      });
  }
}
