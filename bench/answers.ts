// Answer quality benchmark, two sets in one run (`--set` / BENCH_SET: squad, visitors or both, the default; or the
// language sets, below):
//  - SQuAD: knowledge bases built from SQuAD v1.1 dev articles (../shared/eval/squad-v1.1-dev). Prints answer
//    accuracy, quoted words and extra quotes per answer, not-found precision and recall, and reply time p50/p95.
//  - the visitor set (bench/visitor-set, issue 33): four businesses' documents in five formats, one bot each, and
//    questions worded as visitors type them. Prints, per split and wording class, right answers, clarifications,
//    "not found" replies, noise replies, honest "not found" to unanswerable questions, and reply p50/p95.
//  - the language sets (bench/language-sets, issue #38): `--set fr|de|es|ja` one language, `--set languages` all
//    four; each asked with the English visitor set in the same server, and printed per language and split (right,
//    clarified, honest "not found", noise, reply p95) with the English visitor set's row beside them.
// Questions are asked through the Chat API exactly as the webchat asks them (a chat user, a conversation, a
// text message; bench/lib/chat-ask.ts), the bot's reply read back from the transcript with its answer mode and
// sources, for a tuning split and a held-out split of each set (see docs/benchmarks/answers.md).
//
//   npm run -w @parley/bench answers
//   npm run -w @parley/bench answers -- --set visitors
//   npm run -w @parley/bench answers -- --answerable 300 --unanswerable 150 --data /tmp/answers-data
//
// Splits: the 48 articles alternate between `tune` and `held-out`; in each split two articles of three are
// loaded into the bot's knowledge (one Markdown file per article, its paragraphs as paragraphs), the third
// is not. Answerable questions are questions of loaded articles; unanswerable ones are questions of the
// split's articles that were not loaded (their answer is in no document of that bot).
//
// Right answer: with `--gold dev-v1.1.json` (the official SQuAD file, which holds the answer spans), a reply
// is right when its quoted text contains a gold answer. ../shared/eval holds the questions and their paragraph
// only, so by default a reply is right when its first quote comes from the question's own paragraph (every
// quoted sentence is a sentence of that paragraph): the paragraph holds the answer, but the quote need not.
// Unanswerable: right when the bot says it found nothing (answer mode not_found, no quote).
//
// Options (flags win over environment): --set / BENCH_SET (above), --answerable / BENCH_ANSWERABLE (SQuAD
// questions per split, default 200), --unanswerable / BENCH_UNANSWERABLE (default 100), --split / BENCH_SPLIT
// (tune | held-out | both, default both; both sets), --data / BENCH_DATA (data dirs kept and reused: indexed
// documents are not uploaded again), --gold /
// BENCH_GOLD, --dump / BENCH_DUMP (a JSON-lines file of every question, its reply and its retrieval details),
// --collect / BENCH_COLLECT (instead of asking the bot, write each question's search results, hybrid and
// semantic, as the responder asks for them, to this JSON-lines file: what the answer knobs were tuned on;
// SQuAD only),
// --chat-model / BENCH_CHAT_MODEL (the visitor set's server gets a chat model: `oracle`, a stand-in reading as a
// perfect model would, visitor-set/reader-model.ts; or an OpenAI-compatible URL with --chat-model-name),
// --baseline / BENCH_BASELINE (the main.js of another build of the server, e.g. a copy of
// packages/server/dist made before a change: each split is also asked of it, on the same data, and printed
// beside this build's figures).
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { quotesIn } from '@parley/server/dist/modules/answers/format.js';
import { languageRows, languageTable } from './language-sets/report.js';
import {
  isSetLanguage,
  joinedSets,
  languageSets,
  SET_LANGUAGES,
  type SetLanguage,
} from './language-sets/set.js';
import { intOption, option } from './lib/args.js';
import { type Owner, openChat, ownerOf, say } from './lib/chat-ask.js';
import { indexDocuments, type KnowledgeDocument, progress, readJsonl } from './lib/corpus.js';
import { table } from './lib/format.js';
import { loadAverage } from './lib/machine.js';
import { onInterrupt, runMain } from './lib/run.js';
import { callApi, type ParleyServer, repoRoot, startParleyWithBot } from './lib/server.js';
import { percentile } from './lib/stats.js';
import { askVisitorSet, visitorRows, visitorTable } from './visitor-set/bench.js';
import { KNOWLEDGE_BASES } from './visitor-set/documents.js';
import { visitorChatModel } from './visitor-set/reader-model.js';
import type { ScoredQuestion, VisitorFigures } from './visitor-set/score.js';
import { type VisitorSet, visitorSet } from './visitor-set/set.js';

