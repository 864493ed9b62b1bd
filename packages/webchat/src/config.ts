import { validateWebchatConfiguration, type WebchatConfiguration } from '@parley/protocol';
import { DEFAULTS } from './defaults.js';

/** An error the webchat reports through its `error` event; `field` names a bad configuration field. */
export class WebchatError extends Error {
  /** The first invalid field, when the error is about the configuration. */
  readonly field: string | undefined;
  /** Every invalid field and why. */
  readonly issues: { field: string; message: string }[];
  constructor(message: string, issues: { field: string; message: string }[] = []) {
    super(message);
    this.name = 'WebchatError';
    this.issues = issues;
    this.field = issues[0]?.field;
  }
}

/** The configuration with every default applied: what the UI renders from. */
export interface ResolvedConfiguration extends WebchatConfiguration {
  botName: string;
  color: string;
  themeMode: 'light' | 'dark';
  variant: 'solid' | 'soft';
  headerVariant: 'solid' | 'glass';
  radius: number;
  fontFamily: string;
  storageLocation: 'localStorage' | 'sessionStorage';
  allowFileUpload: boolean;
  feedbackEnabled: boolean;
}

/**
 * Validates a configuration given by the page (init or config). Answers the error to emit (naming
 * every bad field) or the deprecation warnings to print; an invalid configuration must change nothing.
 */
export function checkConfiguration(input: unknown): { error?: WebchatError; warnings: string[] } {
  const issues = validateWebchatConfiguration(input);
  if (issues.length > 0) {
    const text = issues.map((i) => `${i.field} ${i.message}`).join('; ');
    return { error: new WebchatError(`Invalid webchat configuration: ${text}`, issues), warnings: [] };
  }
  const warnings: string[] = [];
  if ((input as WebchatConfiguration).showPoweredBy !== undefined) {
    warnings.push(
      'The webchat configuration field showPoweredBy is deprecated and has no effect; use footer instead.',
    );
  }
  return { warnings };
}

/** Fields whose empty string removes what the earlier layers set, instead of keeping it. */
const EMPTY_REMOVES = new Set(['footer', 'greeting']);

/**
 * Merges configuration layers, later ones winning (dashboard → init → each config() call).
 * An omitted or blank field keeps the earlier value (spec: blank means the dashboard value), except
 * `footer` and `greeting`, whose empty string removes them; a list (`suggestedQuestions`) replaces the
 * earlier one whole, so `[]` removes the suggestions.
 * @example mergeConfiguration({ color: '#111111' }, { color: '' }).color // '#111111'
 */
export function mergeConfiguration(...layers: (WebchatConfiguration | undefined)[]): WebchatConfiguration {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [field, value] of Object.entries(layer)) {
      if (value === undefined || value === null) continue;
      if (typeof value === 'string' && value.trim() === '') {
        if (EMPTY_REMOVES.has(field)) out[field] = '';
        continue;
      }
      out[field] = value;
    }
  }
  return out as WebchatConfiguration;
}

/** Fills the defaults in; the bot's own name stands in for a missing botName. */
export function resolveConfiguration(merged: WebchatConfiguration, botName = 'Chat'): ResolvedConfiguration {
  return {
    ...DEFAULTS,
    ...merged,
    botName: merged.botName || botName,
  } as ResolvedConfiguration;
}

/** The configuration without secrets, as the page may read it back. */
export function withoutSecrets(config: WebchatConfiguration): WebchatConfiguration {
  const { adminKey: _adminKey, ...rest } = config;
  return rest;
}

/** CSS font stack for a fontFamily value (built-in names map to a stack; other names are web fonts, kept as given). */
export function fontStack(fontFamily: string): string {
  const builtIn: Record<string, string> = {
    inter: 'Inter',
    rubik: 'Rubik',
    'ibm plex sans': 'IBM Plex Sans',
    'fira code': 'Fira Code',
  };
  const name = builtIn[fontFamily] ?? fontFamily;
  const quoted = `"${name.replace(/["\\]/g, '')}"`;
  const fallback =
    fontFamily === 'fira code' ? 'ui-monospace, monospace' : 'system-ui, -apple-system, sans-serif';
  return `${quoted}, ${fallback}`;
}
