import type { WebchatConfiguration } from '@parley/protocol';
import {
  checkConfiguration,
  mergeConfiguration,
  type ResolvedConfiguration,
  resolveConfiguration,
  type WebchatError,
} from './config.js';
import { catalogOf, pickLocaleTag, resolveStrings, type Strings, shippedLocale } from './i18n.js';

/**
 * What the page has set over the dashboard: the configuration layers (dashboard → init → each `config()`
 * call, later ones winning) and the UI language with its text overrides. The language is the page's
 * `locale`, else the configuration's `defaultLocale` (the bot's), else the browser's first shipped one.
 */
export class Settings {
  private readonly layers: WebchatConfiguration[];
  private readonly stringLayers: Partial<Strings>[] = [];
  private pageLocale: string | undefined;

  constructor(
    dashboard: WebchatConfiguration,
    private readonly botName: string,
    private readonly browserLanguages: readonly string[] = [],
  ) {
    this.layers = [dashboard];
  }

  /** The shipped locale of the UI texts. */
  get locale(): string {
    return shippedLocale(this.localeTag) ?? 'en';
  }

  /** The tag the UI language was chosen by, with its region (`fr-CA`): the language hint of each message. */
  get localeTag(): string {
    return pickLocaleTag([this.pageLocale, this.configuration().defaultLocale, ...this.browserLanguages]);
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

  /** Sets the page's language and adds text overrides; both already checked. */
  setLocale(locale: string | undefined, strings: Partial<Strings> | undefined): void {
    if (locale !== undefined) this.pageLocale = locale;
    if (strings !== undefined) this.stringLayers.push(strings);
  }

  /** The configuration the UI renders from: every layer merged, the defaults filled in. */
  configuration(): ResolvedConfiguration {
    return resolveConfiguration(mergeConfiguration(...this.layers), this.botName);
  }

  /** The UI texts: the language's (English until its catalog has loaded), with every override. */
  strings(): Strings {
    return resolveStrings(catalogOf(this.locale), ...this.stringLayers);
  }
}