const SET_DIR = resolve(repoRoot, '..', 'shared', 'eval', 'squad-v1.1-dev');

interface Paragraph {
  id: string;
  title: string;
  text: string;
}
interface Article {
  title: string;
  paragraphs: Paragraph[];
}
interface Question {
  id: string;
  text: string;
  paragraphId: string;
  answerable: boolean;
}
type SplitName = 'tune' | 'held-out';
interface Split {
  name: SplitName;
  loaded: Article[];
  questions: Question[];
}

/** At most `max` items, evenly spread over the list. */
function spread<T>(items: readonly T[], max: number): T[] {
  if (max >= items.length) return [...items];
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)] as T);
}

/** The articles in file order, the questions with their paragraph, both splits. */
function loadSplits(answerable: number, unanswerable: number): Split[] {
  const paragraphs = readJsonl<{ _id: string; title: string; text: string }>(join(SET_DIR, 'corpus.jsonl'));
  const articles: Article[] = [];
  const articleOf = new Map<string, Article>();
  for (const p of paragraphs) {
    let article = articles.at(-1);
    if (!article || article.title !== p.title) {
      article = { title: p.title, paragraphs: [] };
      articles.push(article);
    }
    article.paragraphs.push({ id: p._id, title: p.title, text: p.text });
    articleOf.set(p._id, article);
  }
  const paragraphOf = new Map<string, string>();
  for (const line of readFileSync(join(SET_DIR, 'qrels.tsv'), 'utf8').split('\n').slice(1)) {
    const [q, d] = line.split('\t');
    if (q && d) paragraphOf.set(q, d);
  }
  const queries = readJsonl<{ _id: string; text: string }>(join(SET_DIR, 'queries.jsonl'));
  return (['tune', 'held-out'] as const).map((name, parity) => {
    const own = articles.filter((_, i) => i % 2 === parity);
    const loaded = own.filter((_, i) => i % 3 !== 2);
    const loadedSet = new Set(loaded);
    const ownSet = new Set(own);
    const asked = (inKb: boolean) =>
      queries
        .map((q) => ({ q, article: articleOf.get(paragraphOf.get(q._id) ?? '') }))
        .filter(({ article }) => article && ownSet.has(article) && loadedSet.has(article) === inKb)
        .map(({ q }) => ({
          id: q._id,
          text: q.text,
          paragraphId: paragraphOf.get(q._id) ?? '',
          answerable: inKb,
        }));
    return {
      name,
      loaded,
      questions: [...spread(asked(true), answerable), ...spread(asked(false), unanswerable)],
    };
  });
}

/** question id → its gold answers, from the official SQuAD v1.1 dev JSON. */
function loadGold(path: string): Map<string, string[]> {
  const data = JSON.parse(readFileSync(path, 'utf8')) as {
    data: { paragraphs: { qas: { id: string; answers: { text: string }[] }[] }[] }[];
  };
  const gold = new Map<string, string[]>();
  for (const a of data.data)
    for (const p of a.paragraphs)
      for (const q of p.qas)
        gold.set(
          q.id,
          q.answers.map((x) => x.text),
        );
  return gold;
}

// ---------------------------------------------------------------------------------------------------------
// Loading a split's knowledge

const keyOf = (article: Article) => `squad/${article.title.replace(/[^\p{L}\p{N}]+/gu, '_')}.md`;

/** An article as a support document would be: a Markdown title, then its paragraphs. */
function markdownOf(article: Article): Buffer {
  return Buffer.from(`# ${article.title}\n\n${article.paragraphs.map((p) => p.text).join('\n\n')}\n`, 'utf8');
}

/** The articles as documents to index. */
const articleDocuments = (articles: readonly Article[]): KnowledgeDocument[] =>
  articles.map((a) => ({ key: keyOf(a), contentType: 'text/markdown', bytes: () => markdownOf(a) }));

// ---------------------------------------------------------------------------------------------------------
// Asking through the Chat API

interface Asked {
  question: Question;
  replyMs: number;
  answer: string;
  text: string;
  quotes: string[];
  details: Record<string, unknown> | undefined;
}

