import Type, { type Static } from 'typebox';
import { FORBIDDEN_KEY_MESSAGE, isForbiddenKey } from './keys.js';

const LinkObject = Type.Object({ title: Type.String(), link: Type.String() });
/** A blank enum value: valid (the dashboard value applies), so the schema must let it through on the way out. */
const Blank = Type.Literal('');

/**
 * Webchat configuration: every field of the spec's table, then Parley's own first impression (`greeting`,
 * `suggestedQuestions`), all optional.
 */
export const WebchatConfiguration = Type.Object(
  {
    botName: Type.Optional(Type.String({ maxLength: 200, description: 'Name shown in the header' })),
    botAvatar: Type.Optional(Type.String({ description: 'URL of the avatar image' })),
    botDescription: Type.Optional(Type.String({ maxLength: 2000 })),
    composerPlaceholder: Type.Optional(Type.String({ maxLength: 200 })),
    color: Type.Optional(Type.String({ description: 'Primary colour as a HEX code, e.g. #3276EA' })),
    themeMode: Type.Optional(Type.Union([Type.Literal('light'), Type.Literal('dark'), Blank])),
    variant: Type.Optional(Type.Union([Type.Literal('solid'), Type.Literal('soft'), Blank])),
    allowFileUpload: Type.Optional(Type.Boolean()),
    showPoweredBy: Type.Optional(
      Type.Boolean({ deprecated: true, description: 'Deprecated, no effect; use footer' }),
    ),
    feedbackEnabled: Type.Optional(Type.Boolean()),
    fabImage: Type.Optional(Type.String({ description: 'URL of the floating action button image' })),
    radius: Type.Optional(Type.Number({ minimum: 0.5, maximum: 4 })),
    fontFamily: Type.Optional(Type.String({ maxLength: 100 })),
    additionalStylesheet: Type.Optional(Type.String({ maxLength: 100_000 })),
    additionalStylesheetUrl: Type.Optional(Type.String()),
    storageLocation: Type.Optional(
      Type.Union([Type.Literal('localStorage'), Type.Literal('sessionStorage'), Blank]),
    ),
    footer: Type.Optional(
      Type.String({ maxLength: 2000, description: 'Markdown; empty string removes the footer' }),
    ),
    headerVariant: Type.Optional(Type.Union([Type.Literal('solid'), Type.Literal('glass'), Blank])),
    adminKey: Type.Optional(Type.String({ maxLength: 500 })),
    phone: Type.Optional(LinkObject),
    email: Type.Optional(LinkObject),
    website: Type.Optional(LinkObject),
    termsOfService: Type.Optional(LinkObject),
    privacyPolicy: Type.Optional(LinkObject),
    greeting: Type.Optional(
      Type.String({
        maxLength: 500,
        description:
          "Parley: Markdown shown as the bot's first words in an empty chat (not stored as a message); empty string: none",
      }),
    ),
    suggestedQuestions: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        maxItems: 4,
        description:
          "Parley: up to 4 questions shown as buttons in an empty chat; a click sends one as the visitor's message",
      }),
    ),
    handoffButton: Type.Optional(
      Type.Boolean({
        description:
          'Parley: a "Talk to a person" button in the chat that asks for a person (human handoff); on for new bots',
      }),
    ),
    handoffKeywords: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 50,
        description:
          'Parley: words or phrases a visitor asks for a person with (whole words, any case); absent: human, agent, real person, talk to a person, speak to a person, operator; empty list: none',
      }),
    ),
    defaultLocale: Type.Optional(
      Type.String({
        maxLength: 35,
        description:
          "Parley: the bot's language for the webchat's texts (a BCP-47 tag of a shipped language, e.g. fr or fr-CA) when the page sets no locale; absent or empty: the visitor's browser language",
      }),
    ),
  },
  { $id: 'WebchatConfiguration' },
);
/** Webchat configuration type. */
export type WebchatConfiguration = Static<typeof WebchatConfiguration>;

