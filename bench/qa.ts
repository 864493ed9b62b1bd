// Q&A entries benchmark (issue 34), two figures in one run:
//  1. Teaching: on the visitor set (bench/visitor-set), an intent is one expected answer (knowledge base, source,
//     topic and facts). Of the intents asked in both halves, 10 (every other one, in the set's order) get a Q&A
//     entry whose wordings are their tune-half questions only and whose answer states their facts. Then every
//     held-out question is asked as a fresh webchat visitor (Chat API): right = a held-out question of a taught
//     intent answered by that intent's entry (target >= 90 %); false hit = any other held-out question (other
//     intents, unanswerable ones) answered by an entry (target 0). The tune half is asked too (its questions are
//     the entries' own wordings: a check that the lookup finds them).
//  2. Lookup cost: two bots holding the same documents (the visitor set's shop), one with no entries, one with
//     1,000 entries (2,000 wordings of another trade, embedded), asked the same questions, a round of each bot in
//     turns, through the answer preview (the reply the chat job would give, timed at the client), and the
//     server's CPU time per reply. Target: the entries add <= 5 ms at p95; the ratio to the no-entries bot is
//     printed beside.
//
//   npm run -w @parley/bench qa
//   npm run -w @parley/bench qa -- --rounds 10 --part lookup
//
// Options (flags win over environment): --part / BENCH_PART (teach, lookup or both, the default), --rounds /
// BENCH_ROUNDS (times the lookup part asks its questions of each bot, default 10), --entries / BENCH_ENTRIES
// (entries of the second bot, default 1000, the most a bot may hold), --dump / BENCH_DUMP (a JSON-lines file of
// every teaching question and its reply).
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { intOption, option } from './lib/args.js';
import { json, type Owner, openChat, ownerOf, say } from './lib/chat-ask.js';
import { indexDocuments, pool, progress } from './lib/corpus.js';
import { ratio, table } from './lib/format.js';
import { cpuSeconds, loadAverage } from './lib/machine.js';
import { onInterrupt, runMain, sleep } from './lib/run.js';
import { type ParleyServer, startParleyWithBot } from './lib/server.js';
import { msSince, now, summarize } from './lib/stats.js';
import { botFor } from './visitor-set/bench.js';
import { documentBytes, KNOWLEDGE_BASES, type KnowledgeBaseName } from './visitor-set/documents.js';
import { type VisitorQuestion, type VisitorSet, visitorSet } from './visitor-set/set.js';

/** Intents taught. */
const TAUGHT = 10;

/** One expected answer of the visitor set, with its questions in each half. */
interface Intent {
  key: string;
  kb: KnowledgeBaseName;
  facts: string[];
  tune: VisitorQuestion[];
  heldOut: VisitorQuestion[];
}

/** The intents asked in both halves, in the set's order. */
export function intentsOf(set: VisitorSet): Intent[] {
  const byKey = new Map<string, Intent>();
  for (const q of set.questions) {
    if (!q.answer) continue;
    const key = `${q.kb}/${q.answer.source}#${q.answer.topic}#${q.answer.facts.join('|')}`;
    const intent = byKey.get(key) ?? { key, kb: q.kb, facts: q.answer.facts, tune: [], heldOut: [] };
    (q.split === 'tune' ? intent.tune : intent.heldOut).push(q);
    byKey.set(key, intent);
  }
  return [...byKey.values()].filter((i) => i.tune.length > 0 && i.heldOut.length > 0);
}

/** The owner's Admin API headers. */
const adminHeaders = (owner: Owner) => ({
  authorization: `Bearer ${owner.token}`,
  'x-workspace-id': owner.workspaceId,
  'content-type': 'application/json',
});

/** Adds an entry to the bot: its id. */
async function addEntry(owner: Owner, botId: string, questions: string[], answer: string): Promise<string> {
  const { entry } = await json<{ entry: { id: string } }>(`${owner.url}/v1/admin/bots/${botId}/qa`, {
    method: 'POST',
    headers: adminHeaders(owner),
    body: JSON.stringify({ questions, answer }),
  });
  return entry.id;
}