/** Asks one question as a fresh webchat visitor; the reply's time is the server's, message to message. */
async function ask(server: ParleyServer, owner: Owner, question: Question): Promise<Asked> {
  const reply = await say(await openChat(server.url, server.botId, owner), question.text);
  return {
    question,
    replyMs: reply.replyMs,
    answer: reply.answer,
    text: reply.text,
    quotes: quotesIn(reply.text)
      .map((q) => q.trim())
      .filter(Boolean),
    details: reply.details,
  };
}

/** The search results the responder works from (hybrid with breadcrumbs, and meaning alone), as JSON. */
async function searchResults(server: ParleyServer, question: Question): Promise<Record<string, unknown>> {
  const search = (mode: string) =>
    callApi<{ passages: unknown[] }>(
      server,
      'GET',
      `/v1/files/search?${new URLSearchParams({ query: question.text, limit: '8', mode, withContext: 'true' })}`,
    );
  const [hybrid, semantic] = await Promise.all([search('hybrid'), search('semantic')]);
  return { hybrid: hybrid.passages, semantic: semantic.passages };
}

// ---------------------------------------------------------------------------------------------------------
// Scoring

const normalise = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/…/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const wordCount = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/** Whether every piece of a quote (split at ellipses and line breaks) is text of the paragraph. */
function quotedFrom(quote: string, paragraph: string): boolean {
  const within = ` ${normalise(paragraph)} `;
  const pieces = quote
    .split(/…|\n/)
    .map(normalise)
    .filter((p) => p.split(' ').length >= 3);
  return pieces.length > 0 && pieces.every((p) => within.includes(` ${p} `));
}

interface Scored {
  right: boolean;
  quotedWords: number;
  extraQuotes: number;
}

function score(
  asked: Asked,
  paragraphs: Map<string, string>,
  gold: Map<string, string[]> | undefined,
): Scored {
  const { question, quotes } = asked;
  const notFound = asked.answer === 'not_found' && quotes.length === 0;
  const quotedWords = quotes.reduce((n, q) => n + wordCount(q), 0);
  const extraQuotes = Math.max(0, quotes.length - 1);
  if (!question.answerable) return { right: notFound, quotedWords, extraQuotes };
  const answers = gold?.get(question.id);
  if (answers) {
    const said = normalise(quotes.length > 0 ? quotes.join(' ') : asked.text);
    return {
      right: !notFound && answers.some((a) => ` ${said} `.includes(` ${normalise(a)} `)),
      quotedWords,
      extraQuotes,
    };
  }
  const first = quotes[0];
  const right = first !== undefined && quotedFrom(first, paragraphs.get(question.paragraphId) ?? '');
  return { right, quotedWords, extraQuotes };
}

interface Figures {
  split: SplitName;
  /** Which server build answered. */
  build?: string;
  answerable: number;
  accuracy: number;
  quotedWords: number;
  extraQuotes: number;
  unanswerable: number;
  notFoundRecall: number;
  notFoundPrecision: number;
  p50: number;
  p95: number;
}

function figures(split: SplitName, results: Array<Asked & Scored>): Figures {
  const answerable = results.filter((r) => r.question.answerable);
  const unanswerable = results.filter((r) => !r.question.answerable);
  const answered = answerable.filter((r) => r.quotes.length > 0);
  const saidNotFound = results.filter((r) => r.answer === 'not_found');
  const times = results.map((r) => r.replyMs).sort((a, b) => a - b);
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  return {
    split,
    answerable: answerable.length,
    accuracy: mean(answerable.map((r) => (r.right ? 1 : 0))),
    quotedWords: mean(answered.map((r) => r.quotedWords)),
    extraQuotes: mean(answered.map((r) => r.extraQuotes)),
    unanswerable: unanswerable.length,
    notFoundRecall: mean(unanswerable.map((r) => (r.right ? 1 : 0))),
    notFoundPrecision:
      saidNotFound.length === 0
        ? 1
        : saidNotFound.filter((r) => !r.question.answerable).length / saidNotFound.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
  };
}

// ---------------------------------------------------------------------------------------------------------

