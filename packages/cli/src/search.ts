import type { SearchMode } from '@parley/client';
import type { CommandContext } from '@parley/server/cli';
import { type Command, Option } from 'commander';
import { type ConnectionFlags, clientOf, remote, remoteOptions, wholeNumber } from './connection.js';
import { knowledgeBaseOf } from './kb.js';
import { collectTags } from './text.js';

interface SearchFlags extends ConnectionFlags {
  limit: number;
  kb?: string[];
  tags: Record<string, string>;
  mode?: SearchMode;
  json?: boolean;
}

/** `search "<query>"`: the passages of a bot's indexed files that best match a query, over HTTP. */
export function searchCommand(program: Command, ctx: CommandContext): void {
  remoteOptions(
    program
      .command('search')
      .description("search a bot's indexed files over HTTP (a running Parley: --url, --token, --bot)")
      .argument('<query>', 'what to look for (quote it)'),
  )
    .addOption(new Option('--limit <n>', 'passages to show').argParser(wholeNumber).default(5))
    .option('--kb <knowledgeBase...>', 'only files linked to these knowledge bases (ids or names)')
    .option('--tags <key=value>', 'only files with these tags (repeat, or comma-separate)', collectTags, {})
    .addOption(new Option('--mode <mode>', 'ranking').choices(['hybrid', 'lexical', 'semantic']))
    .option('--json', 'print JSON')
    .action(async (query: string, flags: SearchFlags, command: Command) => {
      const client = clientOf(command, flags, ctx.io, ['bot']);
      const { passages } = await remote(async () => {
        const kbs = flags.kb ? await Promise.all(flags.kb.map((k) => knowledgeBaseOf(client, k))) : [];
        return client.searchFiles({
          query,
          limit: flags.limit,
          ...(kbs.length > 0 ? { knowledgeBaseIds: kbs.map((k) => k.id) } : {}),
          ...(Object.keys(flags.tags).length > 0 ? { tags: flags.tags } : {}),
          ...(flags.mode ? { mode: flags.mode } : {}),
        });
      });
      if (flags.json) {
        ctx.print({ passages });
        return;
      }
      if (passages.length === 0) ctx.io.out('No passage found.\n');
      passages.forEach((p, i) => {
        const page = p.meta.pageNumber ? `, page ${p.meta.pageNumber}` : '';
        const text = p.content.replace(/\s+/g, ' ').trim();
        ctx.io.out(
          `${i + 1}. ${p.file.key}${page} (score ${p.score.toFixed(3)})\n   ${text.length > 300 ? `${text.slice(0, 299)}…` : text}\n`,
        );
      });
    });
}
