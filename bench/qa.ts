// Q&A entries benchmark (issue 34), two figures in one run:
//  1. Teaching: on the visitor set (bench/visitor-set), an intent is one expected answer (knowledge base, source,
//     topic and facts). Of the intents asked in both halves, 10 (every other one, in the set's order) get a Q&A
//     entry whose wordings are their tune-half questions only and whose answer is the sentences of its document
//     that state its facts (what a support manager picks in the "Answer this" form; `--answer facts`: the facts
//     alone, as before issue 34's answer matching). Then every
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
// Options (flags win over environment): --part / BENCH_PART (teach, lookup or both, the default), --wordings /
// BENCH_WORDINGS (teach: each entry's first n tune wordings, default all), --taught / BENCH_TAUGHT (teach: intents
// taught, default 10, at most 20: the next ones in the set's order), --answer / BENCH_ANSWER (teach: sentences,
// the default, or facts), --rounds /
// BENCH_ROUNDS (times the lookup part asks its questions of each bot, default 10), --entries / BENCH_ENTRIES
// (entries of the second bot, default 1000, the most a bot may hold), --dump / BENCH_DUMP (a JSON-lines file of
// every teaching question and its reply).
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { flag, intOption, option } from './lib/args.js';
import { json, type Owner, openChat, ownerOf, say } from './lib/chat-ask.js';
import { indexDocuments, pool, progress } from './lib/corpus.js';
import { ratio, table } from './lib/format.js';
import { cpuSeconds, loadAverage } from './lib/machine.js';
import { onInterrupt, runMain, sleep } from './lib/run.js';
import { type ParleyServer, startParleyWithBot } from './lib/server.js';
import { msSince, now, summarize } from './lib/stats.js';
import { botFor } from './visitor-set/bench.js';
import { documentBytes, KNOWLEDGE_BASES } from './visitor-set/documents.js';
import { scoreQuestion } from './visitor-set/score.js';
import { type VisitorQuestion, type VisitorSet, visitorSet } from './visitor-set/set.js';

/** Intents taught (by default). */
const TAUGHT = 10;

/** How the teaching part teaches each intent. */
interface Teaching {
  /** Intents taught: every other one first, in the set's order, then the rest. */
  taught: number;
  /** Each entry's first `wordings` tune questions (undefined: all of them). */
  wordings: number | undefined;
  /** The entry's answer: its document's sentences stating its facts, or the facts alone. */
  answer: 'sentences' | 'facts';
  /** Each bot holds its business's documents (an entry found by its answer alone yields to sure passages). */
  documents: boolean;
  /**
   * A fold of the tune half for choosing bars: each entry's only wording is its topic (the heading of its
   * answer), and only the tune half is asked (its questions are then no entry's wordings); held-out untouched.
   */
  fold: boolean;
}

/** One expected answer of the visitor set, with its questions in each half. */
interface Intent {
  key: string;
  kb: string;
  facts: string[];
  /** The heading or title its answer sits under. */
  topic: string;
  /** The sentences of its document that state its facts. */
  sentences: string[];
  tune: VisitorQuestion[];
  heldOut: VisitorQuestion[];
}