async function runSplit(
  split: Split,
  dataRoot: string,
  gold: Map<string, string[]> | undefined,
  dump: string | undefined,
  collect: string | undefined,
  build: { label: string; main: string | undefined },
): Promise<Figures | undefined> {
  const dataDir = join(dataRoot, split.name);
  await mkdir(dataDir, { recursive: true });
  const server = await startParleyWithBot(`parley (${split.name}, ${build.label})`, dataDir, {}, build.main);
  try {
    const owner = ownerOf(server, dataDir);
    console.log(
      `\n${split.name}: ${split.loaded.length} articles loaded, ${split.questions.filter((q) => q.answerable).length} answerable and ${split.questions.filter((q) => !q.answerable).length} unanswerable questions`,
    );
    await indexDocuments(server, articleDocuments(split.loaded));
    const paragraphs = new Map(split.loaded.flatMap((a) => a.paragraphs.map((p) => [p.id, p.text] as const)));
    if (collect) {
      const bar = progress('search', split.questions.length);
      let n = 0;
      for (const question of split.questions) {
        const found = await searchResults(server, question);
        const line = {
          split: split.name,
          question,
          paragraph: paragraphs.get(question.paragraphId),
          ...found,
        };
        await appendFile(collect, `${JSON.stringify(line)}\n`);
        bar.update(++n);
      }
      bar.end();
      return undefined;
    }
    const results: Array<Asked & Scored> = [];
    const bar = progress('ask   ', split.questions.length);
    for (const question of split.questions) {
      const asked = await ask(server, owner, question);
      const scored = { ...asked, ...score(asked, paragraphs, gold) };
      results.push(scored);
      if (dump) {
        const line = {
          split: split.name,
          build: build.label,
          ...scored,
          paragraph: paragraphs.get(question.paragraphId),
        };
        await appendFile(dump, `${JSON.stringify(line)}\n`);
      }
      bar.update(results.length);
    }
    bar.end();
    return { ...figures(split.name, results), build: build.label };
  } finally {
    await server.stop();
  }
}

