import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type Logger, silentLogger } from '../../logger.js';
import { isUseLiteId } from '../../search/embed/index.js';
import { bytesVector, unitVector } from '../../search/index/common.js';
import { contentTerms } from '../../search/terms.js';
import type { Embedder } from '../../search/types.js';
import type { QaMatch } from './contract.js';
import { qaRepo } from './repo.js';

/**
 * Least overlap of content words (Jaccard of their stems) at which a question asks an entry's wording. Measured
 * in matching.test.ts on shop wordings: reworded questions with the wording's words scored 0.67–1, unrelated
 * questions sharing one word at most 0.33. On the answers benchmark's visitor set, held-out paraphrases overlapped
 * their intent's wordings by 0.17 at most (bench/README.md, Q&A entries).
 */
export const QA_WORD_BAR = 0.5;

/**
 * Least cosine similarity, with the shipped USE-lite model, at which a question asks an entry's wording.
 * Measured in matching.test.ts: paraphrases of a wording scored 0.71–0.93, unrelated questions of the same shop
 * at most 0.63 (a neighbouring topic). Other embedders have no measured value: their entries match by words.
 * On the answers benchmark's visitor set no lower bar kept every other intent's question out (bench/README.md).
 */
export const USE_LITE_QA_BAR = 0.82;

/** Most bots whose wordings a process keeps in memory (least recently used dropped first). */
const CACHED_BOTS = 200;
/** Most questions whose lookup a process remembers (for the bot's revision it was made at; oldest dropped first). */
const REMEMBERED_QUESTIONS = 5_000;

/** The meaning bar with this embedder: {@link USE_LITE_QA_BAR} for the built-in model, else none. */
export function qaMeaningBarFor(embedder: Pick<Embedder, 'id'> | null | undefined): number | undefined {
  return isUseLiteId(embedder?.id) ? USE_LITE_QA_BAR : undefined;
}

/** The content terms (stems) of a wording, as stored with it and compared with a question's. */
export function wordingTerms(text: string): string[] {
  return contentTerms(text);
}

/** Jaccard similarity of two sets of terms (0 when either is empty). */
function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/** A wording of an enabled entry as a lookup compares with it. */
interface CachedWording {
  entryId: string;
  answer: string;
  text: string;
  lower: string;
  terms: Set<string>;
  /** Unit vector of the embedder's model; absent until embedded (or of another model). */
  vector: Float32Array | undefined;
}

/** A bot's wordings in memory: the term index (term → wordings) and the vectors, valid at `revision`. */
export interface BotWordings {
  revision: number;
  wordings: CachedWording[];
  byTerm: Map<string, CachedWording[]>;
  /** The wordings with a vector, and their vectors one after the other in one array (a row of `dimensions` each). */
  embedded: CachedWording[];
  matrix: Float32Array;
  dimensions: number;
}

/** A stored wording as the lookup reads it. */
export interface WordingRow {
  entry_id: string;
  answer: string;
  text: string;
  terms: string;
  vector: Uint8Array | null;
  model_id: string | null;
}

/** A bot's wordings as the lookup holds them (vectors only of `modelId`). */
export function botWordings(rows: WordingRow[], modelId: string | undefined, revision = 0): BotWordings {
  const wordings = rows.map(
    (r): CachedWording => ({
      entryId: r.entry_id,
      answer: r.answer,
      text: r.text,
      lower: r.text.toLowerCase(),
      terms: new Set(r.terms.split(' ').filter(Boolean)),
      vector: r.vector && modelId && r.model_id === modelId ? unitVector(bytesVector(r.vector)) : undefined,
    }),
  );
  const byTerm = new Map<string, CachedWording[]>();
  for (const w of wordings)
    for (const t of w.terms) {
      const list = byTerm.get(t);
      if (list) list.push(w);
      else byTerm.set(t, [w]);
    }
  // One array of all the vectors: the lookup's dot products run over it in one pass (1,000 entries: 2,000 rows).
  const dimensions = wordings.find((w) => w.vector)?.vector?.length ?? 0;
  const embedded = wordings.filter((w) => w.vector?.length === dimensions && dimensions > 0);
  const matrix = new Float32Array(embedded.length * dimensions);
  embedded.forEach((w, row) => matrix.set(w.vector as Float32Array, row * dimensions));
  return { revision, wordings, byTerm, embedded, matrix, dimensions };
}

