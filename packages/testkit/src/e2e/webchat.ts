// What the webchat browser tests do through the APIs around the page: shape the bot's webchat, speak as the bot.
import { createServer } from 'node:http';
import type { Frame, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestApp } from '../server/harness.js';

/** Sets the bot's webchat configuration (the dashboard's values) as the workspace owner. */
export async function setWebchatConfiguration(
  app: TestApp,
  configuration: Record<string, unknown>,
): Promise<void> {
  const res = await app.asOwner('PUT', `/v1/admin/bots/${app.botId}/webchat`, { configuration });
  expect(res.statusCode, res.body).toBe(200);
}

/** Posts a message as the bot itself (its access key) through the listening app at `origin`. */
export async function postAsBot(
  origin: string,
  app: TestApp,
  conversationId: string,
  payload: Record<string, unknown>,
): Promise<{ id: string }> {
  const res = await fetch(`${origin}/v1/chat/${app.botId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.botKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ conversationId, payload }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { message: { id: string } }).message;
}

/**
 * Runs `steps` with the bot's webchat configured as `configuration` (see setWebchatConfiguration), and puts
 * the empty configuration back after them, whether they pass or fail.
 */
export async function withWebchatConfiguration(
  app: TestApp,
  configuration: Record<string, unknown>,
  steps: () => Promise<void>,
): Promise<void> {
  await setWebchatConfiguration(app, configuration);
  try {
    await steps();
  } finally {
    await setWebchatConfiguration(app, {});
  }
}

/** A webchat event as the browser tests' pages record it in `window.events` (an error as its message and field). */
export interface RecordedEvent {
  type: string;
  data: Record<string, unknown>;
}

/** The webchat events `page` recorded so far (its `window.events`, oldest first). */
export function recordedEvents(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate('window.events') as Promise<RecordedEvent[]>;
}

/** Waits (15 s at most) until `page` recorded `count` webchat events of `type`. */
export async function waitForEvent(page: Page, type: string, count = 1): Promise<void> {
  await page.waitForFunction(
    `window.events.filter(function (e) { return e.type === ${JSON.stringify(type)}; }).length >= ${count}`,
    undefined,
    { timeout: 15_000 },
  );
}

/** The conversation the webchat of `page` was first ready with (the id its first recorded `webchat:ready` carries). */
export async function readyConversationId(page: Page): Promise<string> {
  return (await recordedEvents(page)).find((e) => e.type === 'webchat:ready')?.data.conversationId as string;
}

/** The elements `selector` matches inside the webchat of `page`. */
export function inWebchat(page: Page, selector: string): Locator {
  return page.locator(`[data-parley-webchat] ${selector}`);
}

/** Types `text` into the webchat's composer and sends it with Enter, as a visitor does. */
export async function sendFromComposer(page: Page, text: string): Promise<void> {
  await inWebchat(page, 'textarea').fill(text);
  await page.keyboard.press('Enter');
}

/**
 * The `--pw-color` of the webchat drawn in `frame` (a page or frame whose webchat lives in a shadow root, e.g. the
 * Console designer's preview): null until the webchat is drawn.
 */
export function webchatColour(frame: Frame): Promise<string | null> {
  return frame.evaluate(`(() => {
    for (const element of document.querySelectorAll('*')) {
      const root = element.shadowRoot?.querySelector('.pw-root');
      if (root) return getComputedStyle(root).getPropertyValue('--pw-color').trim();
    }
    return null;
  })()`);
}

/** A web site on another origin than the app's, as a customer's site that embeds the webchat. */
export interface CustomerSite {
  /** `http://localhost:<port>`: another origin than an app listening on 127.0.0.1. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves `html()` (read on each request) at every path of a new site on another origin; close it after use. */
export async function serveCustomerSite(html: () => string): Promise<CustomerSite> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(html());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    origin: `http://localhost:${address.port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A customer's page with nothing but the webchat's script tag for `botId`, loaded from `baseUrl` (an app or a
 * deployment); `window.messages` collects the messages the webchat shows (its `message` events).
 */
export function embeddingPage(baseUrl: string, botId: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Acme</title></head>
<body><h1>Acme intranet</h1>
<script src="${baseUrl}/webchat/v1/inject.js" data-bot-id="${botId}"></script>
<script>
window.messages = [];
window.parley.on('message', function (m) { window.messages.push(m); });
</script></body></html>`;
}

/** A webchat message as an embedding page's `window.messages` holds it. */
export interface PageMessage {
  isBot: boolean;
  payload: { type: string; markdown?: string; text?: string };
  metadata?: { sources?: Array<{ key: string }> };
}

/**
 * Sends `question` through the webchat API of an embeddingPage and answers the bot's `nth` message (1: the
 * first) once the page has heard it.
 */
export async function askOnPage(
  page: Page,
  question: string,
  nth: number,
  timeoutMs = 20_000,
): Promise<PageMessage> {
  await page.evaluate(`window.parley.sendMessage(${JSON.stringify(question)})`);
  await page.waitForFunction(
    `window.messages.filter(function (m) { return m.isBot; }).length >= ${nth}`,
    undefined,
    { timeout: timeoutMs },
  );
  const bot = (await page.evaluate(
    'window.messages.filter(function (m) { return m.isBot; })',
  )) as PageMessage[];
  return bot[nth - 1] as PageMessage;
}
