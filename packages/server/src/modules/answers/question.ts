import type { ChatMessage, MessagePayload } from '@parley/protocol';

/** What a user's message asks: a question to look up, or a payload the bot cannot read. */
export type Question = { kind: 'text'; text: string } | { kind: 'unsupported'; type: MessagePayload['type'] };

/**
 * The question a message asks. Text answers its `text`, or its `value` when it is a choice or button postback
 * (the value the bot offered, not the label the user saw); markdown its `markdown`; a choice or dropdown its
 * `text`; a bloc its text and markdown items joined. Images, audio, video, files, locations, cards and
 * carousels are unsupported. The text is trimmed (empty when the message is only white space).
 * @example questionOf({ type: 'text', text: 'Refund policy', value: 'refund policy' }) // { kind: 'text', text: 'refund policy' }
 */
export function questionOf(payload: MessagePayload): Question {
  const text = textOf(payload);
  if (text === undefined) return { kind: 'unsupported', type: payload.type };
  return { kind: 'text', text };
}

function textOf(payload: MessagePayload): string | undefined {
  switch (payload.type) {
    case 'text': {
      const value = payload.value?.trim();
      return value || payload.text.trim();
    }
    case 'markdown':
      return payload.markdown.trim();
    case 'choice':
    case 'dropdown':
      return payload.text.trim();
    case 'bloc': {
      const parts = payload.items.map((item) =>
        item.type === 'text' ? item.text.trim() : item.type === 'markdown' ? item.markdown.trim() : '',
      );
      const joined = parts.filter(Boolean).join('\n');
      return joined || undefined;
    }
    case 'image':
    case 'audio':
    case 'video':
    case 'file':
    case 'location':
    case 'card':
    case 'carousel':
      return undefined;
    default: {
      const never: never = payload;
      throw new Error(`unknown payload type ${JSON.stringify(never)}`);
    }
  }
}

/** The readable text of a message for a chat model's context (undefined for non-text payloads). */
export function messageText(message: ChatMessage): string | undefined {
  const q = questionOf(message.payload);
  return q.kind === 'text' && q.text ? q.text : undefined;
}

/**
 * Cuts a string to at most `maxBytes` UTF-8 bytes without splitting a character (search takes at most 1 KB).
 * @example truncateBytes('héllo', 2) // 'h'
 */
export function truncateBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let bytes = 0;
  let out = '';
  for (const ch of text) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > maxBytes) break;
    bytes += n;
    out += ch;
  }
  return out;
}

/** Kinds of small talk the bot answers itself instead of searching. */
export type SmallTalk = 'greeting' | 'thanks' | 'goodbye';

const SMALL_TALK: Record<SmallTalk, readonly string[]> = {
  greeting: [
    'hi',
    'hello',
    'hey',
    'hiya',
    'yo',
    'good morning',
    'good afternoon',
    'good evening',
    'greetings',
    'hi there',
    'hello there',
    'hey there',
    'bonjour',
    'salut',
    'bonsoir',
    'coucou',
    'hallo',
    'hola',
  ],
  thanks: [
    'thanks',
    'thank you',
    'thx',
    'ty',
    'thanks a lot',
    'thank you very much',
    'many thanks',
    'cheers',
    'merci',
    'merci beaucoup',
    'great thanks',
    'ok thanks',
    'ok thank you',
    'perfect thanks',
  ],
  goodbye: ['bye', 'goodbye', 'good bye', 'see you', 'see you later', 'bye bye', 'au revoir', 'ciao'],
};

/**
 * Whether a whole message is small talk (a greeting, thanks, a goodbye), which the bot answers without
 * searching: "hello" matching no passage must not get "I couldn't find anything". Case, accents,
 * punctuation, emoji and a trailing "bot" are ignored; anything more ("hello, what is the
 * refund policy?") is a question.
 * @example smallTalkOf('Hello!') // 'greeting'
 * @example smallTalkOf('hello, how do refunds work?') // undefined
 */
export function smallTalkOf(text: string): SmallTalk | undefined {
  const form = smallTalkForm(text);
  for (const [kind, phrases] of Object.entries(SMALL_TALK) as Array<[SmallTalk, readonly string[]]>) {
    if (phrases.includes(form)) return kind;
  }
  return undefined;
}

/** The small-talk phrases that are not English, by their language (`hallo` is Dutch as well as German). */
const SMALL_TALK_LANGUAGES: Record<string, string> = {
  bonjour: 'fr',
  salut: 'fr',
  bonsoir: 'fr',
  coucou: 'fr',
  merci: 'fr',
  'merci beaucoup': 'fr',
  'au revoir': 'fr',
  hallo: 'de',
  hola: 'es',
  ciao: 'it',
};

/**
 * The language of a small-talk message when its phrase tells it (too short for the detector: "bonjour" alone);
 * undefined for English phrases and anything else.
 * @example smallTalkLanguage('Bonjour !') // 'fr'
 */
export function smallTalkLanguage(text: string): string | undefined {
  return SMALL_TALK_LANGUAGES[smallTalkForm(text)];
}

/** A message as small talk is compared: lower case, without accents, punctuation, emoji or a trailing "bot". */
function smallTalkForm(text: string): string {
  const normalized = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return normalized.endsWith(' bot') ? normalized.slice(0, -' bot'.length) : normalized;
}
