import type { WebchatConfiguration } from '@parley/client';
import type { MessageKey } from '../../i18n.js';

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

/** One field of the webchat configuration: how it is edited, its words (catalog keys), and its group. */
export interface FieldSpec {
  kind: FieldKind;
  label: MessageKey;
  hint?: MessageKey;
  group: GroupName;
  /** The longest value the Admin API takes (text fields; each item of a list). */
  max?: number;
  /**
   * The most items the Admin API takes (lists), and the words of one: its label ("Question {n}"), what its
   * Remove button says after "Remove" (" question {n}") and the Add button.
   */
  items?: { count: number; item: MessageKey; itemInRemove: MessageKey; add: MessageKey };
  /** The values of an enum field ('' keeps the default, named by `defaultLabel`). */
  options?: readonly string[];
  /** What each enum value is shown as, in the Console's words (the value itself when absent). */
  optionLabels?: Readonly<Record<string, MessageKey>>;
  /** What each enum value is shown as, the same in every language (the webchat's languages, in their own words). */
  optionNames?: Readonly<Record<string, string>>;
  /** What an unset enum or toggle means. */
  defaultLabel?: MessageKey;
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
  { name: 'appearance', title: 'designer.groupAppearance' },
  { name: 'texts', title: 'designer.groupTexts' },
  { name: 'welcome', title: 'designer.groupWelcome' },
  { name: 'behaviour', title: 'designer.groupBehaviour' },
  { name: 'links', title: 'designer.groupLinks' },
  { name: 'advanced', title: 'designer.groupAdvanced' },
] as const satisfies readonly { name: string; title: MessageKey }[];
export type GroupName = (typeof GROUPS)[number]['name'];

/**
 * Every field of WebchatConfiguration (the spec table's 24, then Parley's own five), in
 * the order the form shows them.
 */
export const FIELDS = {
  color: { kind: 'color', label: 'designer.color', group: 'appearance', hint: 'designer.colorHint' },
  themeMode: {
    kind: 'enum',
    label: 'designer.theme',
    group: 'appearance',
    options: ['light', 'dark'],
    optionLabels: { light: 'designer.light', dark: 'designer.dark' },
    defaultLabel: 'designer.themeDefault',
  },
  variant: {
    kind: 'enum',
    label: 'designer.variant',
    group: 'appearance',
    options: ['solid', 'soft'],
    optionLabels: { solid: 'designer.solid', soft: 'designer.soft' },
    defaultLabel: 'designer.variantDefault',
  },
  headerVariant: {
    kind: 'enum',
    label: 'designer.headerVariant',
    group: 'appearance',
    options: ['solid', 'glass'],
    optionLabels: { solid: 'designer.solid', glass: 'designer.glass' },
    defaultLabel: 'designer.headerDefault',
  },
  radius: { kind: 'number', label: 'designer.radius', group: 'appearance', hint: 'designer.radiusHint' },
  fontFamily: {
    kind: 'text',
    label: 'designer.font',
    group: 'appearance',
    max: 100,
    hint: 'designer.fontHint',
  },
  botAvatar: { kind: 'url', label: 'designer.avatar', group: 'appearance' },
  fabImage: { kind: 'url', label: 'designer.fabImage', group: 'appearance' },
  botName: { kind: 'text', label: 'designer.botName', group: 'texts', max: 200 },
  botDescription: { kind: 'long', label: 'designer.description', group: 'texts', max: 2000 },
  composerPlaceholder: { kind: 'text', label: 'designer.placeholder', group: 'texts', max: 200 },
  defaultLocale: {
    kind: 'enum',
    label: 'designer.locale',
    group: 'texts',
    options: Object.keys(LANGUAGES),
    optionNames: LANGUAGES,
    defaultLabel: 'designer.localeDefault',
    hint: 'designer.localeHint',
  },
  footer: { kind: 'long', label: 'designer.footer', group: 'texts', max: 2000, hint: 'designer.footerHint' },
  greeting: {
    kind: 'long',
    label: 'designer.greeting',
    group: 'welcome',
    max: 500,
    hint: 'designer.greetingHint',
  },
  suggestedQuestions: {
    kind: 'list',
    label: 'designer.suggested',
    group: 'welcome',
    max: 200,
    items: {
      count: 4,
      item: 'designer.question',
      itemInRemove: 'designer.questionLower',
      add: 'designer.addQuestion',
    },
    hint: 'designer.suggestedHint',
  },
  allowFileUpload: { kind: 'bool', label: 'designer.uploads', group: 'behaviour' },
  feedbackEnabled: { kind: 'bool', label: 'designer.feedback', group: 'behaviour' },
  handoffButton: {
    kind: 'bool',
    label: 'designer.handoff',
    group: 'behaviour',
    hint: 'designer.handoffHint',
  },
  handoffKeywords: {
    kind: 'list',
    label: 'designer.keywords',
    group: 'behaviour',
    max: 100,
    items: { count: 50, item: 'designer.word', itemInRemove: 'designer.wordLower', add: 'designer.addWord' },
    hint: 'designer.keywordsHint',
  },
  showPoweredBy: {
    kind: 'bool',
    label: 'designer.poweredBy',
    group: 'behaviour',
    hint: 'designer.poweredByHint',
  },
  storageLocation: {
    kind: 'enum',
    label: 'designer.storage',
    group: 'behaviour',
    options: ['localStorage', 'sessionStorage'],
    defaultLabel: 'designer.storageDefault',
  },
  phone: { kind: 'link', label: 'designer.phone', group: 'links' },
  email: { kind: 'link', label: 'designer.email', group: 'links' },
  website: { kind: 'link', label: 'designer.website', group: 'links' },
  termsOfService: { kind: 'link', label: 'designer.terms', group: 'links' },
  privacyPolicy: { kind: 'link', label: 'designer.privacy', group: 'links' },
  additionalStylesheet: {
    kind: 'long',
    label: 'designer.css',
    group: 'advanced',
    max: 100_000,
    hint: 'designer.cssHint',
  },
  additionalStylesheetUrl: { kind: 'url', label: 'designer.cssUrl', group: 'advanced' },
  adminKey: {
    kind: 'secret',
    label: 'designer.adminKey',
    group: 'advanced',
    max: 500,
    hint: 'designer.adminKeyHint',
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
