import type { ChatContext } from './context.js';
import type { ChatActivity, ChatService } from './contract.js';
import { activityQueries, notFoundPattern } from './repo-activity.js';

/** How many not-found questions a period reads at most (the newest), for grouping. */
export const MAX_UNANSWERED_READ = 2000;

const count = (value: number | string | null | undefined) => Number(value ?? 0);

/** The escapes of a JSON string, but `\\u`. */
const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * The JSON string starting at `json[start]` (a `"`), decoded up to its end or to where `json` was cut, and
 * the index after it (`json.length` when cut).
 */
function readString(json: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  while (i < json.length) {
    const c = json[i] as string;
    if (c === '"') return { value, end: i + 1 };
    if (c !== '\\') {
      value += c;
      i++;
      continue;
    }
    const e = json[i + 1];
    if (e === undefined) break;
    if (e === 'u') {
      const hex = json.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) break;
      value += String.fromCharCode(Number.parseInt(hex, 16));
      i += 6;
    } else {
      value += ESCAPES[e] ?? e;
      i += 2;
    }
  }
  return { value, end: json.length };
}

/** The index after the JSON value (not a string) starting at `start`: nested brackets and strings skipped. */
function skipValue(json: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < json.length) {
    const c = json[i];
    if (c === '"') i = readString(json, i).end;
    else {
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (depth === 0) return i;
        depth--;
      } else if (c === ',' && depth === 0) return i;
      i++;
    }
  }
  return i;
}

/**
 * The `type` and `text` members of a JSON object that may be cut short (the start of a stored payload):
 * members are read in order until the cut, a string cut short keeps what arrived.
 */
function leadingMembers(json: string): { type?: string; text?: string } {
  const found: Record<string, unknown> = {};
  let i = json.indexOf('{') + 1;
  if (i === 0) return {};
  const blank = /\s/;
  const skipBlank = () => {
    while (i < json.length && blank.test(json[i] as string)) i++;
  };
  while (i < json.length) {
    skipBlank();
    if (json[i] !== '"') break;
    const key = readString(json, i);
    i = key.end;
    skipBlank();
    if (json[i] !== ':') break;
    i++;
    skipBlank();
    if (json[i] === '"') {
      const value = readString(json, i);
      if (key.value === 'type' || key.value === 'text') found[key.value] = value.value;
      i = value.end;
    } else {
      if (key.value === 'type' || key.value === 'text') found[key.value] = null;
      i = skipValue(json, i);
    }
    skipBlank();
    if (json[i] !== ',') break;
    i++;
  }
  return {
    ...(typeof found.type === 'string' ? { type: found.type } : {}),
    ...(typeof found.text === 'string' ? { text: found.text } : {}),
  };
}

/** `text` cut to `chars` characters (code points, a surrogate pair never split). */
function cut(text: string, chars: number): string {
  if (text.length <= chars) return text;
  return Array.from(text.slice(0, chars * 2))
    .slice(0, chars)
    .join('');
}

/**
 * The text of a user payload from the start of its stored JSON (a text message's text, cut to `chars`;
 * other kinds have none to list). A payload cut before its `type` counts as text when its `text` came first.
 */
function questionText(payloadStart: string, chars: number): string | undefined {
  let parsed: { type?: unknown; text?: unknown } | undefined;
  try {
    parsed = JSON.parse(payloadStart) as { type?: unknown; text?: unknown };
  } catch {
    parsed = leadingMembers(payloadStart);
  }
  if (parsed.type !== undefined && parsed.type !== 'text') return undefined;
  return typeof parsed.text === 'string' ? cut(parsed.text, chars) : undefined;
}

/** Characters of a stored payload read per question: room for `chars` characters, each escaped (`\\uXXXX`). */
const prefixFor = (chars: number) => 64 + chars * 6;

/**
 * A bot's activity over its last days, for insights: per UTC day its conversations started, messages by
 * visitors and by the bot, bot replies and the not-found ones, feedback; and the questions that got a
 * not-found reply. Counted by the database (repo-activity.ts); the window ends at the chat clock's now.
 */
export function chatActivity(ctx: Pick<ChatContext, 'db' | 'clock'>): Pick<ChatService, 'activity'> {
  const { db, clock } = ctx;
  return {
    async activity(botId, { days, notFoundText, questionChars, answerMode = '' }) {
      const now = clock();
      const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - days + 1));
      const from = start.toISOString();
      const pattern = notFoundPattern(notFoundText);
      const queries = activityQueries(db);
      const [messageDays, conversationDays, handoffDays, waits, questions] = await Promise.all([
        queries.activityDays(botId, from, pattern, answerMode),
        queries.conversationDays(botId, from),
        queries.handoffDays(botId, from),
        queries.humanWaits(botId, from),
        queries.unansweredQuestions(botId, from, pattern, MAX_UNANSWERED_READ, prefixFor(questionChars)),
      ]);
      const result: ChatActivity = {
        from,
        to: now.toISOString(),
        days: messageDays.map((r) => ({
          date: r.day,
          visitorMessages: count(r.visitor),
          botMessages: count(r.bot),
          humanMessages: count(r.human),
          replies: count(r.replies),
          notFound: count(r.not_found),
          withAnswerMode: count(r.with_mode),
          clarified: count(r.clarified),
          positive: count(r.positive),
          negative: count(r.negative),
        })),
        conversations: conversationDays.map((r) => ({
          date: r.day,
          started: count(r.started),
          byPeople: count(r.by_people),
        })),
        handoffs: handoffDays.map((r) => ({ date: r.day, requested: count(r.requested) })),
        waits: waits.flatMap((w) => {
          const seconds = (Date.parse(w.replied) - Date.parse(w.requested)) / 1000;
          // A person who replied before being asked (a take-over, then a later request) waited for no one.
          return seconds >= 0 ? [{ date: w.requested.slice(0, 10), seconds }] : [];
        }),
        unanswered: questions.flatMap((q) => {
          const text = questionText(q.payload, questionChars);
          return text === undefined ? [] : [{ text, at: q.at }];
        }),
      };
      return result;
    },
  };
}
