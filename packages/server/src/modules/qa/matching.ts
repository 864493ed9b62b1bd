import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type Logger, silentLogger } from '../../logger.js';
import { isUseLiteId } from '../../search/embed/index.js';
import { bytesVector, unitVector } from '../../search/index/common.js';
import { contentTerms, words } from '../../search/terms.js';
import type { Embedder } from '../../search/types.js';
import { sentencesOf } from '../answers/index.js';
import type { QaMatch } from './contract.js';
import { qaRepo } from './repo.js';

/**
 * Least overlap of content words (Jaccard of their stems) at which a question asks an entry's wording. Measured
 * in matching.test.ts on shop wordings: reworded questions with the wording's words scored 0.67–1, unrelated
 * questions sharing one word at most 0.33. On the answers benchmark's visitor set, held-out paraphrases overlapped
 * their intent's wordings by 0.17 at most (docs/benchmarks/qa.md).
 */
export const QA_WORD_BAR = 0.5;

/**
 * Least cosine similarity, with the shipped USE-lite model, at which a question asks an entry's wording.
 * Measured in matching.test.ts: paraphrases of a wording scored 0.71–0.93, unrelated questions of the same shop
 * at most 0.63 (a neighbouring topic). Other embedders have no measured value: their entries match by words.
 * On the answers benchmark's visitor set no lower bar kept every other intent's question out (docs/benchmarks/qa.md).
 */
export const USE_LITE_QA_BAR = 0.82;

/**
 * Least score, with the shipped USE-lite model, at which a question asks an entry by its answer: the cosine of
 * the question and the answer's closest sentence, plus {@link ANSWER_TERMS_WEIGHT} times the share of the
 * question's content words the entry holds (in its wordings or its answer), so that a visitor asking in the
 * answer's words ("how long does a repair take" for "Repairs usually take 10 working days") is answered though
 * no wording says it. Such a match yields to the passages when they answer surely with other sentences
 * (answers/entries.ts). Chosen on a fold of the answers benchmark's visitor set, tune half only (each entry taught
 * with its topic heading as its only wording and its answer sentences, the tune questions asked): with 20 entries
 * 7 of 21 tune questions answered by their entry (3 by the heading's words), with 10 entries 2 of 11, and no
 * other question answered by an entry in either; the closest other question not taken by the passages scored
 * 0.587 (docs/benchmarks/qa.md).
 */
export const USE_LITE_QA_ANSWER_BAR = 0.6;
/** Weight of the share of the question's content words an entry holds, in its score by answer. */
export const ANSWER_TERMS_WEIGHT = 0.2;
/** Least lead of the best entry's score by answer over the next entry's: a close second means unsure. */
export const QA_ANSWER_LEAD = 0.05;

/** Bars of a lookup by meaning: on the wordings, and on the answer with its lead over the next entry. */
export interface MeaningBars {
  wording: number;
  answer: number;
  lead: number;
}

/** Most sentences of an answer embedded and compared with a question (a long answer's first ones). */
export const MAX_ANSWER_SENTENCES = 8;
/**
 * Fewest words of an answer's sentence compared with a question: a shorter one ("30 days.", "2-year warranty.")
 * names no topic, and with USE-lite sits close to many questions. On the visitor set's tune half, entries whose
 * answers were their bare facts answered a question of another intent by them ("how many vacation days do we
 * get" -> "20 working days.", 0.64) and none of their own.
 */
export const MIN_ANSWER_SENTENCE_WORDS = 5;

/** Most bots whose wordings a process keeps in memory (least recently used dropped first). */
const CACHED_BOTS = 200;
/** Most questions whose lookup a process remembers (for the bot's revision it was made at; oldest dropped first). */
const REMEMBERED_QUESTIONS = 5_000;

/** The meaning bars with this embedder: measured for the built-in model, else none (entries match by words). */
export function qaMeaningBarsFor(embedder: Pick<Embedder, 'id'> | null | undefined): MeaningBars | undefined {
  return isUseLiteId(embedder?.id)
    ? { wording: USE_LITE_QA_BAR, answer: USE_LITE_QA_ANSWER_BAR, lead: QA_ANSWER_LEAD }
    : undefined;
}

