import type { WebchatConfiguration } from '@parley/client';

/** How a configuration field is edited. */
export type FieldKind =
  | 'text'
  | 'long'
  | 'url'
  | 'color'
  | 'enum'
  | 'bool'
  | 'number'
  | 'link'
  | 'secret'
  | 'list';

/** A `{title, link}` field as the form holds it. */
export interface LinkValue {
  title: string;
  link: string;
}

/** One field of the webchat configuration: how it is edited, its words, and its group. */
export interface FieldSpec {
  kind: FieldKind;
  label: string;
  hint?: string;
  group: GroupName;
  /** The longest value the Admin API takes (text fields; each item of a list). */
  max?: number;
  /** The most items the Admin API takes (lists), and what one is called (`Question` → "Question 2"). */
  items?: { count: number; noun: string };
  /** The values of an enum field ('' keeps the default, named by `defaultLabel`). */
  options?: readonly string[];
  /** What each enum value is shown as (the value itself when absent). */
  optionLabels?: Readonly<Record<string, string>>;
  /** What an unset enum or toggle means. */
  defaultLabel?: string;
}

/** The webchat's languages (protocol WEBCHAT_LOCALES), each in its own words. */
export const LANGUAGES: Readonly<Record<string, string>> = {
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
  it: 'Italiano',
  pt: 'Português',
  nl: 'Nederlands',
  ja: '日本語',
  zh: '中文',
  ar: 'العربية',
  he: 'עברית',
};

/** The groups of the form, in order. */
export const GROUPS = [
  { name: 'appearance', title: 'Appearance' },
  { name: 'texts', title: 'Texts' },
  { name: 'welcome', title: 'Greeting and suggested questions' },
  { name: 'behaviour', title: 'Behaviour' },
  { name: 'links', title: 'Links in the header' },
  { name: 'advanced', title: 'Advanced' },
] as const;
export type GroupName = (typeof GROUPS)[number]['name'];

/**
 * Every field of WebchatConfiguration (the spec table's 24, then Parley's own five), in
 * the order the form shows them.
 */
export const FIELDS = {
  color: { kind: 'color', label: 'Main colour', group: 'appearance', hint: 'A HEX code such as #3276EA.' },
  themeMode: {
    kind: 'enum',
    label: 'Theme',
    group: 'appearance',
    options: ['light', 'dark'],
    defaultLabel: 'Default (light)',
  },
  variant: {
    kind: 'enum',
    label: 'Style',
    group: 'appearance',
    options: ['solid', 'soft'],
    defaultLabel: 'Default (solid)',
  },
  headerVariant: {
    kind: 'enum',
    label: 'Header style',
    group: 'appearance',
    options: ['solid', 'glass'],
    defaultLabel: 'Default (glass)',
  },
  radius: {
    kind: 'number',
    label: 'Corner radius',
    group: 'appearance',
    hint: 'In rem, from 0.5 to 4 (default 1).',
  },
  fontFamily: {
    kind: 'text',
    label: 'Font',
    group: 'appearance',
    max: 100,
    hint: 'inter, rubik, ibm plex sans, fira code or any font the page loads.',
  },
  botAvatar: { kind: 'url', label: 'Avatar image URL', group: 'appearance' },
  fabImage: { kind: 'url', label: 'Launcher button image URL', group: 'appearance' },
  botName: { kind: 'text', label: 'Name in the header', group: 'texts', max: 200 },
  botDescription: { kind: 'long', label: 'Description', group: 'texts', max: 2000 },
  composerPlaceholder: {
    kind: 'text',
    label: 'Message box placeholder',
    group: 'texts',
    max: 200,
  },
  defaultLocale: {
    kind: 'enum',
    label: 'Language of the chat',
    group: 'texts',
    options: Object.keys(LANGUAGES),
    optionLabels: LANGUAGES,
    defaultLabel: "Default (the visitor's browser language)",
    hint: 'The words of the chat window (buttons, placeholder); a page may choose another with locale.',
  },
  footer: {
    kind: 'long',
    label: 'Footer',
    group: 'texts',
    max: 2000,
    hint: 'Markdown. Empty: "Powered by Parley". Tick "No footer" to remove it.',
  },
  greeting: {
    kind: 'long',
    label: 'Greeting',
    group: 'welcome',
    max: 500,
    hint: "Markdown. The bot's first words in an empty chat, shown to each visitor (not stored as a message).",
  },
  suggestedQuestions: {
    kind: 'list',
    label: 'Suggested questions',
    group: 'welcome',
    max: 200,
    items: { count: 4, noun: 'Question' },
    hint: "Up to 4, shown as buttons in an empty chat; a click sends the question as the visitor's message.",
  },
  allowFileUpload: { kind: 'bool', label: 'Visitors may send files', group: 'behaviour' },
  feedbackEnabled: { kind: 'bool', label: 'Thumbs up and down under replies', group: 'behaviour' },
  handoffButton: {
    kind: 'bool',
    label: 'A "Talk to a person" button',
    group: 'behaviour',
    hint: 'The visitor asks for a person of your team; the bot is silent until the conversation is handed back.',
  },
  handoffKeywords: {
    kind: 'list',
    label: 'Words that ask for a person',
    group: 'behaviour',
    max: 100,
    items: { count: 50, noun: 'Word' },
    hint: 'Whole words, any case. Empty: human, agent, real person, talk to a person, speak to a person, operator.',
  },
  showPoweredBy: {
    kind: 'bool',
    label: 'Show "Powered by" (deprecated)',
    group: 'behaviour',
    hint: 'No effect any more: use the footer.',
  },
  storageLocation: {
    kind: 'enum',
    label: 'Where the conversation is kept',
    group: 'behaviour',
    options: ['localStorage', 'sessionStorage'],
    defaultLabel: 'Default (localStorage: resumed on the next visit)',
  },
  phone: { kind: 'link', label: 'Phone', group: 'links' },
  email: { kind: 'link', label: 'E-mail', group: 'links' },
  website: { kind: 'link', label: 'Website', group: 'links' },
  termsOfService: { kind: 'link', label: 'Terms of service', group: 'links' },
  privacyPolicy: { kind: 'link', label: 'Privacy policy', group: 'links' },
  additionalStylesheet: {
    kind: 'long',
    label: 'Additional CSS',
    group: 'advanced',
    max: 100_000,
    hint: 'Added inside the chat window.',
  },
  additionalStylesheetUrl: { kind: 'url', label: 'Additional stylesheet URL', group: 'advanced' },
  adminKey: {
    kind: 'secret',
    label: 'Admin key',
    group: 'advanced',
    max: 500,
    hint: 'A secret that opens every conversation of this bot: a webchat given it reads all of them, with the retrieval details. Give it only to pages your own staff use; changing it ends the chats opened with the old one. Only developers and above see it.',
  },
} as const satisfies Record<keyof WebchatConfiguration, FieldSpec>;