/** Waits until every entry of the bot has its wordings embedded (the qa_embed jobs ran). */
async function embedded(owner: Owner, botId: string, total: number): Promise<void> {
  const bar = progress('embed ', total);
  for (;;) {
    let done = 0;
    let token: string | undefined;
    do {
      const page = await json<{ entries: Array<{ embedded: boolean }>; meta: { nextToken?: string } }>(
        `${owner.url}/v1/admin/bots/${botId}/qa?${new URLSearchParams({ pageSize: '100', ...(token ? { nextToken: token } : {}) })}`,
        { headers: adminHeaders(owner) },
      );
      done += page.entries.filter((e) => e.embedded).length;
      token = page.meta.nextToken;
    } while (token);
    bar.update(done);
    if (done >= total) break;
    await sleep(250);
  }
  bar.end();
}

/** An asked question of the teaching part, scored. */
interface Taught {
  question: VisitorQuestion;
  /** The intent's entry, when its intent was taught. */
  expected: string | undefined;
  answer: string;
  entryId: string | undefined;
  right: boolean;
  falseHit: boolean;
}

/** The entry a reply came from (its debug details name it), if it did. */
function entryOf(reply: {
  answer: string;
  details: Record<string, unknown> | undefined;
}): string | undefined {
  if (reply.answer !== 'qa') return undefined;
  const qa = reply.details?.qa as { entryId?: unknown } | undefined;
  return typeof qa?.entryId === 'string' ? qa.entryId : 'unknown';
}

/** Part 1: teach 10 intents from the tune half, ask both halves; the scored questions. */
async function teach(server: ParleyServer, owner: Owner, dump: string | undefined): Promise<Taught[]> {
  const set = visitorSet();
  const intents = intentsOf(set);
  const taught = intents.filter((_, i) => i % 2 === 0).slice(0, TAUGHT);
  console.log(
    `\nteaching: ${intents.length} intents asked in both halves, ${taught.length} taught:\n${taught.map((i) => `  ${i.key} <- ${i.tune.map((q) => `"${q.text}"`).join(', ')}`).join('\n')}`,
  );
  const bots = new Map<KnowledgeBaseName, ParleyServer>();
  for (const kb of KNOWLEDGE_BASES) bots.set(kb, await botFor(server, owner, kb));
  const entryOfIntent = new Map<string, string>();
  for (const intent of taught) {
    const bot = bots.get(intent.kb) as ParleyServer;
    const answer = `${intent.facts.join('; ')}.`;
    entryOfIntent.set(
      intent.key,
      await addEntry(
        owner,
        bot.botId,
        intent.tune.map((q) => q.text),
        answer,
      ),
    );
  }
  for (const kb of KNOWLEDGE_BASES)
    await embedded(owner, (bots.get(kb) as ParleyServer).botId, taught.filter((i) => i.kb === kb).length);
  const intentOf = new Map<string, string>();
  for (const i of intents) for (const q of [...i.tune, ...i.heldOut]) intentOf.set(q.id, i.key);
  const results: Taught[] = [];
  const bar = progress('ask   ', set.questions.length);
  for (const question of set.questions) {
    const bot = bots.get(question.kb) as ParleyServer;
    const reply = await say(await openChat(server.url, bot.botId, owner), question.text);
    const expected = entryOfIntent.get(intentOf.get(question.id) ?? '');
    const entryId = entryOf(reply);
    const scored = {
      question,
      expected,
      answer: reply.answer,
      entryId,
      right: expected !== undefined && entryId === expected,
      falseHit: entryId !== undefined && entryId !== expected,
    };
    results.push(scored);
    if (dump) await appendFile(dump, `${JSON.stringify({ ...scored, details: reply.details })}\n`);
    bar.update(results.length);
  }
  bar.end();
  return results;
}

/** The teaching table: per half, taught questions answered by their entry, and false hits among the others. */
function teachTable(results: readonly Taught[]): string {
  const rows = (['tune', 'held-out'] as const).map((split) => {
    const half = results.filter((r) => r.question.split === split);
    const taught = half.filter((r) => r.expected !== undefined);
    const others = half.filter((r) => r.expected === undefined);
    const right = taught.filter((r) => r.right).length;
    return [
      split,
      `${right}/${taught.length} (${taught.length ? Math.round((100 * right) / taught.length) : 0} %)`,
      `${others.filter((r) => r.falseHit).length + taught.filter((r) => r.falseHit).length}/${half.length}`,
      String(others.length),
    ];
  });
  return table([
    ['split', 'taught intents: answered by their entry', 'answered by a wrong entry', 'other questions'],
    ...rows,
  ]);
}