/** One invalid field of a configuration: its name and why. */
export interface FieldIssue {
  field: string;
  message: string;
}

// A Map: a field named `constructor` or `toString` must find nothing here, not Object.prototype's member.
const ENUMS = new Map<string, readonly string[]>([
  ['themeMode', ['light', 'dark']],
  ['variant', ['solid', 'soft']],
  ['storageLocation', ['localStorage', 'sessionStorage']],
  ['headerVariant', ['solid', 'glass']],
]);
const STRINGS = [
  'botName',
  'botDescription',
  'composerPlaceholder',
  'fontFamily',
  'additionalStylesheet',
  'footer',
  'adminKey',
  'greeting',
];
const URLS = ['botAvatar', 'fabImage', 'additionalStylesheetUrl'];
const BOOLEANS = ['allowFileUpload', 'showPoweredBy', 'feedbackEnabled', 'handoffButton'];
const LINKS = ['phone', 'email', 'website', 'termsOfService', 'privacyPolicy'];
const MAX_LENGTH: Record<string, number> = {
  botName: 200,
  botDescription: 2000,
  composerPlaceholder: 200,
  fontFamily: 100,
  additionalStylesheet: 100_000,
  footer: 2000,
  adminKey: 500,
  greeting: 500,
};
/** The languages the webchat's texts ship in (one catalog each; `en` is the fallback of every other). */
export const WEBCHAT_LOCALES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'ja', 'zh', 'ar', 'he'] as const;
/** The languages written right to left. */
export const RTL_LOCALES: readonly string[] = ['ar', 'he'];
/** A BCP-47 language tag: a language subtag, then region, script or variant subtags. */
const LANGUAGE_TAG = /^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{1,8})*$/;

/**
 * The shipped webchat language of a BCP-47 tag, by the fallback chain `fr-CA → fr` (undefined when its
 * language is not shipped; the webchat then falls back to `en`).
 * @example webchatLocaleOf('pt-BR') // 'pt'
 */
export function webchatLocaleOf(tag: string): string | undefined {
  if (!LANGUAGE_TAG.test(tag)) return undefined;
  const language = (tag.split('-')[0] ?? '').toLowerCase();
  return (WEBCHAT_LOCALES as readonly string[]).includes(language) ? language : undefined;
}

/** At most this many handoff keywords, each at most this many characters. */
export const HANDOFF_KEYWORDS_LIMITS = { count: 50, length: 100 } as const;
/** At most this many suggested questions, each at most this many characters. */
export const SUGGESTED_QUESTIONS_LIMITS = { count: 4, length: 200 } as const;
/** Names of every configuration field: the spec's, in its order, then Parley's own. */
export const WEBCHAT_CONFIGURATION_FIELDS = Object.keys(WebchatConfiguration.properties);
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function linkIssue(field: string, value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'must be an object {title: string, link: string}';
  }
  const { title, link, ...rest } = value as Record<string, unknown>;
  if (typeof title !== 'string') return 'title must be a string';
  if (typeof link !== 'string' || link.trim() === '') return 'link must be a non-empty string';
  const extra = Object.keys(rest);
  if (extra.length > 0) return `unknown key ${extra.join(', ')} (only title and link)`;
  if (field === 'phone') {
    if (!/^(tel:)?\+?[0-9 ().-]{3,}$/.test(link) && !isHttpUrl(link))
      return 'link must be a phone number, a tel: link or a URL';
  } else if (field === 'email') {
    if (!/^(mailto:)?[^\s@]+@[^\s@]+$/.test(link)) return 'link must be an e-mail address or a mailto: link';
  } else if (!isHttpUrl(link)) {
    return 'link must be an http(s) URL';
  }
  return undefined;
}

