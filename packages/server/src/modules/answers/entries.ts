// The bot's Q&A entries in its knowledge answers (issue 34): the entry a question asks answers before any passage
// search, unless it was found by its answer alone and the passages answer the question surely elsewhere.
import type { Logger } from '../../logger.js';
import type { Reply } from '../chat/contract.js';
import type { QaMatch, QaService } from '../qa/contract.js';
import type { Selection } from './selection.js';

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