// ---------------------------------------------------------------------------------------------------------
// Part 2: the lookup's cost

const VERBS = [
  'prune',
  'water',
  'repot',
  'fertilise',
  'mulch',
  'graft',
  'transplant',
  'shade',
  'stake',
  'feed',
];
const PLANTS = [
  'tomatoes',
  'roses',
  'orchids',
  'ferns',
  'cacti',
  'bonsai',
  'hydrangeas',
  'lavender',
  'basil',
  'ivy',
];
const SEASONS = [
  'in spring',
  'in summer',
  'in autumn',
  'in winter',
  'after rain',
  'in a heatwave',
  'indoors',
  'on a balcony',
  'in clay soil',
  'in pots',
];

/** The `n`th of 1,000 gardening entries: two wordings and an answer. */
function gardenEntry(n: number): { questions: string[]; answer: string } {
  const verb = VERBS[n % 10] as string;
  const plant = PLANTS[Math.floor(n / 10) % 10] as string;
  const season = SEASONS[Math.floor(n / 100) % 10] as string;
  return {
    questions: [`How do I ${verb} ${plant} ${season}?`, `when should i ${verb} my ${plant} ${season}`],
    answer: `To ${verb} ${plant} ${season}, see our **garden guide**, section ${n + 1}.`,
  };
}

/** Asks the answer preview of the bot: the client's time in milliseconds, and the answer mode. */
async function preview(owner: Owner, botId: string, question: string): Promise<{ ms: number; mode: string }> {
  const start = now();
  const reply = await json<{ mode: string }>(`${owner.url}/v1/admin/bots/${botId}/answer-preview`, {
    method: 'POST',
    headers: adminHeaders(owner),
    body: JSON.stringify({ question }),
  });
  return { ms: msSince(start), mode: reply.mode };
}

interface LookupFigures {
  bot: string;
  entries: number;
  asked: number;
  byEntry: number;
  p50: number;
  p95: number;
  mean: number;
  /** The server's CPU time per reply (every thread, the embedder's workers too). */
  cpuMs: number;
}

/** Part 2: a bot without entries and one with `count`, the same documents, the same questions in turns. */
async function lookupCost(
  server: ParleyServer,
  owner: Owner,
  count: number,
  rounds: number,
): Promise<LookupFigures[]> {
  const set = visitorSet();
  const docs = set.documents
    .filter((d) => d.kb === 'shop')
    .map((d) => ({ key: d.key, contentType: d.contentType, bytes: () => documentBytes(d) }));
  const plain = server;
  const taught = await botFor(server, owner, 'shop');
  await indexDocuments(plain, docs, 'index (no entries) ');
  await indexDocuments(taught, docs, 'index (entries)    ');
  console.log(`\nadding ${count} entries…`);
  await pool(
    Array.from({ length: count }, (_, n) => n),
    4,
    async (n) => {
      const e = gardenEntry(n);
      await addEntry(owner, taught.botId, e.questions, e.answer);
    },
  );
  await embedded(owner, taught.botId, count);
  const questions = set.questions.filter((q) => q.kb === 'shop').map((q) => q.text);
  // Warm-up: each bot's first lookups load its wordings and warm the model.
  for (const q of questions.slice(0, 5)) {
    await preview(owner, plain.botId, q);
    await preview(owner, taught.botId, q);
  }
  const times = { plain: [] as number[], taught: [] as number[] };
  const cpu = { plain: 0, taught: 0 };
  const byEntry = { plain: 0, taught: 0 };
  const bar = progress('ask   ', rounds * 2);
  for (let round = 0; round < rounds; round++) {
    // Each round asks every question of one bot, then of the other (who goes first alternates), the server's CPU
    // time read around each block: per reply, what the server worked, whatever else the machine was doing.
    const order = round % 2 === 0 ? (['plain', 'taught'] as const) : (['taught', 'plain'] as const);
    for (const [n, which] of order.entries()) {
      const before = cpuSeconds(server.pid);
      for (const q of questions) {
        const r = await preview(owner, which === 'plain' ? plain.botId : taught.botId, q);
        times[which].push(r.ms);
        if (r.mode === 'qa') byEntry[which]++;
      }
      cpu[which] += cpuSeconds(server.pid) - before;
      bar.update(round * 2 + n + 1);
    }
  }
  bar.end();
  return (['plain', 'taught'] as const).map((which) => {
    const s = summarize(times[which]);
    return {
      bot: which === 'plain' ? 'no entries' : `${count} entries`,
      entries: which === 'plain' ? 0 : count,
      asked: times[which].length,
      byEntry: byEntry[which],
      p50: s.p50,
      p95: s.p95,
      mean: s.mean,
      cpuMs: (1000 * cpu[which]) / Math.max(1, times[which].length),
    };
  });
}

