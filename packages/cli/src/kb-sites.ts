import type { Client, KnowledgeBase, KnowledgeSource } from '@parley/client';
import {
  type CommandContext,
  CommandFailure,
  type CommandIo,
  formatBytes,
  terminalOf,
} from '@parley/server/cli';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { type ConnectionFlags, clientOf, remote, remoteOptions, wholeNumber } from './connection.js';
import { knowledgeBaseOf } from './kb.js';
import { columns } from './text.js';

/** A source's schedule, as the API takes it. */
type SourceSchedule = KnowledgeSource['schedule'];

interface SiteFlags extends ConnectionFlags {
  json?: boolean;
  wait: boolean;
}

interface AddSiteFlags extends SiteFlags {
  include: string[];
  exclude: string[];
  maxPages?: number;
  maxDepth?: number;
  schedule?: SourceSchedule;
  subdomains?: boolean;
  renderJs?: boolean;
}

interface SetSiteFlags extends ConnectionFlags {
  json?: boolean;
  /** Patterns given, or false for --no-include (none). */
  include?: string[] | false;
  exclude?: string[] | false;
  maxPages?: number;
  maxDepth?: number;
  schedule?: SourceSchedule;
  subdomains?: boolean;
}

/** `parley kb <verb> <knowledgeBase> <sourceId>`: a command on one website source of a knowledge base. */
function sourceCommand(kb: Command, verb: string, description: string): Command {
  return remoteOptions(
    kb
      .command(verb)
      .description(description)
      .argument('<knowledgeBase>', 'knowledge base id or name')
      .argument('<sourceId>', 'the source (parley kb sources)'),
  );
}

/** Runs `fn` over the Files API on the knowledge base `idOrName` names (an id or a name), as a remote call. */
function onKnowledgeBase<T>(
  ctx: CommandContext,
  command: Command,
  flags: ConnectionFlags,
  idOrName: string,
  fn: (client: Client, target: KnowledgeBase) => Promise<T>,
): Promise<T> {
  const client = clientOf(command, flags, ctx.io, ['bot']);
  return remote(async () => fn(client, await knowledgeBaseOf(client, idOrName)));
}

/** How often a running crawl's counts are read. */
const POLL_MS = 500;

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * A `--schedule` value: `off`, `daily`, `weekly`, or five fields of a cron expression (spaces squeezed); the
 * server checks the fields themselves.
 * @throws InvalidArgumentError for anything else (the command exits 2)
 * @example scheduleOf(' 0  3 * * 1 ') // '0 3 * * 1'
 */
export function scheduleOf(value: string): SourceSchedule {
  const words = value.trim().split(/\s+/);
  if (words.length === 1 && ['off', 'daily', 'weekly'].includes(words[0] as string))
    return words[0] as SourceSchedule;
  if (words.length === 5) return words.join(' ');
  throw new InvalidArgumentError(
    'off, daily, weekly, or a cron expression of five fields in UTC ("0 3 * * 1")',
  );
}

function depth(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number ≥ 0');
  return n;
}

/** `found 12 · fetched 10 · indexed 8 · unchanged 0 · skipped 2` of a crawl's counts. */
export function progressLine(source: KnowledgeSource): string {
  const c = source.progress;
  return `${source.state}: found ${c.found} · fetched ${c.fetched} · indexed ${c.indexed} · unchanged ${c.unchanged} · skipped ${c.skipped}${c.removed > 0 ? ` · removed ${c.removed}` : ''} · ${formatBytes(c.bytes)}`;
}

/** The end of a run: its outcome and counts, then the skipped pages by reason with a few of each. */
export function runSummary(source: KnowledgeSource): string {
  const run = source.runs[0];
  if (!run) return `${source.id}: no run yet\n`;
  const c = run.counts;
  const seconds = (Date.parse(run.endedAt) - Date.parse(run.startedAt)) / 1000;
  let text = `${source.url}: ${run.outcome} in ${seconds.toFixed(1)} s — found ${c.found}, fetched ${c.fetched}, indexed ${c.indexed}, unchanged ${c.unchanged}, skipped ${c.skipped}, removed ${c.removed} (${formatBytes(c.bytes)}); ${source.pages} page(s) in the knowledge base\n`;
  if (run.message) text += `  ${run.message}\n`;
  const byReason = new Map<string, string[]>();
  for (const s of source.skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s.url]);
  if (byReason.size > 0) {
    text += 'skipped:\n';
    for (const [reason, urls] of [...byReason].sort((a, b) => b[1].length - a[1].length)) {
      text += `  ${reason} (${urls.length}): ${urls.slice(0, 3).join(', ')}${urls.length > 3 ? ', …' : ''}\n`;
    }
  }
  return text;
}

