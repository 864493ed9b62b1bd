import type { WebchatConfiguration } from '@parley/protocol';
import {
  checkConfiguration,
  mergeConfiguration,
  type ResolvedConfiguration,
  resolveConfiguration,
  type WebchatError,
} from './config.js';
import { resolveStrings, type Strings, shippedLocale } from './i18n.js';

/**
 * What the page has set over the dashboard: the configuration layers (dashboard → init → each `config()`
 * call, later ones winning) and the UI language with its text overrides.
 */
export class Settings {
  private readonly layers: WebchatConfiguration[];
  private readonly stringLayers: Partial<Strings>[] = [];
  private language = 'en';

  constructor(
    dashboard: WebchatConfiguration,
    private readonly botName: string,
  ) {
    this.layers = [dashboard];
  }

  /** The language tag of the UI texts. */
  get locale(): string {
    return this.language;
  }

  /**
   * Adds a configuration layer given by the page. An invalid one is left out and its error answered;
   * a valid one's deprecation warnings go to the console.
   */
  addConfiguration(configuration: unknown): WebchatError | undefined {
    const { error, warnings } = checkConfiguration(configuration);
    if (error) return error;
    for (const warning of warnings) console.warn(`[parley] ${warning}`);
    this.layers.push(configuration as WebchatConfiguration);
    return undefined;
  }

  /** Sets the language (an unshipped one falls back to `en`) and adds text overrides; both already checked. */
  setLocale(locale: string | undefined, strings: Partial<Strings> | undefined): void {
    if (locale !== undefined) this.language = shippedLocale(locale) ?? 'en';
    if (strings !== undefined) this.stringLayers.push(strings);
  }

  /** The configuration the UI renders from: every layer merged, the defaults filled in. */
  configuration(): ResolvedConfiguration {
    return resolveConfiguration(mergeConfiguration(...this.layers), this.botName);
  }

  /** The UI texts: the language's, with every override. */
  strings(): Strings {
    return resolveStrings(this.language, ...this.stringLayers);
  }
}
