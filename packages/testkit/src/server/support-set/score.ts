// Scores the bot's replies to the support set's questions (issue 13): right answer quoted first, quotes from
// documents that do not answer, honest "not found".

import { quotesIn } from '../../../../server/src/modules/answers/format.js';
import type { Reply } from '../../../../server/src/modules/chat/reply-port.js';
import type { SupportQuestion } from './questions.js';

/** How one reply fares. */
export interface ScoredReply {
  question: SupportQuestion;
  /** Answerable: the first quote comes from the expected document and holds one of its facts. */
  right: boolean;
  /** Answerable: how many of the reply's sources are other documents than the expected one. */
  noise: number;
  /** Unanswerable: the reply says it found nothing (`debug.mode` `not_found`) and quotes nothing. */
  honest: boolean;
  /** The keys of the reply's sources, in order (metadata.sources). */
  keys: string[];
  /** The reply's text (its first message). */
  text: string;
}

/** The figures of a set of scored replies. */
export interface SupportFigures {
  answerable: number;
  right: number;
  /** Quotes from documents that do not answer, over all answerable replies. */
  noise: number;
  unanswerable: number;
  honest: number;
}

/** Text with every run of white space one space, lower-cased: what fact matching compares. */
const flat = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** The quote blocks of a markdown reply (see `quotesIn`). */
export const quoteBlocks = quotesIn;

/** The text of a reply's first message (its markdown or its text). */
export function replyText(reply: Reply): string {
  const payload = reply.messages[0]?.payload;
  if (payload?.type === 'markdown') return payload.markdown;
  if (payload?.type === 'text') return payload.text;
  return '';
}

/** The source keys of a reply's first message, in order. */
export function sourceKeys(reply: Reply): string[] {
  const sources = (reply.messages[0]?.metadata as { sources?: Array<{ key: string }> } | undefined)?.sources;
  return (sources ?? []).map((s) => s.key);
}

/** Scores one reply against its question. */
export function scoreReply(question: SupportQuestion, reply: Reply): ScoredReply {
  const text = replyText(reply);
  const keys = sourceKeys(reply);
  const mode = (reply.debug as { mode?: string } | undefined)?.mode;
  if (question.kind === 'unanswerable') {
    return {
      question,
      right: false,
      noise: 0,
      honest: mode === 'not_found' && keys.length === 0,
      keys,
      text,
    };
  }
  const first = flat(quoteBlocks(text)[0] ?? '');
  const right = keys[0] === question.source && question.facts.some((fact) => first.includes(flat(fact)));
  const noise = keys.filter((key) => key !== question.source).length;
  return { question, right, noise, honest: false, keys, text };
}

/** Adds up scored replies. */
export function figuresOf(scored: readonly ScoredReply[]): SupportFigures {
  const answerable = scored.filter((s) => s.question.kind === 'answerable');
  const unanswerable = scored.filter((s) => s.question.kind === 'unanswerable');
  return {
    answerable: answerable.length,
    right: answerable.filter((s) => s.right).length,
    noise: answerable.reduce((sum, s) => sum + s.noise, 0),
    unanswerable: unanswerable.length,
    honest: unanswerable.filter((s) => s.honest).length,
  };
}

/** A printable report: the figures, then each miss (wrong, noisy or dishonest) with its reply. */
export function reportOf(scored: readonly ScoredReply[]): string {
  const f = figuresOf(scored);
  const lines = [
    '| what | measured |',
    '|---|---|',
    `| reply states the fact, from the right document quoted first | ${f.right} of ${f.answerable} |`,
    `| quotes from documents that do not answer | ${f.noise} over ${f.answerable} replies |`,
    `| unanswerable questions answered honestly | ${f.honest} of ${f.unanswerable} |`,
    '',
  ];
  for (const s of scored) {
    const q = s.question;
    const miss =
      q.kind === 'answerable'
        ? [
            !s.right && `wrong (expected ${q.source}: ${q.facts.join(' / ')})`,
            s.noise > 0 && `noise ${s.noise}`,
          ]
        : [!s.honest && 'answered'];
    const why = miss.filter(Boolean).join(', ');
    if (!why) continue;
    lines.push(`MISS "${q.text}" — ${why}; sources [${s.keys.join(', ')}]`);
    lines.push(...s.text.split('\n').map((line) => `    ${line.replace(/\]\([^)]*\)/g, ']')}`), '');
  }
  return lines.join('\n');
}