/**
 * Follows a source until the run after `before` (the newest run's start when the sync was asked, or none)
 * has ended: the counts on one line redrawn on a terminal, else a line each time they change.
 */
async function follow(
  client: Client,
  io: CommandIo,
  input: { id: string; sourceId: string },
  before: string | undefined,
  quiet: boolean,
): Promise<KnowledgeSource> {
  const terminal = quiet ? undefined : terminalOf(io);
  let last = '';
  for (;;) {
    const { source } = await client.getKnowledgeSource(input);
    const ended = source.state === 'idle' && source.runs[0] && source.runs[0].startedAt !== before;
    const line = progressLine(source);
    if (!quiet && line !== last) {
      if (terminal) terminal.write(`\r\x1b[2K${line}`);
      else io.out(`${line}\n`);
      last = line;
    }
    if (ended) {
      if (terminal) terminal.write('\n');
      return source;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Prints the ended source (JSON or the summary) and fails the command when its run failed. */
function finish(ctx: CommandContext, flags: SiteFlags, source: KnowledgeSource): void {
  if (flags.json) ctx.print({ source });
  else ctx.io.out(runSummary(source));
  if (source.runs[0]?.outcome === 'failed')
    throw new CommandFailure(
      `the crawl of ${source.url} failed: ${source.runs[0].message ?? 'no reason given'}`,
    );
}

/** `kb add-site|sources|sync|stop-site|rm-site`: the website sources of a knowledge base over HTTP. */
export function siteCommands(program: Command, ctx: CommandContext): void {
  const kb = program.commands.find((c) => c.name() === 'kb') ?? program.command('kb');
  remoteOptions(
    kb
      .command('add-site')
      .description(
        'crawl a website (a start page or a sitemap) into a knowledge base, and follow the first crawl',
      )
      .argument('<knowledgeBase>', 'knowledge base id or name')
      .argument('<url>', 'a start page or a sitemap, http(s)'),
  )
    .option('--include <pattern>', 'only paths matching (repeat; * any but /, ** anything)', collect, [])
    .option('--exclude <pattern>', 'no path matching (repeat)', collect, [])
    .addOption(new Option('--max-pages <n>', 'pages at most (default 500)').argParser(wholeNumber))
    .addOption(
      new Option('--max-depth <n>', 'links followed from the start page (default 10)').argParser(depth),
    )
    .addOption(
      new Option(
        '--schedule <when>',
        'crawl again on its own: off (the default), daily, weekly, or a cron expression of five fields in UTC ("0 3 * * 1": Mondays at 03:00)',
      ).argParser(scheduleOf),
    )
    .option('--subdomains', "also crawl the start host's subdomains")
    .option(
      '--render-js',
      'render each page by JavaScript first (needs PARLEY_CRAWL_RENDER_JS=true on the server)',
    )
    .option('--no-wait', 'end once the source is created, without following its first crawl')
    .option('--json', 'print JSON')
    .action(async (idOrName: string, url: string, flags: AddSiteFlags, command: Command) => {
      const source = await onKnowledgeBase(ctx, command, flags, idOrName, async (client, target) => {
        const { source: created } = await client.createKnowledgeSource({
          id: target.id,
          type: 'website',
          url,
          ...(flags.include.length > 0 ? { include: flags.include } : {}),
          ...(flags.exclude.length > 0 ? { exclude: flags.exclude } : {}),
          ...(flags.maxPages !== undefined ? { maxPages: flags.maxPages } : {}),
          ...(flags.maxDepth !== undefined ? { maxDepth: flags.maxDepth } : {}),
          ...(flags.schedule ? { schedule: flags.schedule } : {}),
          ...(flags.subdomains ? { subdomains: true } : {}),
          ...(flags.renderJs ? { render: 'javascript' as const } : {}),
        });
        if (!flags.wait) return created;
        if (!flags.json) ctx.io.out(`added ${created.id} ${created.url} to ${target.name}; crawling\n`);
        return follow(
          client,
          ctx.io,
          { id: target.id, sourceId: created.id },
          undefined,
          flags.json === true,
        );
      });
      if (!flags.wait) {
        if (flags.json) ctx.print({ source });
        else ctx.io.out(`added ${source.id} ${source.url}; its first crawl is ${source.state}\n`);
        return;
      }
      finish(ctx, flags, source);
    });

  remoteOptions(
    kb
      .command('sources')
      .description("list a knowledge base's website sources")
      .argument('<knowledgeBase>', 'knowledge base id or name'),
  )
    .option('--json', 'print JSON')
    .action(async (idOrName: string, flags: SiteFlags, command: Command) => {
      const sources = await onKnowledgeBase(ctx, command, flags, idOrName, async (client, target) => {
        return (await client.listKnowledgeSources({ id: target.id })).sources;
      });
      if (flags.json) {
        ctx.print({ sources });
        return;
      }
      if (sources.length === 0) {
        ctx.io.out('No website sources (parley kb add-site adds one)\n');
        return;
      }
      const rows = [['ID', 'URL', 'STATE', 'PAGES', 'SCHEDULE', 'LAST RUN']];
      for (const s of sources) {
        const run = s.runs[0];
        rows.push([
          s.id,
          s.url,
          s.state,
          String(s.pages),
          s.schedule,
          run ? `${run.outcome} ${run.endedAt}` : '–',
        ]);
      }
      ctx.io.out(columns(rows));
    });

  sourceCommand(kb, 'sync', 'crawl a website source again now, and follow the crawl')
    .option('--no-wait', 'end once the crawl is queued')
    .option('--json', 'print JSON')
    .action(async (idOrName: string, sourceId: string, flags: SiteFlags, command: Command) => {
      const source = await onKnowledgeBase(ctx, command, flags, idOrName, async (client, target) => {
        const input = { id: target.id, sourceId };
        const before = (await client.getKnowledgeSource(input)).source.runs[0]?.startedAt;
        const { source: queued } = await client.syncKnowledgeSource(input);
        if (!flags.wait) return queued;
        return follow(client, ctx.io, input, before ?? '', flags.json === true);
      });
      if (!flags.wait) {
        if (flags.json) ctx.print({ source });
        else ctx.io.out(`${source.id}: crawl ${source.state}\n`);
        return;
      }
      finish(ctx, flags, source);
    });

  sourceCommand(kb, 'set-site', "change a website source's paths, limits or schedule, from its next crawl")
    .option('--include <pattern>', "only paths matching (repeat; replaces the source's)", collect)
    .option('--exclude <pattern>', "no path matching (repeat; replaces the source's)", collect)
    .option('--no-include', 'every path again (no include pattern)')
    .option('--no-exclude', 'no exclude pattern')
    .addOption(new Option('--max-pages <n>', 'pages at most').argParser(wholeNumber))
    .addOption(new Option('--max-depth <n>', 'links followed from the start page').argParser(depth))
    .addOption(
      new Option(
        '--schedule <when>',
        'off, daily, weekly, or a cron expression of five fields in UTC',
      ).argParser(scheduleOf),
    )
    .option('--subdomains', "also crawl the start host's subdomains")
    .option('--no-subdomains', 'the start host only')
    .option('--json', 'print JSON')
    .action(async (idOrName: string, sourceId: string, flags: SetSiteFlags, command: Command) => {
      const changes = {
        ...(flags.include !== undefined ? { include: flags.include === false ? [] : flags.include } : {}),
        ...(flags.exclude !== undefined ? { exclude: flags.exclude === false ? [] : flags.exclude } : {}),
        ...(flags.maxPages !== undefined ? { maxPages: flags.maxPages } : {}),
        ...(flags.maxDepth !== undefined ? { maxDepth: flags.maxDepth } : {}),
        ...(flags.subdomains !== undefined ? { subdomains: flags.subdomains } : {}),
        ...(flags.schedule !== undefined ? { schedule: flags.schedule } : {}),
      };
      if (Object.keys(changes).length === 0)
        command.error(
          'nothing to change: give --include, --exclude, --max-pages, --max-depth, --subdomains or --schedule',
          { exitCode: 2 },
        );
      const source = await onKnowledgeBase(
        ctx,
        command,
        flags,
        idOrName,
        async (client, target) =>
          (await client.updateKnowledgeSource({ id: target.id, sourceId, ...changes })).source,
      );
      if (flags.json) ctx.print({ source });
      else
        ctx.io.out(
          `${source.id}: schedule ${source.schedule}${source.nextSyncAt ? ` (next ${source.nextSyncAt})` : ''} · include ${source.include.join(' ') || '*'} · exclude ${source.exclude.join(' ') || '–'} · max pages ${source.maxPages} · max depth ${source.maxDepth}\n`,
        );
    });

  for (const [verb, description] of [
    ['stop-site', "stop a website source's crawl at its next page"],
    ['rm-site', 'delete a website source and the files of its pages'],
  ] as const) {
    sourceCommand(kb, verb, description)
      .option('--json', 'print JSON')
      .action(async (idOrName: string, sourceId: string, flags: SiteFlags, command: Command) => {
        const source = await onKnowledgeBase(ctx, command, flags, idOrName, async (client, target) => {
          const input = { id: target.id, sourceId };
          if (verb === 'rm-site') {
            await client.deleteKnowledgeSource(input);
            return undefined;
          }
          return (await client.stopKnowledgeSource(input)).source;
        });
        if (flags.json) ctx.print(source ? { source } : { deleted: sourceId });
        else ctx.io.out(source ? `${source.id}: ${source.state}\n` : `deleted ${sourceId}\n`);
      });
  }
}
