import Type, { type Static } from 'typebox';
import { ListMeta, PageQuery, Tags, Timestamp } from './common.js';

/** Most Q&A entries a bot holds (403 QuotaExceeded past it). */
export const MAX_QA_ENTRIES_PER_BOT = 1000;
/** Most question wordings of one entry. */
export const MAX_QA_QUESTIONS = 20;
/** Longest question wording, in characters. */
export const MAX_QA_QUESTION_CHARS = 500;
/** Longest answer, in characters (Markdown). */
export const MAX_QA_ANSWER_CHARS = 5000;

/** A question wording: not blank. */
const Question = Type.String({ minLength: 1, maxLength: MAX_QA_QUESTION_CHARS, pattern: '\\S' });

/** The fields of a Q&A entry a caller writes (create and replace). */
export const QaEntryFields = Type.Object({
  questions: Type.Array(Question, {
    minItems: 1,
    maxItems: MAX_QA_QUESTIONS,
    description: `The ways visitors ask it (1 to ${MAX_QA_QUESTIONS}, each at most ${MAX_QA_QUESTION_CHARS} characters)`,
  }),
  answer: Type.String({
    minLength: 1,
    maxLength: MAX_QA_ANSWER_CHARS,
    pattern: '\\S',
    description: `The answer in Markdown (at most ${MAX_QA_ANSWER_CHARS} characters); links and images may lead only to http(s), mailto: and tel: addresses`,
  }),
  tags: Type.Optional(Tags),
  enabled: Type.Optional(Type.Boolean({ description: 'Whether the bot answers with it (default true)' })),
  knowledgeBaseId: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
      description: 'A knowledge base of the bot the entry belongs to (null or absent: the bot as a whole)',
    }),
  ),
});
/** Q&A entry fields type. */
export type QaEntryFields = Static<typeof QaEntryFields>;

/** A Q&A entry of a bot: wordings of a question and the answer the bot gives to them, before any search. */
export const QaEntry = Type.Object(
  {
    id: Type.String(),
    botId: Type.String(),
    questions: Type.Array(Type.String()),
    answer: Type.String({ description: 'Markdown' }),
    tags: Tags,
    enabled: Type.Boolean(),
    knowledgeBaseId: Type.Optional(Type.String()),
    embedded: Type.Boolean({
      description:
        "True when every wording, and every sentence of the answer, has its vector of the embedder's model (it is matched by meaning too); false while they are computed, or without an embedder (matched by words only)",
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'QaEntry' },
);
/** Q&A entry type. */
export type QaEntry = Static<typeof QaEntry>;

/** Query of `GET /v1/admin/bots/{id}/qa`. */
export const ListQaEntriesQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'Only entries whose wordings, answer or tags hold this text (case aside)',
    }),
  ),
  enabled: Type.Optional(Type.Boolean({ description: 'Only enabled (true) or disabled (false) entries' })),
  knowledgeBaseId: Type.Optional(
    Type.String({ maxLength: 100, description: 'Only entries of this knowledge base' }),
  ),
});
/** Query type of listQaEntries. */
export type ListQaEntriesQuery = Static<typeof ListQaEntriesQuery>;

/** Answer of listQaEntries: oldest first. */
export const ListQaEntriesResponse = Type.Object({ entries: Type.Array(QaEntry), meta: ListMeta });
/** Answer type of listQaEntries. */
export type ListQaEntriesResponse = Static<typeof ListQaEntriesResponse>;

/** Answer of the Q&A entry operations that answer one entry. */
export const QaEntryResponse = Type.Object({ entry: QaEntry });
/** Answer type of one entry. */
export type QaEntryResponse = Static<typeof QaEntryResponse>;

/** Whether a link destination is one a person may follow: http(s), mailto: or tel:. */
const FOLLOWABLE = /^(https?:\/\/|mailto:|tel:)/i;

/** The destination of a Markdown link as written (`<dest>` or `dest "title"`). */
function destinationOf(raw: string): string {
  const text = raw.trim();
  if (text.startsWith('<')) return text.slice(1, text.indexOf('>') > 0 ? text.indexOf('>') : undefined);
  return text.split(/\s+/)[0] ?? '';
}

/**
 * The link destinations of a Markdown text that lead elsewhere than http(s), mailto: or tel: (a `javascript:`
 * or `data:` URL, a relative address): inline links and images, reference definitions, autolinks and
 * `href`/`src` attributes of inline HTML. Empty when every link may be followed.
 * @example markdownLinkIssues('[x](javascript:alert(1)) [y](https://example.com)') // ['javascript:alert(1)']
 */
export function markdownLinkIssues(markdown: string): string[] {
  const found: string[] = [];
  for (const m of markdown.matchAll(/\]\(\s*(<[^>]*>|[^)\s]*(?:\([^)\s]*\)[^)\s]*)*)/g))
    found.push(destinationOf(m[1] ?? ''));
  for (const m of markdown.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)) found.push(destinationOf(m[1] ?? ''));
  for (const m of markdown.matchAll(/<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>/g)) found.push(m[1] ?? '');
  for (const m of markdown.matchAll(/\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi))
    found.push(m[1] ?? m[2] ?? m[3] ?? '');
  return found.filter((dest) => !FOLLOWABLE.test(dest.trim()));
}
