// Scoring the bot's replies to the visitor set (issue 33). An answerable question is
//  - right: the reply states every expected fact (case and spacing aside) and its first source is the right
//    document;
//  - clarified: the reply asks back with choices (a choice payload), the right topic is among them, and
//    picking it (posting the choice's value as the next message) gets a right reply;
//  - not found: the reply says it found nothing (answer mode not_found).
// Any reply quoting a document that is not the right source (for an unanswerable question, any document)
// counts as a noise reply. An unanswerable question is answered honestly when the reply is a plain "not
// found": answer mode not_found and no source.
import type { BotReply, ReplyChoice } from '../lib/chat-ask.js';
import { percentile } from '../lib/stats.js';
import type { SplitName, VisitorQuestion } from './set.js';
import { flat } from './wording.js';

/** What became of one question. */
export interface ScoredQuestion {
  question: VisitorQuestion;
  reply: BotReply;
  /** The reply to picking the right topic's choice, when the bot asked back and offered it. */
  followUp?: BotReply;
  right: boolean;
  clarified: boolean;
  /** The right topic was among the choices the bot offered (whatever picking it gave). */
  topicOffered: boolean;
  notFound: boolean;
  /** The reply (or its follow-up) quotes a document that does not answer the question. */
  noise: boolean;
  /** Unanswerable questions: a plain "not found". */
  honest: boolean;
}

/** Letters and digits only, lower-cased: how choice labels and topics are compared. */
const bare = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The choice that names `topic` (its label or value equal to, holding or held by the topic), if any. */
export function choiceForTopic(choices: readonly ReplyChoice[], topic: string): ReplyChoice | undefined {
  const t = bare(topic);
  if (!t) return undefined;
  return choices.find((c) =>
    [c.label, c.value].some((s) => {
      const b = bare(s);
      return b.length >= 3 && (b === t || b.includes(t) || t.includes(b));
    }),
  );
}

/** Whether a reply states every fact and names `source` first. */
export function statesFacts(reply: BotReply, facts: readonly string[], source: string): boolean {
  const said = flat(reply.text);
  return reply.sources[0] === source && facts.every((f) => said.includes(flat(f)));
}

/** Whether a reply quotes a document other than `source` (any document when there is none). */
const noisy = (reply: BotReply | undefined, source: string | undefined) =>
  reply?.sources.some((key) => key !== source) === true;

/**
 * Scores one question's reply; `pick` posts a choice's value in the same conversation and answers the bot's
 * next reply (called only when the bot asked back and offered the right topic).
 */
export async function scoreQuestion(
  question: VisitorQuestion,
  reply: BotReply,
  pick: (choice: ReplyChoice) => Promise<BotReply>,
): Promise<ScoredQuestion> {
  const expected = question.answer;
  const notFound = reply.answer === 'not_found';
  if (!expected) {
    return {
      question,
      reply,
      right: false,
      clarified: false,
      topicOffered: false,
      notFound,
      noise: noisy(reply, undefined),
      honest: notFound && reply.sources.length === 0 && reply.choices.length === 0,
    };
  }
  const choice = reply.choices.length > 0 ? choiceForTopic(reply.choices, expected.topic) : undefined;
  const followUp = choice ? await pick(choice) : undefined;
  return {
    question,
    reply,
    ...(followUp ? { followUp } : {}),
    right: reply.choices.length === 0 && statesFacts(reply, expected.facts, expected.source),
    clarified: followUp !== undefined && statesFacts(followUp, expected.facts, expected.source),
    topicOffered: choice !== undefined,
    notFound,
    noise: noisy(reply, expected.source) || noisy(followUp, expected.source),
    honest: false,
  };
}

/** A row of the report: one split, one group of questions. */
export interface VisitorFigures {
  split: SplitName;
  /** `paraphrase`, `lexical`, `answerable` (both) or `unanswerable`. */
  group: string;
  questions: number;
  right: number;
  clarified: number;
  notFound: number;
  noise: number;
  honest: number;
  p50: number;
  p95: number;
}

/** The figures of a group of scored questions. */
export function figuresOf(
  split: SplitName,
  group: string,
  scored: readonly ScoredQuestion[],
): VisitorFigures {
  const times = scored.map((s) => s.reply.replyMs).sort((a, b) => a - b);
  const count = (f: (s: ScoredQuestion) => boolean) => scored.filter(f).length;
  return {
    split,
    group,
    questions: scored.length,
    right: count((s) => s.right),
    clarified: count((s) => s.clarified),
    notFound: count((s) => s.notFound),
    noise: count((s) => s.noise),
    honest: count((s) => s.honest),
    p50: times.length === 0 ? 0 : percentile(times, 50),
    p95: times.length === 0 ? 0 : percentile(times, 95),
  };
}

/** Each split's rows: paraphrase, lexical, answerable, unanswerable, and all questions. */
export function reportRows(scored: readonly ScoredQuestion[]): VisitorFigures[] {
  const splits: SplitName[] = ['tune', 'held-out'];
  return splits.flatMap((split) => {
    const own = scored.filter((s) => s.question.split === split);
    const groups: Array<[string, (s: ScoredQuestion) => boolean]> = [
      ['paraphrase', (s) => s.question.wording === 'paraphrase'],
      ['lexical', (s) => s.question.wording === 'lexical'],
      ['answerable', (s) => s.question.answer !== null],
      ['unanswerable', (s) => s.question.answer === null],
      ['all', () => true],
    ];
    return groups.map(([group, keep]) => figuresOf(split, group, own.filter(keep)));
  });
}