/** The best wording by words (found through the term index): an exact wording (case and spaces aside) scores 1. */
function byWords(bot: BotWordings, question: string): { w: CachedWording; score: number } | undefined {
  const lower = question.replace(/\s+/g, ' ').trim().toLowerCase();
  const terms = new Set(wordingTerms(question));
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

/** The wording closest in meaning to the question's unit vector. */
function byMeaning(bot: BotWordings, query: Float32Array): { w: CachedWording; score: number } | undefined {
  const { matrix, dimensions: d } = bot;
  if (query.length !== d || bot.embedded.length === 0) return undefined;
  let bestRow = -1;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (let row = 0, at = 0; row < bot.embedded.length; row++, at += d) {
    let score = 0;
    for (let i = 0; i < d; i++) score += (matrix[at + i] as number) * (query[i] as number);
    if (score > bestScore) {
      bestScore = score;
      bestRow = row;
    }
  }
  const w = bot.embedded[bestRow];
  return w ? { w, score: bestScore } : undefined;
}

/**
 * The entry a question asks among `bot`'s wordings: the best wording by words at or above {@link QA_WORD_BAR},
 * or by meaning (the question's unit vector, when given with a bar) at or above `meaningBar`; the higher score
 * wins, words on a tie. Undefined when none passes.
 */
export function pickMatch(
  bot: BotWordings,
  question: string,
  query: Float32Array | undefined,
  meaningBar: number | undefined,
): QaMatch | undefined {
  const words = byWords(bot, question);
  const meaning = query && meaningBar !== undefined ? byMeaning(bot, query) : undefined;
  const wordHit = words && words.score >= QA_WORD_BAR ? words : undefined;
  const meaningHit = meaning && meaningBar !== undefined && meaning.score >= meaningBar ? meaning : undefined;
  const hit =
    wordHit && (!meaningHit || wordHit.score >= meaningHit.score)
      ? { ...wordHit, by: 'words' as const, bar: QA_WORD_BAR }
      : meaningHit && meaningBar !== undefined
        ? { ...meaningHit, by: 'meaning' as const, bar: meaningBar }
        : undefined;
  if (!hit) return undefined;
  return {
    entryId: hit.w.entryId,
    answer: hit.w.answer,
    wording: hit.w.text,
    by: hit.by,
    score: Math.round(hit.score * 10_000) / 10_000,
    bar: hit.bar,
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
  const meaningBar = qaMeaningBarFor(embedder);
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
    if (!embedder || meaningBar === undefined || bot.embedded.length === 0) return undefined;
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
      return pickMatch(bot, question, await questionVector(bot, question), meaningBar);
    },

    /** {@link match}, remembered until the bot's entries change: for the inbox, which asks again and again. */
    async rememberedMatch(botId: string, question: string): Promise<QaMatch | undefined> {
      const bot = await wordingsOf(botId);
      if (bot.wordings.length === 0) return undefined;
      const key = `${botId}\n${question}`;
      const known = remembered.get(key);
      if (known && known.revision === bot.revision) return known.match;
      const vector = await questionVector(bot, question);
      const match = pickMatch(bot, question, vector, meaningBar);
      if (vector || !embedder || meaningBar === undefined || bot.embedded.length === 0) {
        remembered.delete(key);
        remembered.set(key, { revision: bot.revision, match });
        if (remembered.size > REMEMBERED_QUESTIONS)
          remembered.delete(remembered.keys().next().value as string);
      }
      return match;
    },
  };
}
