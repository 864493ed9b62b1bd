import type { BotMessageDraft } from './contract.js';
import type { Reply } from './reply-port.js';

/** The answer mode of the reply of a bot without an answer engine. */
export const NO_ENGINE_ANSWER = 'no_engine';
/** The answer mode of the reply posted when every attempt to answer failed. */
export const FAILED_ANSWER = 'failed';

/**
 * What the first message of a reply records of how it was made, for the bot's owners (Admin API): its answer
 * mode (`debug.mode`: `not_found` when the knowledge base had nothing) and its retrieval details (the `debug`
 * signal's data, kept with the message since signals expire). A reply without debug details from no engine
 * at all records `no_engine`.
 */
export function replyRecord(reply: Reply, hasEngine: boolean): Pick<BotMessageDraft, 'answer' | 'details'> {
  const mode = reply.debug?.mode;
  return {
    ...(typeof mode === 'string' ? { answer: mode } : hasEngine ? {} : { answer: NO_ENGINE_ANSWER }),
    ...(reply.debug ? { details: reply.debug } : {}),
  };
}