/** Why a list of handoff keywords is refused: the first problem, naming the keyword (counted from 1). */
function keywordsIssue(value: unknown): string | undefined {
  const { count, length } = HANDOFF_KEYWORDS_LIMITS;
  if (!Array.isArray(value)) return 'must be a list of words or phrases (strings)';
  if (value.length > count) return `must have at most ${count} keywords (has ${value.length})`;
  for (const [index, keyword] of value.entries()) {
    if (typeof keyword !== 'string' || keyword.trim() === '')
      return `keyword ${index + 1} must be a non-blank string`;
    if (keyword.length > length) return `keyword ${index + 1} must be at most ${length} characters`;
  }
  return undefined;
}

/** Why a list of suggested questions is refused: the first problem, naming the question (counted from 1). */
function suggestionsIssue(value: unknown): string | undefined {
  const { count, length } = SUGGESTED_QUESTIONS_LIMITS;
  if (!Array.isArray(value)) return 'must be a list of questions (strings)';
  if (value.length > count) return `must have at most ${count} questions (has ${value.length})`;
  const seen = new Map<string, number>();
  for (const [index, question] of value.entries()) {
    const n = index + 1;
    if (typeof question !== 'string') return `question ${n} must be a string`;
    if (question.trim() === '') return `question ${n} must not be blank`;
    if (question.length > length) return `question ${n} must be at most ${length} characters`;
    const key = question.trim().toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) return `question ${n} repeats question ${first}`;
    seen.set(key, n);
  }
  return undefined;
}

/**
 * Checks a webchat configuration against the spec's table and answers every invalid field.
 * Blank strings are valid: they mean "use the dashboard configuration".
 * @example validateWebchatConfiguration({ radius: 9 }) // [{ field: 'radius', message: 'must be between 0.5 and 4' }]
 */
export function validateWebchatConfiguration(input: unknown): FieldIssue[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return [{ field: 'configuration', message: 'must be an object' }];
  }
  const issues: FieldIssue[] = [];
  for (const [field, value] of Object.entries(input as Record<string, unknown>)) {
    const issue = fieldIssue(field, value);
    if (issue) issues.push({ field, message: issue });
  }
  return issues;
}

function fieldIssue(field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (isForbiddenKey(field)) return FORBIDDEN_KEY_MESSAGE;
  const allowed = ENUMS.get(field);
  if (allowed) {
    if (value === '') return undefined;
    return typeof value === 'string' && allowed.includes(value)
      ? undefined
      : `must be one of ${allowed.join(', ')}`;
  }
  if (STRINGS.includes(field)) {
    if (typeof value !== 'string') return 'must be a string';
    const max = Object.hasOwn(MAX_LENGTH, field) ? MAX_LENGTH[field] : undefined;
    return max !== undefined && value.length > max ? `must be at most ${max} characters` : undefined;
  }
  if (URLS.includes(field)) {
    if (typeof value !== 'string') return 'must be a string';
    return value === '' || isHttpUrl(value) ? undefined : 'must be an http(s) URL';
  }
  if (BOOLEANS.includes(field)) return typeof value === 'boolean' ? undefined : 'must be a boolean';
  if (LINKS.includes(field)) return linkIssue(field, value);
  if (field === 'suggestedQuestions') return suggestionsIssue(value);
  if (field === 'handoffKeywords') return keywordsIssue(value);
  if (field === 'defaultLocale') {
    if (typeof value !== 'string') return 'must be a string';
    return value === '' || (value.length <= 35 && webchatLocaleOf(value))
      ? undefined
      : `must be a language tag of a shipped language (${WEBCHAT_LOCALES.join(', ')}), e.g. fr or fr-CA`;
  }
  if (field === 'color') {
    if (typeof value !== 'string') return 'must be a string';
    return value === '' || HEX.test(value) ? undefined : 'must be a HEX colour such as #3276EA';
  }
  if (field === 'radius') {
    return typeof value === 'number' && Number.isFinite(value) && value >= 0.5 && value <= 4
      ? undefined
      : 'must be a number between 0.5 and 4';
  }
  return 'is not a webchat configuration field';
}