export type FieldName = keyof typeof FIELDS;
export const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];

type ValueOf<K extends FieldKind> = K extends 'bool'
  ? boolean | undefined
  : K extends 'link'
    ? LinkValue
    : K extends 'list'
      ? string[]
      : string;

/** The form's values: one per configuration field, plus whether the footer is removed. */
export type DesignerValues = { [F in FieldName]: ValueOf<(typeof FIELDS)[F]['kind']> } & {
  noFooter: boolean;
};

/** The form's values for a saved configuration (blank for what is not set). */
export function toValues(config: WebchatConfiguration): DesignerValues {
  const values: Record<string, unknown> = { noFooter: config.footer === '' };
  for (const name of FIELD_NAMES) {
    const kind: FieldKind = FIELDS[name].kind;
    const value = config[name];
    if (kind === 'bool') values[name] = typeof value === 'boolean' ? value : undefined;
    else if (kind === 'link') {
      const link = value as LinkValue | undefined;
      values[name] = { title: link?.title ?? '', link: link?.link ?? '' };
    } else if (kind === 'list') values[name] = Array.isArray(value) ? value.map(String) : [];
    else values[name] = value === undefined ? '' : String(value);
  }
  return values as DesignerValues;
}

/**
 * The configuration the form stands for: blank fields (and blank items of a list) left out (the default applies),
 * the footer `""` when removed. Values are sent as typed (a radius that is no number stays text, a repeated
 * question stays), so the Admin API names what is wrong.
 */
export function toConfiguration(values: DesignerValues): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const name of FIELD_NAMES) {
    const kind: FieldKind = FIELDS[name].kind;
    const value = values[name];
    if (kind === 'bool') {
      if (typeof value === 'boolean') config[name] = value;
    } else if (kind === 'link') {
      const link = value as LinkValue;
      if (link.title.trim() || link.link.trim()) config[name] = { title: link.title, link: link.link.trim() };
    } else if (kind === 'list') {
      const items = (value as string[]).map((item) => item.trim()).filter((item) => item !== '');
      if (items.length > 0) config[name] = items;
    } else if (kind === 'number') {
      const text = (value as string).trim();
      if (text) config[name] = Number.isFinite(Number(text)) ? Number(text) : text;
    } else if (typeof value === 'string' && value.trim() !== '') {
      config[name] = kind === 'long' || kind === 'text' ? value : value.trim();
    }
  }
  if (values.noFooter) config.footer = '';
  return config;
}

/** Fields the preview does not take: the admin key must match the saved one, the storage would move the session. */
export const NOT_PREVIEWED: ReadonlySet<string> = new Set(['adminKey', 'storageLocation', 'showPoweredBy']);
