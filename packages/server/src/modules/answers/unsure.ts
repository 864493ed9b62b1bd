import type { Logger } from '../../logger.js';
import type { Reply, ReplyRequest, ReplyStream } from '../chat/contract.js';
import { type ChatModel, modelCallFailed } from './chat-model.js';
import { type ClarifyBars, candidatePassages, isUnsure, type unsureness } from './clarify.js';
import { leadingQuote, type Quote } from './extract.js';
import { type AnswerSource, citedSources, generatedAnswer, sourcesMetadata } from './format.js';
import { buildChatPrompt, mayBeNoAnswer, saysNoAnswer, UNSURE_SYSTEM_PROMPT } from './prompt.js';
import type { Retrieved } from './retrieval.js';
import type { Selection } from './selection.js';
import { sentencesOf } from './sentences.js';

// With a chat model configured (issue #33, item 6), the offline gate does not decide alone: a question it is
// sure of (its quotes first) and one it is unsure of (between that and nothing at all) go to the model with the
// best passages found; the model answers from them only, or says they do not answer, and the bot then gives its
// "not found" reply (answer mode `not_found`, which Insights counts). A model that fails leaves the offline reply
// (the quotes; asking back, or "not found").

/**
 * The band in which a chat model reads the best passages: every question with something near it, far wider than
 * the offline "did you mean" band (clarify.ts CLARIFY_BARS, evidence 0.8 / meaning 0.55), since the model, not a
 * bar, tells a paraphrase from a question the knowledge does not answer: with USE-lite no bar separates them
 * (docs/benchmarks/answers.md, "Paraphrases"). Measured on the visitor set's tune half with a stand-in that reads as a
 * perfect model would (docs/benchmarks/answers.md, "A chat model when unsure"): at the offline bars of the visitor set alone
 * (0.64 / 0.5) 16 answerable questions reached the model and 12 were given passages holding their facts; at these
 * bars 45 and 37 (paraphrases 27), with the answerable facts found down to a meaning similarity of 0.22. Below
 * them (an unrelated question: USE-lite similarity under 0.2 and no word in common) the model is not called.
 */
export const MODEL_BARS: ClarifyBars = { minEvidence: 0.2, minSimilarity: 0.2, minCoverage: 0.1 };

/**
 * Passages a chat model reads for a question (distinct, best first). On the same tune half, 4 passages held
 * the facts of 35 of the 46 answerable questions sent with no bar at all, 6 those of 37 of 45 at these bars.
 */
export const MODEL_PASSAGES = 6;

/** Words of each passage kept as its quote in the reply's sources (the model reads the whole passage). */
const SOURCE_WORDS = 60;

/**
 * The passages a chat model reads (at most {@link MODEL_PASSAGES}, distinct): for a question the gate answers,
 * its quotes' passages, then the best other candidates (clarify.ts candidatePassages) as quotes from their start;
 * for one it did not answer, the best candidates when the question is in the model's band ({@link MODEL_BARS};
 * never when it names something no passage holds). Undefined outside the band or when nothing was found.
 */
export function modelQuotes(
  retrieved: Pick<Retrieved, 'found' | 'semantic'>,
  selection: Selection,
  scaled: boolean,
  bars: ClarifyBars = MODEL_BARS,
): Quote[] | undefined {
  const semantic = scaled ? retrieved.semantic : [];
  const sure = selection.quotes.length > 0;
  if (!sure && !isUnsure(selection, semantic, scaled, bars)) return undefined;
  const first = sure ? selection.quotes : selection.best ? [selection.best] : [];
  // The quotes' passages always (a candidate must have a position to be offered as a choice; these need not).
  const quotedPassages = selection.quotes.map((q) => q.passage);
  const others = candidatePassages(first, retrieved.found, semantic).filter(
    (p) => !quotedPassages.includes(p),
  );
  const passages = [...quotedPassages, ...others].slice(0, MODEL_PASSAGES);
  const quoted = new Map(selection.quotes.map((q) => [q.passage, q]));
  const quotes = passages.map(
    (passage, rank): Quote =>
      quoted.get(passage) ?? {
        ...leadingQuote(passage, sentencesOf(passage.content), {
          maxWords: SOURCE_WORDS,
          score: passage.score,
        }),
        rank,
      },
  );
  return quotes.length > 0 ? quotes : undefined;
}

/** What the model is asked with, and the replies to give without its answer. */
export interface ModelAnswerInput {
  request: ReplyRequest;
  /** Streams the answer once it cannot be {@link NO_ANSWER} (absent: answered whole). */
  stream?: ReplyStream | undefined;
  query: string;
  /** The sources of {@link modelQuotes}, numbered as the prompt numbers them. */
  sources: AnswerSource[];
  /** The retrieval's debug details. */
  debug: Record<string, unknown>;
  /** For a question the gate did not answer: the band's measures, for the debug details. */
  measures?: ReturnType<typeof unsureness> | undefined;
  /** The sources as the reply links them (answer-sources.ts linkedSources). */
  link: (sources: AnswerSource[]) => AnswerSource[];
  /** The "not found" reply, with these debug details added. */
  notFound: (extra: Record<string, unknown>) => Reply;
  /** The reply without a model (the quotes; asking back, else "not found"), with these debug details added. */
  offline: (extra: Record<string, unknown>) => Reply | Promise<Reply>;
  now: () => number;
  log: Logger;
}

/**
 * Passes a streamed answer on once it can no longer be {@link NO_ANSWER} (which is not the model's words to
 * show: the bot says "not found" instead); what was held back goes out first.
 */
function heldBack(stream: ReplyStream): (piece: string) => void {
  let held = '';
  let open = false;
  return (piece) => {
    if (open) return stream.delta(piece);
    held += piece;
    if (mayBeNoAnswer(held)) return;
    open = true;
    stream.delta(held);
  };
}

/**
 * The reply with a chat model: its answer from the passages with a "Sources" list of what it cites (answer mode
 * `generated`), streamed when a stream is given; the "not found" reply when it says they do not answer; the
 * offline reply when it fails (error status, time-out after PARLEY_CHAT_MODEL_TIMEOUT_MS, unreachable, empty
 * answer), with `debug.model.error`.
 */
export async function modelAnswerReply(model: ChatModel, input: ModelAnswerInput): Promise<Reply> {
  const { request, now, stream } = input;
  const streamed = stream !== undefined;
  const started = now();
  const prompt = buildChatPrompt({
    question: input.query,
    sources: input.sources,
    history: request.history,
    messageId: request.message.id,
    system: UNSURE_SYSTEM_PROMPT,
  });
  const band = input.measures
    ? { unsure: { ...input.measures, bars: MODEL_BARS, passages: input.sources.length } }
    : {};
  let text: string;
  try {
    text = await model.complete(prompt, {
      signal: request.signal,
      log: input.log,
      ...(stream ? { onDelta: heldBack(stream) } : {}),
    });
  } catch (error) {
    const call = { name: model.model, latencyMs: Math.round(now() - started), streamed };
    const failed = modelCallFailed(error, call, input, 'the reply is the one without it');
    return input.offline({ ...band, model: failed });
  }
  const modelDebug = { name: model.model, latencyMs: Math.round(now() - started), streamed };
  if (saysNoAnswer(text)) return input.notFound({ ...band, model: { ...modelDebug, answer: text.trim() } });
  const cited = input.link(citedSources(text, input.sources));
  return {
    messages: [{ payload: generatedAnswer(text, cited), metadata: sourcesMetadata(cited) }],
    debug: { mode: 'generated', ...input.debug, ...band, model: modelDebug },
  };
}
