import type { ChatMessage } from '@parley/protocol';
import type { ChatModelMessage } from './chat-model.js';
import { type AnswerSource, headingContext } from './format.js';
import { messageText } from './question.js';

/** History messages a chat model sees besides the question. */
export const MAX_HISTORY_MESSAGES = 6;
/** Longest history message a chat model sees, in characters. */
const MAX_HISTORY_CHARS = 1000;
/** Longest passage a chat model sees, in characters. */
const MAX_PASSAGE_CHARS = 2000;

/** The instructions: answer from the numbered passages only, cite them, say so when they do not answer. */
export const SYSTEM_PROMPT = [
  "You are a helpful assistant answering a user's question in a chat.",
  'Answer only from the numbered passages of the knowledge base given with the question; do not use other knowledge.',
  'Cite the passages you use with their numbers in square brackets, like [1] or [2], right after the statement they support.',
  'If the passages do not contain the answer, say that you could not find it in the knowledge base.',
  'Answer in the language of the question, briefly, in Markdown.',
].join('\n');

/** What a chat model answers, alone, when the passages it was given for an unsure question do not answer it. */
export const NO_ANSWER = 'NO_ANSWER';

/**
 * The instructions of a knowledge answer (unsure.ts: the quotes' passages and the best others, or the best
 * candidates when the offline gate is unsure): the passages are the best found but may not answer; the model
 * answers from them only, or says {@link NO_ANSWER} alone, which the bot turns into its "not found" reply.
 * ({@link SYSTEM_PROMPT} is for the passage a visitor picked.)
 */
export const UNSURE_SYSTEM_PROMPT = [
  "You are a helpful assistant answering a user's question in a chat.",
  'The numbered passages given with the question are the closest a search of the knowledge base found, but they may not answer it.',
  'Answer only from these passages; do not use other knowledge, and do not guess.',
  'Cite the passages you use with their numbers in square brackets, like [1] or [2], right after the statement they support.',
  `If the passages do not answer the question, reply with exactly ${NO_ANSWER} and nothing else.`,
  'Answer in the language of the question, briefly, in Markdown.',
].join('\n');

const bare = (text: string) => text.replace(/[\s`*_"'.!]+/g, '').toUpperCase();

/**
 * Whether a model's answer says the passages do not answer: {@link NO_ANSWER} alone, case, spaces, quotes,
 * Markdown marks and a full stop aside.
 * @example saysNoAnswer('`NO_ANSWER`.') // true
 */
export function saysNoAnswer(answer: string): boolean {
  return bare(answer) === bare(NO_ANSWER);
}

/**
 * Whether the start of a streamed answer may still turn out to be {@link NO_ANSWER} (held back until it cannot).
 * @example mayBeNoAnswer('`NO_') // true
 * @example mayBeNoAnswer('No, ') // false
 */
export function mayBeNoAnswer(start: string): boolean {
  return bare(NO_ANSWER).startsWith(bare(start));
}

/**
 * The user prompt: the numbered passages the answer rests on (the passages of the quotes the bot would give,
 * whole, with their source, page and headings) and the question.
 * @example userPrompt('How long for a refund?', sources) // 'Passages:\n\n[1] (handbook.md)\nRefunds…\n\nQuestion: How long…'
 */
export function userPrompt(question: string, sources: readonly AnswerSource[]): string {
  const passages = sources.map((s) => {
    const page = s.pageNumber ? `, page ${s.pageNumber}` : '';
    const headings = headingContext(s);
    const where = `${s.title}${page}${headings ? ` › ${headings}` : ''}`;
    const whole = s.passage ?? s.content;
    const text = whole.length > MAX_PASSAGE_CHARS ? `${whole.slice(0, MAX_PASSAGE_CHARS)}…` : whole;
    return `[${s.n}] (${where})\n${text.trim()}`;
  });
  return `Passages:\n\n${passages.join('\n\n')}\n\nQuestion: ${question}`;
}

/**
 * The messages sent to a chat model: the instructions, the last few text messages of the conversation
 * (oldest first; the question itself and non-text messages left out), then the passages and the question.
 */
export function buildChatPrompt(input: {
  question: string;
  sources: readonly AnswerSource[];
  history?: readonly ChatMessage[];
  /** The id of the message being answered, left out of the history. */
  messageId?: string;
  /** The instructions (default {@link SYSTEM_PROMPT}). */
  system?: string;
}): ChatModelMessage[] {
  const history: ChatModelMessage[] = [];
  for (const m of input.history ?? []) {
    if (m.id === input.messageId) continue;
    const text = messageText(m);
    if (!text) continue;
    history.push({
      role: m.isBot ? 'assistant' : 'user',
      content: text.length > MAX_HISTORY_CHARS ? `${text.slice(0, MAX_HISTORY_CHARS)}…` : text,
    });
  }
  return [
    { role: 'system', content: input.system ?? SYSTEM_PROMPT },
    ...history.slice(-MAX_HISTORY_MESSAGES),
    { role: 'user', content: userPrompt(input.question, input.sources) },
  ];
}
