import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WebchatConfiguration } from '@parley/protocol';

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
};

/** The folder of the built webchat (packages/webchat/dist), found through the package or beside this one. */
export function webchatDistDir(): string {
  try {
    const require = createRequire(import.meta.url);
    return join(dirname(require.resolve('@parley/webchat/package.json')), 'dist');
  } catch {
    // src/modules/webchat and dist/modules/webchat both sit four levels below packages/.
    return fileURLToPath(new URL('../../../../webchat/dist', import.meta.url));
  }
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

/** Serving the embeddable webchat: its bundle files, the public configuration of a bot, the hosted page. */
export function webchatService(deps: { bots: WebchatBotLookup; distDir?: string }) {
  const dist = deps.distDir ?? webchatDistDir();
  return {
    /** A bundle file and its ETag, or undefined when the webchat is not built. */
    async asset(name: string): Promise<{ body: Buffer; etag: string } | undefined> {
      if (!Object.hasOwn(WEBCHAT_ASSETS, name)) return undefined;
      try {
        const body = await readFile(join(dist, name));
        return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    /** What any browser may read of a bot's webchat: its name and dashboard configuration without the adminKey. */
    async publicConfig(botId: string) {
      const bot = await deps.bots.chatFacts(botId);
      if (!bot) return undefined;
      const { adminKey: _secret, ...configuration } = bot.webchat;
      return { bot: { id: botId, name: bot.name }, configuration };
    },

    /** The hosted full-page chat of a bot, with the nonce its Content-Security-Policy allows. */
    async hostedPage(botId: string, options: { scriptUrl: string; connectOrigins: string[] }) {
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
/** The webchat serving service. */
export type WebchatService = ReturnType<typeof webchatService>;
