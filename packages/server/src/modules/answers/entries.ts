// The bot's Q&A entries in its knowledge answers (issue 34): the entry a question asks answers before any passage
// search, unless it was found by its answer alone and the passages answer the question surely elsewhere.
import type { Logger } from '../../logger.js';
import type { Reply } from '../chat/contract.js';
import type { FilesContext } from '../files/service.js';
import type { QaMatch, QaService } from '../qa/contract.js';
import { answerLanguage } from './language.js';
import { encoderApplies, type RetrievalDeps, type Retrieved, retrieve } from './retrieval.js';
import { SELECT_DEFAULTS, type Selection, selectQuotes } from './selection.js';
import { type UnitMatcher, withUnits } from './units.js';

/**
 * Whether the passages answer before an entry found by its answer (`sentence`: the answer's sentence the
 * question came closest to): when they answer surely (their quotes passed the gate) and none of their quotes
 * holds that sentence, the question asks something the knowledge says elsewhere (a neighbouring topic no entry
 * was written for).
 */
export function passagesFirst(selection: Selection, sentence: string): boolean {
  if (selection.quotes.length === 0) return false;
  const plain = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  const wanted = plain(sentence);
  return !selection.quotes.some((q) => plain(q.text).includes(wanted));
}

/**
 * Whether the entry found for a question answers it: found by a wording it does; found by its answer alone, unless
 * the passages answer first ({@link passagesFirst}), or when the search failed (`selection` undefined). The reply
 * (responder.ts) and the inbox's "answered by a Q&A entry since" mark ({@link yieldsToPassages}) decide by it.
 */
export function entryAnswers(
  entry: { byAnswer: boolean; sentence: string },
  selection: Selection | undefined,
): boolean {
  return !entry.byAnswer || !selection || !passagesFirst(selection, entry.sentence);
}

/** What the passages of a question are searched and selected with. */
export interface PassageDeps extends RetrievalDeps {
  /**
   * Compares the question with the headings and FAQ question lines of the passages found, when the words gate
   * found nothing (units.ts; `unitMatcherFor(embedder)`: with USE-lite only). Absent: not compared.
   */
  units?: UnitMatcher | undefined;
}

/**
 * The passages a reply to the question quotes: searched (`searchMs`) as the question's `language` allows,
 * selected with the words of the language they are read in (`readIn`: answerLanguage), completed by their units.
 */
export async function passagesFor(
  deps: PassageDeps,
  log: Logger,
  ctx: FilesContext,
  query: string,
  now: () => number,
  language?: string,
): Promise<{
  retrieved: Retrieved;
  selection: Selection;
  searchMs: number;
  readIn: string | undefined;
  unitsDebug?: Record<string, unknown>;
}> {
  const started = now();
  const searched = await retrieve(deps, log, ctx, query, language);
  const searchMs = Math.round(now() - started);
  const readIn = answerLanguage(language, searched.found);
  // A question of unknown language read in one the embedder does not read (its passages'): no meaning there.
  const byMeaning = encoderApplies(deps, readIn);
  const retrieved = byMeaning ? searched : { ...searched, semantic: [] };
  const selected = selectQuotes(query, retrieved.found, retrieved.semantic, deps.semanticMinSimilarity, {
    ...SELECT_DEFAULTS,
    language: readIn,
  });
  // Headings and FAQ lines are compared by meaning: only where the embedder reads the question's language.
  const units = byMeaning ? deps.units : undefined;
  const { selection, debug } = await withUnits(units, log, query, retrieved, selected);
  return { retrieved, selection, searchMs, readIn, ...(debug ? { unitsDebug: debug } : {}) };
}

/**
 * Whether a reply to the question answers with the passages rather than with the entry `match` found (the inbox
 * asks, so that its mark says what a reply would do): {@link entryAnswers} over the passages a reply finds,
 * searched only for an entry found by its answer. A search that fails leaves the entry answering, as in a reply.
 */
export async function yieldsToPassages(
  deps: PassageDeps,
  log: Logger,
  ctx: FilesContext,
  query: string,
  match: Pick<QaMatch, 'by' | 'wording'>,
  language?: string,
): Promise<boolean> {
  const entry = { byAnswer: match.by === 'answer', sentence: match.wording };
  if (!entry.byAnswer) return false;
  let selection: Selection | undefined;
  try {
    selection = (await passagesFor(deps, log, ctx, query, () => performance.now(), language)).selection;
  } catch (error) {
    log.warn({ err: error }, 'Searching the bot knowledge failed; the entry found by its answer answers');
  }
  return !entryAnswers(entry, selection);
}

/** An entry's reply, and whether the entry was found by its answer alone (then the passages may go first). */
export interface EntryReply {
  reply: Reply;
  byAnswer: boolean;
  /** The wording or answer sentence the question came closest to. */
  sentence: string;
}

/**
 * The reply of the bot's Q&A entry the question asks, if one does: the entry's answer (Markdown), its message
 * metadata `answer: {mode: 'qa', entryId}`, the debug details saying which wording matched and how. A lookup
 * that fails is logged and the passages answer instead.
 */
export async function entryFor(
  deps: { entries?: Pick<QaService, 'match'> | undefined },
  log: Logger,
  botId: string,
  query: string,
  now: () => number,
): Promise<EntryReply | undefined> {
  if (!deps.entries) return undefined;
  const started = now();
  let match: QaMatch | undefined;
  try {
    match = await deps.entries.match(botId, query);
  } catch (error) {
    log.warn({ err: error }, 'Looking the question up among the Q&A entries failed; the passages answer');
    return undefined;
  }
  if (!match) return undefined;
  const { entryId, answer, ...how } = match;
  const reply: Reply = {
    messages: [
      { payload: { type: 'markdown', markdown: answer }, metadata: { answer: { mode: 'qa', entryId } } },
    ],
    debug: {
      mode: 'qa',
      query,
      qa: { entryId, ...how, ms: Math.round(now() - started) },
    },
  };
  return { reply, byAnswer: match.by === 'answer', sentence: match.wording };
}