/** The intents asked in both halves, in the set's order. */
export function intentsOf(set: VisitorSet): Intent[] {
  const byKey = new Map<string, Intent>();
  for (const q of set.questions) {
    if (!q.answer) continue;
    const key = `${q.kb}/${q.answer.source}#${q.answer.topic}#${q.answer.facts.join('|')}`;
    const intent = byKey.get(key) ?? {
      key,
      kb: q.kb,
      facts: q.answer.facts,
      topic: q.answer.topic,
      sentences: q.answerSentences,
      tune: [],
      heldOut: [],
    };
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
  /** How the entry was found (words, meaning or answer), when one answered. */
  by: string | undefined;
  /** Its score against its bar. */
  score: number | undefined;
  right: boolean;
  falseHit: boolean;
  /** Not answered by an entry, and the passages' reply states its facts from its document (visitor-set scoring). */
  passagesRight: boolean;
}

/** The entry a reply came from (its debug details name it), if it did. */
function replyEntry(reply: {
  answer: string;
  details: Record<string, unknown> | undefined;
}): string | undefined {
  if (reply.answer !== 'qa') return undefined;
  const qa = reply.details?.qa as { entryId?: unknown } | undefined;
  return typeof qa?.entryId === 'string' ? qa.entryId : 'unknown';
}

/** An intent's entry as taught: its wordings and its answer. */
function entryOf(intent: Intent, how: Teaching): { questions: string[]; answer: string } {
  const tune = how.fold ? [intent.topic] : intent.tune.map((q) => q.text);
  const questions = how.wordings === undefined ? tune : tune.slice(0, how.wordings);
  const answer =
    how.answer === 'sentences' && intent.sentences.length > 0
      ? intent.sentences.join(' ')
      : `${intent.facts.join('; ')}.`;
  return { questions, answer };
}

/** Part 1: teach intents from the tune half, ask both halves; the scored questions. */
async function teach(
  server: ParleyServer,
  owner: Owner,
  dump: string | undefined,
  how: Teaching,
): Promise<Taught[]> {
  const set = visitorSet();
  const intents = intentsOf(set);
  const taught = [...intents.filter((_, i) => i % 2 === 0), ...intents.filter((_, i) => i % 2 === 1)].slice(
    0,
    how.taught,
  );
  console.log(
    `\nteaching: ${intents.length} intents asked in both halves, ${taught.length} taught:\n${taught
      .map(
        (i) =>
          `  ${i.key} <- ${entryOf(i, how)
            .questions.map((q) => `"${q}"`)
            .join(', ')} + "${entryOf(i, how).answer}"`,
      )
      .join('\n')}`,
  );
  const bots = new Map<string, ParleyServer>();
  for (const kb of KNOWLEDGE_BASES) {
    const bot = await botFor(server, owner, kb);
    bots.set(kb, bot);
    if (!how.documents) continue;
    const docs = set.documents
      .filter((d) => d.kb === kb)
      .map((d) => ({ key: d.key, contentType: d.contentType, bytes: () => documentBytes(d) }));
    await indexDocuments(bot, docs, `${kb.padEnd(8)}`);
  }
  const entryOfIntent = new Map<string, string>();
  for (const intent of taught) {
    const bot = bots.get(intent.kb) as ParleyServer;
    const { questions, answer } = entryOf(intent, how);
    entryOfIntent.set(intent.key, await addEntry(owner, bot.botId, questions, answer));
  }
  for (const kb of KNOWLEDGE_BASES)
    await embedded(owner, (bots.get(kb) as ParleyServer).botId, taught.filter((i) => i.kb === kb).length);
  const intentOf = new Map<string, string>();
  for (const i of intents) for (const q of [...i.tune, ...i.heldOut]) intentOf.set(q.id, i.key);
  const results: Taught[] = [];
  const asked = set.questions.filter((q) => !how.fold || q.split === 'tune');
  const bar = progress('ask   ', asked.length);
  for (const question of asked) {
    const bot = bots.get(question.kb) as ParleyServer;
    const session = await openChat(server.url, bot.botId, owner);
    const reply = await say(session, question.text);
    const expected = entryOfIntent.get(intentOf.get(question.id) ?? '');
    const entryId = replyEntry(reply);
    const scored = {
      question,
      expected,
      answer: reply.answer,
      entryId,
      by: (reply.details?.qa as { by?: string } | undefined)?.by,
      score: (reply.details?.qa as { score?: number } | undefined)?.score,
      right: expected !== undefined && entryId === expected,
      falseHit: entryId !== undefined && entryId !== expected,
      passagesRight:
        entryId === undefined &&
        (await scoreQuestion(question, reply, (choice) => say(session, choice.label, choice.value))).right,
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
    if (half.length === 0) return undefined; // a fold asks the tune half only
    const taught = half.filter((r) => r.expected !== undefined);
    const others = half.filter((r) => r.expected === undefined);
    const right = taught.filter((r) => r.right).length;
    return [
      split,
      `${right}/${taught.length} (${taught.length ? Math.round((100 * right) / taught.length) : 0} %)`,
      String(taught.filter((r) => r.passagesRight).length),
      `${others.filter((r) => r.falseHit).length + taught.filter((r) => r.falseHit).length}/${half.length}`,
      String(others.length),
      String(others.filter((r) => r.passagesRight).length),
    ];
  });
  return table([
    [
      'split',
      'taught intents: answered by their entry',
      'taught: right by passages',
      'answered by a wrong entry',
      'other questions',
      'other: right by passages',
    ],
    ...rows.filter((r): r is string[] => r !== undefined),
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
  const answer = option('answer', 'BENCH_ANSWER') ?? 'sentences';
  if (answer !== 'sentences' && answer !== 'facts')
    throw new Error(`--answer must be sentences or facts, got "${answer}"`);
  const wordingsRaw = option('wordings', 'BENCH_WORDINGS');
  const how: Teaching = {
    taught: intOption('taught', 'BENCH_TAUGHT', TAUGHT, 1, 20),
    wordings:
      wordingsRaw === undefined || wordingsRaw === 'all'
        ? undefined
        : intOption('wordings', 'BENCH_WORDINGS', 1, 1, 10),
    answer,
    documents: flag('documents', 'BENCH_DOCUMENTS'),
    fold: flag('fold', 'BENCH_FOLD'),
  };
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
        if (which === 'teach') taught = await teach(server, owner, dump, how);
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
      `\nQ&A entries taught from the visitor set's tune half (${how.taught} intents, ${how.wordings ?? 'all'} tune wordings each, answer: ${how.answer}${how.documents ? ', bots with their documents' : ', bots without documents'}${how.fold ? ', tune fold: topic as the only wording' : ''}; targets on held-out: >= 90 % of the taught intents' questions answered by their entry, 0 other questions answered by an entry)\n`,
    );
    console.log(teachTable(taught));
    const missed = taught.filter((r) => r.question.split === 'held-out' && r.expected && !r.right);
    for (const r of missed) console.log(`  missed (held-out): "${r.question.text}" -> ${r.answer}`);
    for (const r of taught.filter((x) => x.right && x.question.split === 'held-out'))
      console.log(`  answered (held-out): "${r.question.text}" by ${r.by}`);
    for (const r of taught.filter((x) => x.falseHit))
      console.log(
        `  false hit (${r.question.split}): "${r.question.text}" -> entry ${r.entryId} by ${r.by} (${r.score})`,
      );
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