/** The visitor set (with the language sets asked) asked of one build in a data dir of its own: its scored questions. */
async function runVisitors(
  set: VisitorSet,
  dataRoot: string,
  dump: string | undefined,
  build: { label: string; main: string | undefined },
  model: Record<string, string>,
): Promise<ScoredQuestion[]> {
  const dataDir = join(dataRoot, `visitors-${build.label.replace(/\W+/g, '-')}`);
  await mkdir(dataDir, { recursive: true });
  const server = await startParleyWithBot(`parley (visitor set, ${build.label})`, dataDir, model, build.main);
  try {
    const questions = set.questions;
    console.log(
      `\nvisitor set: ${set.documents.length} documents in ${set.bases.length} knowledge bases, ${questions.filter((q) => q.answer).length} answerable (${questions.filter((q) => q.wording === 'paraphrase').length} paraphrases) and ${questions.filter((q) => !q.answer).length} unanswerable questions`,
    );
    const started = Date.now();
    const scored = await askVisitorSet(server, ownerOf(server, dataDir), set, build.label, dump);
    console.log(`visitor set asked in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return scored;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const sets = option('set', 'BENCH_SET') ?? 'both';
  if (!['squad', 'visitors', 'both', 'languages', ...SET_LANGUAGES].includes(sets))
    throw new Error(
      `--set must be squad, visitors, both, languages, ${SET_LANGUAGES.join(', ')}, got "${sets}"`,
    );
  const languages: readonly SetLanguage[] =
    sets === 'languages' ? SET_LANGUAGES : isSetLanguage(sets) ? [sets] : [];
  const answerable = intOption('answerable', 'BENCH_ANSWERABLE', 200, 1, 10_000);
  const unanswerable = intOption('unanswerable', 'BENCH_UNANSWERABLE', 100, 0, 10_000);
  const which = option('split', 'BENCH_SPLIT') ?? 'both';
  if (!['tune', 'held-out', 'both'].includes(which))
    throw new Error(`--split must be tune, held-out or both, got "${which}"`);
  const goldPath = option('gold', 'BENCH_GOLD');
  const gold = goldPath ? loadGold(goldPath) : undefined;
  const dump = option('dump', 'BENCH_DUMP');
  if (dump) await writeFile(dump, '');
  const collect = option('collect', 'BENCH_COLLECT');
  if (collect) await writeFile(collect, '');
  const squad = sets === 'squad' || sets === 'both';
  const visitors = sets !== 'squad' && !collect;
  if (squad && !existsSync(SET_DIR))
    throw new Error(`${SET_DIR} is missing (../shared/eval beside the repository)`);
  const kept = option('data', 'BENCH_DATA');
  const dataRoot = kept ? resolve(kept) : join(tmpdir(), `parley-answers-${process.pid}`);
  if (!kept) onInterrupt(() => rm(dataRoot, { recursive: true, force: true }));

  const splits = squad
    ? loadSplits(answerable, unanswerable).filter((s) => which === 'both' || s.name === which)
    : [];
  const visitorSetAsked = visitors
    ? languages.length > 0
      ? joinedSets(visitorSet(), languageSets(languages))
      : visitorSet()
    : undefined;
  if (visitorSetAsked && which !== 'both')
    visitorSetAsked.questions = visitorSetAsked.questions.filter((q) => q.split === which);
  const chatModel = await visitorChatModel(
    option('chat-model', 'BENCH_CHAT_MODEL'),
    option('chat-model-name', 'BENCH_CHAT_MODEL_NAME'),
    visitorSetAsked?.questions ?? [],
  );
  const rows: Figures[] = [];
  const visitorFigures: Array<VisitorFigures & { build: string }> = [];
  const byLanguage: ReturnType<typeof languageRows> = [];
  const load = [`load average at the start ${loadAverage()}`];
  try {
    const baseline = option('baseline', 'BENCH_BASELINE');
    const builds = [
      ...(baseline && !collect ? [{ label: 'baseline', main: resolve(baseline) }] : []),
      { label: 'this build', main: undefined },
    ];
    for (const split of splits) {
      for (const build of builds) {
        const row = await runSplit(split, dataRoot, gold, dump, collect, build);
        if (row) rows.push(row);
      }
    }
    if (squad) load.push(`after SQuAD ${loadAverage()}`);
    if (visitorSetAsked)
      for (const build of builds) {
        const scored = await runVisitors(visitorSetAsked, dataRoot, dump, build, chatModel.settings);
        const english = (kb: string) => (KNOWLEDGE_BASES as readonly string[]).includes(kb);
        visitorFigures.push(
          ...visitorRows(
            scored.filter((s) => english(s.question.kb)),
            build.label,
          ),
        );
        if (languages.length > 0) byLanguage.push(...languageRows(scored, build.label));
      }
    if (visitors) load.push(`at the end ${loadAverage()}`);
  } finally {
    await chatModel.close();
    if (!kept) await rm(dataRoot, { recursive: true, force: true });
  }
  if (collect) {
    console.log(`\nsearch results written to ${collect}`);
    return;
  }
  const pct = (x: number) => x.toFixed(3);
  if (rows.length > 0) {
    console.log(
      `\nAnswers, SQuAD (${gold ? 'right = quote holds a gold answer' : 'right = first quote comes from the question’s paragraph'}; targets on held-out: accuracy ≥ 0.75, ≤ 60 quoted words, ≤ 0.2 extra quotes, not-found ≥ 0.9, p95 ≤ 300 ms)\n`,
    );
    console.log(
      table([
        [
          'split',
          'build',
          'answerable',
          'accuracy',
          'quoted words',
          'extra quotes',
          'unanswerable',
          'not-found recall',
          'not-found precision',
          'reply p50 ms',
          'reply p95 ms',
        ],
        ...rows.map((r) => [
          r.split,
          r.build ?? '',
          String(r.answerable),
          pct(r.accuracy),
          r.quotedWords.toFixed(1),
          r.extraQuotes.toFixed(2),
          String(r.unanswerable),
          pct(r.notFoundRecall),
          pct(r.notFoundPrecision),
          r.p50.toFixed(0),
          r.p95.toFixed(0),
        ]),
      ]),
    );
  }
  if (visitorFigures.length > 0) {
    console.log(
      '\nAnswers, visitor set (right = every expected fact in the reply and the right document its first source; clarified = a choice question offering the right topic, whose pick answers right; noise = a reply quoting a document that does not answer; honest = "not found" with no source, of unanswerable questions)\n',
    );
    console.log(visitorTable(visitorFigures));
    console.log(`\n${chatModel.describe()}`);
  }
  if (byLanguage.length > 0) {
    console.log(
      '\nAnswers per language (language sets, issue #38; en = the visitor set above, same run; targets per language on held-out: right ≥ 70 %, honest "not found" ≥ 85 %, noise ≤ 10 %)\n',
    );
    console.log(languageTable(byLanguage));
  }
  console.log(`\n${load.join(', ')}`);
}

runMain(main);
