import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { WEBCHAT_LOCALES, type WebchatConfiguration } from '@parley/protocol';
import { builtPackageDir, readBuiltFile } from '../../http/built-files.js';

/** What serving the webchat needs of a bot (the bots service's chatFacts). */
export interface WebchatBotLookup {
  chatFacts(id: string): Promise<{ name: string; webchat: WebchatConfiguration } | undefined>;
}

/** The files of the webchat bundle the server hands out, with their content types and cache lifetimes. */
export const WEBCHAT_ASSETS: Record<string, { type: string; maxAge: number }> = {
  // The loader's URL is what sites embed: keep it short-lived so updates reach them quickly.
  'inject.js': { type: 'application/javascript; charset=utf-8', maxAge: 300 },
  'webchat.js': { type: 'application/javascript; charset=utf-8', maxAge: 3600 },
  'inject.js.map': { type: 'application/json; charset=utf-8', maxAge: 300 },
  'webchat.js.map': { type: 'application/json; charset=utf-8', maxAge: 3600 },
  // The UI texts of each language but English (which webchat.js holds), fetched by the visitors who need them.
  ...Object.fromEntries(
    WEBCHAT_LOCALES.filter((tag) => tag !== 'en').map((tag) => [
      `locale-${tag}.json`,
      { type: 'application/json; charset=utf-8', maxAge: 3600 },
    ]),
  ),
};

/** The folder of the built webchat (packages/webchat/dist). */
export function webchatDistDir(): string {
  return builtPackageDir('webchat');
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** What any browser may read of a bot's webchat. */
export interface PublicWebchatConfig {
  bot: { id: string; name: string };
  /** The dashboard configuration without its adminKey. */
  configuration: Omit<WebchatConfiguration, 'adminKey'>;
}

/** The hosted chat page of a bot and the Content-Security-Policy it must be served with. */
export interface HostedPage {
  html: string;
  csp: string;
}

/** Serving the embeddable webchat: its bundle files, the public configuration of a bot, the hosted page. */
export interface WebchatService {
  /** A bundle file and its ETag, or undefined when the webchat is not built or the name is not one of its files. */
  asset(name: string): Promise<{ body: Buffer; etag: string } | undefined>;
  /** What any browser may read of a bot's webchat: its name and dashboard configuration without the adminKey. */
  publicConfig(botId: string): Promise<PublicWebchatConfig | undefined>;
  /** The hosted full-page chat of a bot, with the nonce its Content-Security-Policy allows. */
  hostedPage(
    botId: string,
    options: { scriptUrl: string; connectOrigins: string[] },
  ): Promise<HostedPage | undefined>;
}

/**
 * The webchat serving service, reading the bundle from `distDir` (default: the built webchat package).
 * @example const webchat = webchatService({ bots });
 */
export function webchatService(deps: { bots: WebchatBotLookup; distDir?: string }): WebchatService {
  const dist = deps.distDir ?? webchatDistDir();
  return {
    async asset(name) {
      if (!Object.hasOwn(WEBCHAT_ASSETS, name)) return undefined;
      return readBuiltFile(join(dist, name));
    },

    async publicConfig(botId) {
      const bot = await deps.bots.chatFacts(botId);
      if (!bot) return undefined;
      const { adminKey: _secret, ...configuration } = bot.webchat;
      return { bot: { id: botId, name: bot.name }, configuration };
    },

    async hostedPage(botId, options) {
      const bot = await deps.bots.chatFacts(botId);
      if (!bot) return undefined;
      const nonce = randomBytes(16).toString('base64');
      const title = escapeHtml(bot.webchat.botName?.trim() || bot.name);
      const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style nonce="${nonce}">html,body{margin:0;height:100%;background:#fff}</style>
</head>
<body>
<noscript>${title}: this chat needs JavaScript.</noscript>
<script src="${escapeHtml(options.scriptUrl)}" data-bot-id="${escapeHtml(botId)}" data-layout="fullscreen" nonce="${nonce}"></script>
</body>
</html>
`;
      const connect = ["'self'", ...options.connectOrigins].join(' ');
      const csp = [
        "default-src 'none'",
        `script-src 'nonce-${nonce}'`,
        `style-src 'self' 'nonce-${nonce}' https:`,
        'img-src * data: blob:',
        'media-src * data: blob:',
        'font-src * data:',
        `connect-src ${connect}`,
        "base-uri 'none'",
        "form-action 'none'",
      ].join('; ');
      return { html, csp };
    },
  };
}