/** The content terms (stems) of a wording, as stored with it and compared with a question's. */
export function wordingTerms(text: string): string[] {
  return contentTerms(text);
}

/**
 * The sentences of an answer (Markdown) compared with a question: link and image targets, emphasis, heading and
 * quote marks dropped, those of fewer than {@link MIN_ANSWER_SENTENCE_WORDS} words left out, at most
 * {@link MAX_ANSWER_SENTENCES}.
 */
export function answerSentences(answer: string): string[] {
  const plain = answer
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~]+/g, '')
    .replace(/^\s{0,3}(#{1,6}|>)\s*/gm, '');
  return sentencesOf(plain)
    .filter((sentence) => words(sentence).length >= MIN_ANSWER_SENTENCE_WORDS)
    .slice(0, MAX_ANSWER_SENTENCES);
}

/** A score as the match tells it: 4 decimals. */
const round = (score: number) => Math.round(score * 10_000) / 10_000;

/** Jaccard similarity of two sets of terms (0 when either is empty). */
function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Share of `terms` that `held` holds (0 when there are none). */
function heldShare(terms: ReadonlySet<string>, held: ReadonlySet<string> | undefined): number {
  if (terms.size === 0 || !held) return 0;
  let n = 0;
  for (const t of terms) if (held.has(t)) n++;
  return n / terms.size;
}

/** A wording of an enabled entry, or a sentence of its answer, as a lookup compares with it. */
interface CachedWording {
  entryId: string;
  answer: string;
  text: string;
  lower: string;
  terms: Set<string>;
  /** A sentence of the entry's answer (stored at a negative position), not a wording. */
  ofAnswer: boolean;
  /** Unit vector of the embedder's model; absent until embedded (or of another model). */
  vector: Float32Array | undefined;
}

/** A bot's wordings in memory: the term index (term → wordings) and the vectors, valid at `revision`. */
export interface BotWordings {
  revision: number;
  /** The wordings proper (not the answers' sentences). */
  wordings: CachedWording[];
  byTerm: Map<string, CachedWording[]>;
  /** Each entry's terms: of its wordings and of its answer. */
  entryTerms: Map<string, Set<string>>;
  /** The rows with a vector (wordings and answer sentences), their vectors one after the other in one array. */
  embedded: CachedWording[];
  matrix: Float32Array;
  dimensions: number;
}

/** A stored wording (position >= 0) or answer sentence (position < 0) as the lookup reads it. */
export interface WordingRow {
  entry_id: string;
  position: number;
  answer: string;
  text: string;
  terms: string;
  vector: Uint8Array | null;
  model_id: string | null;
}

/** A bot's wordings as the lookup holds them (vectors only of `modelId`). */
export function botWordings(rows: WordingRow[], modelId: string | undefined, revision = 0): BotWordings {
  const all = rows.map(
    (r): CachedWording => ({
      entryId: r.entry_id,
      answer: r.answer,
      text: r.text,
      lower: r.text.toLowerCase(),
      terms: new Set(r.terms.split(' ').filter(Boolean)),
      ofAnswer: r.position < 0,
      vector: r.vector && modelId && r.model_id === modelId ? unitVector(bytesVector(r.vector)) : undefined,
    }),
  );
  const wordings = all.filter((w) => !w.ofAnswer);
  const byTerm = new Map<string, CachedWording[]>();
  for (const w of wordings)
    for (const t of w.terms) {
      const list = byTerm.get(t);
      if (list) list.push(w);
      else byTerm.set(t, [w]);
    }
  const entryTerms = new Map<string, Set<string>>();
  for (const w of all) {
    const terms = entryTerms.get(w.entryId) ?? new Set<string>();
    for (const t of w.terms) terms.add(t);
    entryTerms.set(w.entryId, terms);
  }
  // One array of all the vectors: the lookup's dot products run over it in one pass (1,000 entries: 2,000 rows).
  const dimensions = all.find((w) => w.vector)?.vector?.length ?? 0;
  const embedded = all.filter((w) => w.vector?.length === dimensions && dimensions > 0);
  const matrix = new Float32Array(embedded.length * dimensions);
  for (const [row, w] of embedded.entries()) matrix.set(w.vector as Float32Array, row * dimensions);
  return { revision, wordings, byTerm, entryTerms, embedded, matrix, dimensions };
}

/** The best wording by words (found through the term index): an exact wording (case and spaces aside) scores 1. */
function byWords(
  bot: BotWordings,
  question: string,
  terms: ReadonlySet<string>,
): { w: CachedWording; score: number } | undefined {
  const lower = question.replace(/\s+/g, ' ').trim().toLowerCase();
  const candidates = new Set<CachedWording>();
  for (const t of terms) for (const w of bot.byTerm.get(t) ?? []) candidates.add(w);
  for (const w of bot.wordings) if (w.lower === lower) candidates.add(w);
  let best: { w: CachedWording; score: number } | undefined;
  for (const w of candidates) {
    const score = w.lower === lower ? 1 : overlap(terms, w.terms);
    if (!best || score > best.score) best = { w, score };
  }
  return best;
}

/** A row scored against the question (by answer: with its lead over the next entry). */
interface Scored {
  w: CachedWording;
  score: number;
  lead?: number;
}

/**
 * By meaning: the wording closest to the question's unit vector, and for each entry its answer's closest
 * sentence (one pass of dot products over the bot's vectors).
 */
function byMeaning(
  bot: BotWordings,
  query: Float32Array,
): { wording: Scored | undefined; answers: Map<string, Scored> } {
  const { matrix, dimensions: d } = bot;
  const answers = new Map<string, Scored>();
  let wording: Scored | undefined;
  if (query.length !== d) return { wording, answers };
  for (let row = 0, at = 0; row < bot.embedded.length; row++, at += d) {
    let score = 0;
    for (let i = 0; i < d; i++) score += (matrix[at + i] as number) * (query[i] as number);
    const w = bot.embedded[row] as CachedWording;
    if (!w.ofAnswer) {
      if (!wording || score > wording.score) wording = { w, score };
      continue;
    }
    const known = answers.get(w.entryId);
    if (!known || score > known.score) answers.set(w.entryId, { w, score });
  }
  return { wording, answers };
}

/**
 * The entry the question asks by its answer: each entry scores its answer's closest sentence plus
 * {@link ANSWER_TERMS_WEIGHT} times the share of the question's terms the entry holds; the best at or above
 * `bars.answer` and `bars.lead` above the next entry's score.
 */
function byAnswer(
  bot: BotWordings,
  terms: ReadonlySet<string>,
  answers: Map<string, Scored>,
  bars: MeaningBars,
): Scored | undefined {
  let best: Scored | undefined;
  let second = Number.NEGATIVE_INFINITY;
  for (const [entryId, a] of answers) {
    const score = a.score + ANSWER_TERMS_WEIGHT * heldShare(terms, bot.entryTerms.get(entryId));
    if (!best || score > best.score) {
      second = best?.score ?? second;
      best = { w: a.w, score };
    } else if (score > second) second = score;
  }
  if (!best || best.score < bars.answer || best.score - second < bars.lead) return undefined;
  // The only entry with an answer has no lead to tell.
  return Number.isFinite(second) ? { ...best, lead: best.score - second } : best;
}

/**
 * The entry a question asks among `bot`'s wordings: the best wording by words at or above {@link QA_WORD_BAR},
 * or by meaning (the question's unit vector, when given with bars) at or above `bars.wording`; the higher score
 * wins, words on a tie. Else, by meaning, the entry whose answer it asks ({@link USE_LITE_QA_ANSWER_BAR}).
 * Undefined when none passes.
 */
export function pickMatch(
  bot: BotWordings,
  question: string,
  query: Float32Array | undefined,
  bars: MeaningBars | undefined,
): QaMatch | undefined {
  const terms = new Set(wordingTerms(question));
  const words = byWords(bot, question, terms);
  const meaning = query && bars ? byMeaning(bot, query) : undefined;
  const wordHit = words && words.score >= QA_WORD_BAR ? words : undefined;
  const meaningHit =
    meaning?.wording && bars && meaning.wording.score >= bars.wording ? meaning.wording : undefined;
  const answerHit =
    meaning && bars && !wordHit && !meaningHit ? byAnswer(bot, terms, meaning.answers, bars) : undefined;
  const hit: (Scored & { by: QaMatch['by']; bar: number }) | undefined =
    wordHit && (!meaningHit || wordHit.score >= meaningHit.score)
      ? { ...wordHit, by: 'words', bar: QA_WORD_BAR }
      : meaningHit && bars
        ? { ...meaningHit, by: 'meaning', bar: bars.wording }
        : answerHit && bars
          ? { ...answerHit, by: 'answer', bar: bars.answer }
          : undefined;
  if (!hit) return undefined;
  return {
    entryId: hit.w.entryId,
    answer: hit.w.answer,
    wording: hit.w.text,
    by: hit.by,
    score: round(hit.score),
    bar: hit.bar,
    ...(hit.lead === undefined ? {} : { lead: round(hit.lead) }),
  };
}

/** What the lookup is built from. */
export interface QaMatcherDeps {
  db: Kysely<Database>;
  embedder: Embedder | null;
  logger?: Logger | undefined;
}

/**
 * The lookup of a visitor question among a bot's enabled entries. A process keeps each bot's wordings in
 * memory (their term index and unit vectors), read again when the bot's revision (one indexed row, bumped in
 * every change's transaction, so every process sees changes made by others) moved. A question matches the
 * wording whose content words overlap it by {@link QA_WORD_BAR} or more (found through the term index), or,
 * with the built-in embedder, whose vector is within {@link USE_LITE_QA_BAR} of the question's (one question
 * embedding, then a dot product over the bot's vectors in memory); see {@link pickMatch}. Without an embedder,
 * or when it fails, words alone decide.
 */
export function qaMatcher(deps: QaMatcherDeps) {
  const { db, embedder } = deps;
  const logger = deps.logger ?? silentLogger;
  const bars = qaMeaningBarsFor(embedder);
  const cache = new Map<string, BotWordings>();
  // The inbox asks again, every few seconds, about the same questions (rememberedMatch): their answer holds until
  // the bot's entries change (its revision moves). A lookup whose question could not be embedded is not kept.
  const remembered = new Map<string, { revision: number; match: QaMatch | undefined }>();

  async function wordingsOf(botId: string): Promise<BotWordings> {
    const revision = await qaRepo(db).revision(botId);
    const cached = cache.get(botId);
    cache.delete(botId);
    const loaded =
      cached && cached.revision === revision
        ? cached
        : botWordings(revision === 0 ? [] : await qaRepo(db).enabledWordings(botId), embedder?.id, revision);
    cache.set(botId, loaded);
    if (cache.size > CACHED_BOTS) cache.delete(cache.keys().next().value as string);
    return loaded;
  }

  async function questionVector(bot: BotWordings, question: string): Promise<Float32Array | undefined> {
    if (!embedder || !bars || bot.embedded.length === 0) return undefined;
    try {
      const [vector] = await embedder.embed([question]);
      return vector ? unitVector(vector) : undefined;
    } catch (error) {
      logger.warn({ err: error }, 'Embedding a question for the Q&A entries failed; words alone decide');
      return undefined;
    }
  }

  return {
    async match(botId: string, question: string): Promise<QaMatch | undefined> {
      const bot = await wordingsOf(botId);
      if (bot.wordings.length === 0) return undefined;
      return pickMatch(bot, question, await questionVector(bot, question), bars);
    },

    /** {@link match}, remembered until the bot's entries change: for the inbox, which asks again and again. */
    async rememberedMatch(botId: string, question: string): Promise<QaMatch | undefined> {
      const bot = await wordingsOf(botId);
      if (bot.wordings.length === 0) return undefined;
      const key = `${botId}\n${question}`;
      const known = remembered.get(key);
      if (known && known.revision === bot.revision) return known.match;
      const vector = await questionVector(bot, question);
      const match = pickMatch(bot, question, vector, bars);
      if (vector || !embedder || !bars || bot.embedded.length === 0) {
        remembered.delete(key);
        remembered.set(key, { revision: bot.revision, match });
        if (remembered.size > REMEMBERED_QUESTIONS)
          remembered.delete(remembered.keys().next().value as string);
      }
      return match;
    },
  };
}