function lookupTable(rows: readonly LookupFigures[]): string {
  const base = rows[0] as LookupFigures;
  return table([
    [
      'bot',
      'replies',
      'by an entry',
      'p50 ms',
      'p95 ms',
      'p95 - no entries',
      'p95 ÷ no entries',
      'server CPU ms per reply',
      'CPU - no entries',
    ],
    ...rows.map((r) => [
      r.bot,
      String(r.asked),
      String(r.byEntry),
      r.p50.toFixed(1),
      r.p95.toFixed(1),
      (r.p95 - base.p95).toFixed(1),
      ratio(r.p95, base.p95),
      r.cpuMs.toFixed(1),
      (r.cpuMs - base.cpuMs).toFixed(1),
    ]),
  ]);
}

async function main(): Promise<void> {
  const part = option('part', 'BENCH_PART') ?? 'both';
  if (!['teach', 'lookup', 'both'].includes(part))
    throw new Error(`--part must be teach, lookup or both, got "${part}"`);
  const rounds = intOption('rounds', 'BENCH_ROUNDS', 10, 2, 1000);
  const count = intOption('entries', 'BENCH_ENTRIES', 1000, 1, 1000);
  const dump = option('dump', 'BENCH_DUMP');
  if (dump) await writeFile(dump, '');
  const dataRoot = join(tmpdir(), `parley-qa-${process.pid}`);
  onInterrupt(() => rm(dataRoot, { recursive: true, force: true }));
  const load = [`load average at the start ${loadAverage()}`];
  let taught: Taught[] | undefined;
  let lookup: LookupFigures[] | undefined;
  try {
    for (const which of ['teach', 'lookup'] as const) {
      if (part !== 'both' && part !== which) continue;
      const dataDir = join(dataRoot, which);
      await mkdir(dataDir, { recursive: true });
      const server = await startParleyWithBot(`parley (${which})`, resolve(dataDir));
      try {
        const owner = ownerOf(server, dataDir);
        if (which === 'teach') taught = await teach(server, owner, dump);
        else lookup = await lookupCost(server, owner, count, rounds);
      } finally {
        await server.stop();
      }
    }
  } finally {
    await rm(dataRoot, { recursive: true, force: true });
  }
  load.push(`at the end ${loadAverage()}`);
  if (taught) {
    console.log(
      `\nQ&A entries taught from the visitor set's tune half (${TAUGHT} intents; targets on held-out: >= 90 % of the taught intents' questions answered by their entry, 0 other questions answered by an entry)\n`,
    );
    console.log(teachTable(taught));
    const missed = taught.filter((r) => r.question.split === 'held-out' && r.expected && !r.right);
    for (const r of missed) console.log(`  missed (held-out): "${r.question.text}" -> ${r.answer}`);
    for (const r of taught.filter((x) => x.falseHit))
      console.log(`  false hit (${r.question.split}): "${r.question.text}" -> entry ${r.entryId}`);
  }
  if (lookup) {
    console.log(
      `\nAn entry lookup's cost: answer previews of the shop's questions, ${rounds} rounds, each bot in turn (target: p95 - no entries <= 5 ms)\n`,
    );
    console.log(lookupTable(lookup));
  }
  console.log(`\n${load.join(', ')}`);
}

runMain(main);
