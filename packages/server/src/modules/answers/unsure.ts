import type { Logger } from '../../logger.js';
import type { Reply, ReplyRequest } from '../chat/reply-port.js';
import type { ChatModel } from './chat-model.js';
import { type ClarifyBars, candidatePassages, isUnsure, type unsureness } from './clarify.js';
import { leadingQuote, type Quote, sentencesOf } from './extract.js';
import { type AnswerSource, citedSources, generatedAnswer, sourcesMetadata } from './format.js';
import { buildChatPrompt, saysNoAnswer, UNSURE_SYSTEM_PROMPT } from './prompt.js';
import type { Retrieved } from './retrieval.js';
import type { Selection } from './selection.js';

// With a chat model configured (issue #33, item 6), the offline gate does not decide alone: a question it is
// unsure of (between an answer it is sure of and nothing at all) goes to the model with the best passages found;
// the model answers from them only, or says they do not answer, and the bot then gives its "not found" reply
// (answer mode `not_found`, which Insights counts). A model that fails leaves the offline reply (asking back, or
// "not found").

/**
 * The band in which a chat model reads the best passages: every question with something near it, far wider than
 * the offline "did you mean" band (clarify.ts CLARIFY_BARS, evidence 0.8 / meaning 0.55), since the model, not a
 * bar, tells a paraphrase from a question the knowledge does not answer: with USE-lite no bar separates them
 * (bench/README.md, "Paraphrases"). Measured on the visitor set's tune half with a stand-in that reads as a
 * perfect model would (bench/README.md, "A chat model when unsure"): at the offline bars of the visitor set alone
 * (0.64 / 0.5) 16 answerable questions reached the model and 12 were given passages holding their facts; at these
 * bars 45 and 37 (paraphrases 27), with the answerable facts found down to a meaning similarity of 0.22. Below
 * them (an unrelated question: USE-lite similarity under 0.2 and no word in common) the model is not called.
 */
export const MODEL_BARS: ClarifyBars = { minEvidence: 0.2, minSimilarity: 0.2, minCoverage: 0.1 };

/**
 * Passages a chat model reads for an unsure question (distinct, best first). On the same tune half, 4 passages held
 * the facts of 35 of the 46 answerable questions sent with no bar at all, 6 those of 37 of 45 at these bars.
 */
export const MODEL_PASSAGES = 6;

/** Words of each passage kept as its quote in the reply's sources (the model reads the whole passage). */
const SOURCE_WORDS = 60;

/**
 * The passages a chat model reads for a question the gate did not answer, when the question is in the model's
 * band ({@link MODEL_BARS}; never when it names something no passage holds): the best candidates (clarify.ts
 * candidatePassages), as quotes from their start. Undefined outside the band or when nothing was found.
 */
export function unsureQuotes(
  retrieved: Pick<Retrieved, 'found' | 'semantic'>,
  selection: Selection,
  scaled: boolean,
  bars: ClarifyBars = MODEL_BARS,
): Quote[] | undefined {
  const semantic = scaled ? retrieved.semantic : [];
  if (!isUnsure(selection, semantic, scaled, bars)) return undefined;
  const best = selection.best ? [selection.best] : [];
  const passages = candidatePassages(best, retrieved.found, semantic).slice(0, MODEL_PASSAGES);
  if (passages.length === 0) return undefined;
  return passages.map((passage, rank) => ({
    ...leadingQuote(passage, sentencesOf(passage.content), { maxWords: SOURCE_WORDS, score: passage.score }),
    rank,
  }));
}

/** What the model is asked with, and the replies to give without its answer. */
export interface UnsureInput {
  request: ReplyRequest;
  query: string;
  /** The sources of {@link unsureQuotes}, numbered as the prompt numbers them. */
  sources: AnswerSource[];
  /** The retrieval's debug details. */
  debug: Record<string, unknown>;
  /** The band's measures, for the debug details. */
  measures: ReturnType<typeof unsureness>;
  /** The sources as the reply links them (answer-sources.ts linkedSources). */
  link: (sources: AnswerSource[]) => AnswerSource[];
  /** The "not found" reply, with these debug details added. */
  notFound: (extra: Record<string, unknown>) => Reply;
  /** The reply without a model (asking back, else "not found"), with these debug details added. */
  offline: (extra: Record<string, unknown>) => Reply;
  now: () => number;
  log: Logger;
}

/**
 * The reply to an unsure question with a chat model: its answer from the passages with a "Sources" list of what
 * it cites (answer mode `generated`); the "not found" reply when it says they do not answer; the offline reply
 * when it fails (error status, time-out after PARLEY_CHAT_MODEL_TIMEOUT_MS, unreachable, empty answer), with
 * `debug.model.error`. Not streamed: the answer may turn out to be "not found", which is not the model's words.
 */
export async function unsureReply(model: ChatModel, input: UnsureInput): Promise<Reply> {
  const { request, now } = input;
  const started = now();
  const prompt = buildChatPrompt({
    question: input.query,
    sources: input.sources,
    history: request.history,
    messageId: request.message.id,
    system: UNSURE_SYSTEM_PROMPT,
  });
  const unsure = { ...input.measures, bars: MODEL_BARS, passages: input.sources.length };
  let text: string;
  try {
    text = await model.complete(prompt, { signal: request.signal, log: input.log });
  } catch (error) {
    request.signal?.throwIfAborted();
    input.log.warn(
      { err: error, model: model.model },
      'The chat model failed on an unsure question; the reply is the offline one',
    );
    const latencyMs = Math.round(now() - started);
    const reason = error instanceof Error ? error.message : String(error);
    return input.offline({ unsure, model: { name: model.model, latencyMs, streamed: false, error: reason } });
  }
  const modelDebug = { name: model.model, latencyMs: Math.round(now() - started), streamed: false };
  if (saysNoAnswer(text)) return input.notFound({ unsure, model: { ...modelDebug, answer: text.trim() } });
  const cited = input.link(citedSources(text, input.sources));
  return {
    messages: [{ payload: generatedAnswer(text, cited), metadata: sourcesMetadata(cited) }],
    debug: { mode: 'generated', ...input.debug, unsure, model: modelDebug },
  };
}
