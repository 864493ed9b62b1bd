import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, launchChromium, listeningTestApp } from '../packages/testkit/src/e2e/browser.js';
import {
  type CustomerSite,
  recordedEvents as events,
  inWebchat,
  postAsBot,
  readyConversationId,
  sendFromComposer,
  serveCustomerSite,
  setWebchatConfiguration,
  waitForEvent,
  withWebchatConfiguration,
} from '../packages/testkit/src/e2e/webchat.js';
import { uploadIndexed } from '../packages/testkit/src/server/files-indexing.js';
import type { TestApp } from '../packages/testkit/src/server/harness.js';

const chromiumHere = haveChromium('webchat browser tests');

/** The global object as the tests call it. */
interface Api {
  init(options: Record<string, unknown>): void;
  open(): void;
  close(): void;
  toggle(): void;
  updateUser(user: Record<string, unknown>): Promise<void>;
  getUser(): Promise<Record<string, unknown>>;
  config(options: Record<string, unknown>): void;
  restartConversation(): Promise<void>;
  sendMessage(message: unknown): Promise<void>;
  sendEvent(event: unknown): Promise<void>;
  setUnreadMessageCount(count: unknown): void;
  on(type: string, handler: (data: unknown) => void): () => void;
}
/** What the test page records. */
interface TestWindow {
  parley: Api;
  events: { type: string; data: Record<string, unknown> }[];
  record(type: string, data: unknown): void;
  pwned?: boolean;
  innerWidth: number;
}

/** Runs `fn(window)` in the page (its source is sent, so it may use nothing from the test's scope). */
function run<T, A = unknown>(page: Page, fn: (w: TestWindow, arg: A) => T | Promise<T>, arg?: A): Promise<T> {
  return page.evaluate(`(${fn.toString()})(window, ${JSON.stringify(arg ?? null)})`) as Promise<T>;
}

describe.skipIf(!chromiumHere)('webchat in a browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let shots: string;
  let other: CustomerSite;
  /** What the other origin's server answers. */
  let otherHtml = '';
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, origin } = await listeningTestApp());
    browser = await launchChromium();
    shots = await mkdtemp(join(tmpdir(), 'parley-webchat-shots-'));
    // A page on another origin, as a customer's site embeds the script.
    other = await serveCustomerSite(() => otherHtml);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await other?.close();
    await t?.close();
    // Closing many browser contexts and the app (its chat streams, workers) takes long on CI's loaded 2 cores.
  }, 180_000);

  /** The test page: records every event, then the script tag (or none, for the init path). */
  function pageHtml(attrs: string, before = '', after = ''): string {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Webchat test page</title></head>
<body><h1>A customer's site</h1><button id="outside">Outside</button>
<script>
window.events = [];
window.record = function (type, data) {
  var plain = data instanceof Error ? { message: data.message, field: data.field } : data;
  window.events.push({ type: type, data: JSON.parse(JSON.stringify(plain === undefined ? null : plain)) });
};
</script>
${before}
${attrs === 'none' ? '' : `<script src="${origin}/webchat/v1/inject.js" ${attrs}></script>`}
<script>if (window.parley) window.parley.on('*', function (e) { window.record(e.type, e.data); });</script>
${after}
</body></html>`;
  }

  async function newPage(
    options: {
      attrs?: string;
      before?: string;
      after?: string;
      viewport?: { width: number; height: number };
    } = {},
  ) {
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const html = pageHtml(options.attrs ?? `data-bot-id="${t.botId}"`, options.before, options.after);
    await page.route(`${origin}/test-page.html`, (route) =>
      route.fulfill({ body: html, contentType: 'text/html' }),
    );
    await page.goto(`${origin}/test-page.html`);
    return { page, context, errors };
  }

  const eventTypes = async (page: Page) => (await events(page)).map((e) => e.type);
  /** Opens the webchat of `page` and waits until it is ready; answers the conversation id it was ready with. */
  async function openReady(page: Page) {
    await run(page, (w) => w.parley.open());
    await waitForEvent(page, 'webchat:ready');
    return readyConversationId(page);
  }
  /**
   * A page served by the app at `site` that inits the webchat of `botId` (with `configuration`) by script and
   * records its events, the window opened and ready; `watch` sees the page before it loads.
   */
  async function readyOn(
    site: string,
    botId: string,
    configuration?: Record<string, unknown>,
    watch?: (page: Page) => void,
  ): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    watch?.(page);
    const init = JSON.stringify({ botId, ...(configuration ? { configuration } : {}) });
    const html = `<!doctype html><html><body><script>window.events = [];</script>
<script src="${site}/webchat/v1/inject.js"></script>
<script>parley.on('*', function (e) { window.events.push({ type: e.type, data: e.data instanceof Error ? { message: e.data.message } : JSON.parse(JSON.stringify(e.data || null)) }); });
parley.init(${init});</script></body></html>`;
    await page.route(`${site}/page.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
    await page.goto(`${site}/page.html`);
    await waitForEvent(page, 'webchat:initialized');
    await run(page, (x) => x.parley.open());
    await waitForEvent(page, 'webchat:ready');
    return page;
  }
  const windowLocator = (page: Page) => page.locator('[data-parley-webchat] .pw-window');

  const setDashboard = (configuration: Record<string, unknown>) => setWebchatConfiguration(t, configuration);
  const withDashboard = (configuration: Record<string, unknown>, steps: () => Promise<void>) =>
    withWebchatConfiguration(t, configuration, steps);

  const botSays = (conversationId: string, payload: Record<string, unknown>) =>
    postAsBot(origin, t, conversationId, payload);

  it('serves the loader and the UI bundle with content type, cache headers and an ETag; unknown files are 404', async () => {
    for (const file of ['inject.js', 'webchat.js']) {
      const res = await fetch(`${origin}/webchat/v1/${file}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
      expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
      const etag = res.headers.get('etag');
      expect(etag).toBeTruthy();
      const again = await fetch(`${origin}/webchat/v1/${file}`, { headers: { 'if-none-match': etag ?? '' } });
      expect(again.status).toBe(304);
    }
    const loader = await fetch(`${origin}/webchat/v1/inject.js`);
    expect((await loader.arrayBuffer()).byteLength).toBeLessThan(8 * 1024);
    const missing = await fetch(`${origin}/webchat/v1/nope.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 404, type: 'ResourceNotFound' });
  });

  it('answers the public configuration without the adminKey, and 404 for an unknown bot', async () => {
    await setDashboard({ botName: 'Dashboard name', adminKey: 'secret-admin-key', color: '#112233' });
    const res = await fetch(`${origin}/webchat/v1/bots/${t.botId}/config`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      bot: { id: string; name: string };
      configuration: Record<string, unknown>;
    };
    expect(body.bot.id).toBe(t.botId);
    expect(body.configuration).toEqual({ botName: 'Dashboard name', color: '#112233' });
    expect(JSON.stringify(body)).not.toContain('secret-admin-key');
    const unknown = await fetch(`${origin}/webchat/v1/bots/no-such-bot/config`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'ResourceNotFound' });
    await setDashboard({});
  });

  it('installs window.parley synchronously, queues early calls, fires sticky lifecycle events', async () => {
    const { page, errors } = await newPage({
      // Calls made right after the script tag, long before the UI bundle is loaded.
      after: `<script>
        window.syncType = typeof window.parley.open;
        window.parley.setUnreadMessageCount(3);
        window.parley.open();
        window.early = window.parley.getUser().then(function (u) { return u.id; });
      </script>`,
    });
    expect(await page.evaluate('window.syncType')).toBe('function');
    await waitForEvent(page, 'webchat:ready');
    expect(await eventTypes(page)).toEqual(
      expect.arrayContaining(['webchat:initialized', 'webchat:opened', 'conversation', 'webchat:ready']),
    );
    const types = await eventTypes(page);
    expect(types.indexOf('webchat:initialized')).toBeLessThan(types.indexOf('webchat:ready'));
    expect(await page.evaluate('window.early')).toMatch(/.+/);
    await expect.poll(() => page.locator('[data-parley-webchat] .pw-badge').textContent()).toBe('3');
    await expect.poll(() => windowLocator(page).isVisible()).toBe(true);
    // A listener registered late still gets the lifecycle moments, in a microtask, once each.
    const late = await run(page, async (w) => {
      const got: string[] = [];
      w.parley.on('webchat:ready', () => got.push('ready'));
      w.parley.on('webchat:initialized', () => got.push('initialized'));
      const any: string[] = [];
      w.parley.on('*', (e) => any.push((e as { type: string }).type));
      const sync = got.length;
      await new Promise((r) => setTimeout(r, 50));
      return { sync, got, any };
    });
    expect(late.sync).toBe(0);
    expect(late.got.sort()).toEqual(['initialized', 'ready']);
    expect(late.any.sort()).toEqual(['webchat:initialized', 'webchat:ready']);
    expect(errors).toEqual([]);
  });

  it('runs the window state machine: open, close, toggle, Esc, with opened/closed events only on change', async () => {
    const { page } = await newPage();
    await waitForEvent(page, 'webchat:initialized');
    expect(await windowLocator(page).isVisible()).toBe(false);
    await run(page, (w) => {
      w.parley.open();
      w.parley.open();
    });
    expect(await windowLocator(page).isVisible()).toBe(true);
    await run(page, (w) => w.parley.close());
    expect(await windowLocator(page).isVisible()).toBe(false);
    await run(page, (w) => w.parley.close());
    await run(page, (w) => w.parley.toggle());
    expect(await windowLocator(page).isVisible()).toBe(true);
    await run(page, (w) => w.parley.toggle());
    expect(await windowLocator(page).isVisible()).toBe(false);
    const changes = (await eventTypes(page)).filter((x) => x === 'webchat:opened' || x === 'webchat:closed');
    expect(changes).toEqual(['webchat:opened', 'webchat:closed', 'webchat:opened', 'webchat:closed']);
    // Keyboard: the launcher opens, focus goes to the composer, Esc closes and gives focus back.
    await page.locator('[data-parley-webchat] .pw-fab').click();
    await expect
      .poll(() =>
        page.evaluate(
          'document.activeElement && document.activeElement.shadowRoot && document.activeElement.shadowRoot.activeElement && document.activeElement.shadowRoot.activeElement.id',
        ),
      )
      .toBe('pw-input');
    await page.keyboard.press('Escape');
    expect(await windowLocator(page).isVisible()).toBe(false);
    await expect
      .poll(() => page.evaluate('document.activeElement.shadowRoot.activeElement.className'))
      .toBe('pw-fab');
    expect(await windowLocator(page).getAttribute('role')).toBe('dialog');
    expect(await page.locator('[data-parley-webchat] .pw-log').getAttribute('aria-live')).toBe('polite');
  });

  it('on() returns an unsubscribe function; `*` receives every event; bad event types throw', async () => {
    const { page } = await newPage();
    await waitForEvent(page, 'webchat:initialized');
    const result = await run(page, async (w) => {
      const opened: number[] = [];
      const off = w.parley.on('webchat:opened', () => opened.push(1));
      w.parley.open();
      w.parley.close();
      off();
      w.parley.open();
      w.parley.close();
      let threw = '';
      try {
        w.parley.on('nonsense', () => undefined);
      } catch (error) {
        threw = (error as Error).message;
      }
      return { opened: opened.length, threw };
    });
    expect(result.opened).toBe(1);
    expect(result.threw).toContain('unknown event type');
  });

  it('sendMessage/sendEvent/restartConversation before ready wait for ready (connecting), then work; bad arguments reject', async () => {
    const { page } = await newPage({
      after: `<script>window.sent = window.parley.sendMessage('hello before ready').then(function () { return 'ok'; });</script>`,
    });
    expect(await page.evaluate('window.sent')).toBe('ok');
    await waitForEvent(page, 'webchat:ready');
    await waitForEvent(page, 'message');
    const message = (await events(page)).find((e) => e.type === 'message');
    expect(message?.data).toMatchObject({
      isBot: false,
      payload: { type: 'text', text: 'hello before ready' },
    });
    // The window did not open by itself.
    expect(await windowLocator(page).isVisible()).toBe(false);
    const bad = await run(page, async (w) => {
      const out: string[] = [];
      for (const value of ['', 42, null]) {
        await w.parley.sendMessage(value).catch((e: Error) => out.push(e.message));
      }
      await w.parley.sendEvent('not an object').catch((e: Error) => out.push(e.message));
      await w.parley.sendEvent({ kind: 'page-event', n: 1 });
      return out;
    });
    expect(bad).toHaveLength(4);
    expect(bad[0]).toContain('sendMessage');
    expect(bad[3]).toContain('sendEvent');
    const conversations = (await events(page)).filter((e) => e.type === 'conversation');
    expect(conversations).toHaveLength(1);
    const first = conversations[0]?.data.conversationId;
    await run(page, (w) => w.parley.restartConversation());
    const after = (await events(page)).filter((e) => e.type === 'conversation');
    expect(after).toHaveLength(2);
    expect(after[1]?.data.conversationId).not.toBe(first);
  });

  it('sends a message and shows the bot reply posted through the Chat API with the bot key (message events, de-duplicated)', async () => {
    const { page } = await newPage();
    const conversationId = (await openReady(page)) as string;
    await sendFromComposer(page, 'What are your opening hours?');
    await expect
      .poll(() => page.locator('[data-parley-webchat] .pw-msg[data-from="user"]').first().textContent())
      .toContain('What are your opening hours?');
    const reply = await botSays(conversationId, { type: 'markdown', markdown: 'We open at **9 am**.' });
    const bubble = page.locator(`[data-parley-webchat] [data-message-id="${reply.id}"] strong`);
    await expect.poll(() => bubble.textContent(), { timeout: 15_000 }).toBe('9 am');
    const messages = (await events(page)).filter((e) => e.type === 'message');
    const ids = messages.map((m) => m.data.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(reply.id);
    // Choice buttons send the chosen option.
    await botSays(conversationId, {
      type: 'choice',
      text: 'Pick one',
      options: [
        { label: 'Red', value: 'red' },
        { label: 'Blue', value: 'blue' },
      ],
    });
    await page.locator('[data-parley-webchat] .pw-choice', { hasText: 'Blue' }).click();
    await expect
      .poll(() =>
        run(
          page,
          (w) =>
            w.events.filter(
              (e) => e.type === 'message' && (e.data.payload as { value?: string }).value === 'blue',
            ).length,
        ),
      )
      .toBe(1);
    // Other payload types render.
    await botSays(conversationId, {
      type: 'card',
      title: 'A card',
      subtitle: 'with a link',
      actions: [{ action: 'url', label: 'Docs', value: 'https://example.com/docs' }],
    });
    await botSays(conversationId, { type: 'location', latitude: 48.85, longitude: 2.35, title: 'Paris' });
    await botSays(conversationId, { type: 'file', fileUrl: 'https://example.com/a.pdf', title: 'a.pdf' });
    await expect.poll(() => page.locator('[data-parley-webchat] .pw-card h3').textContent()).toBe('A card');
    await expect
      .poll(() => page.locator('[data-parley-webchat] a[download]').textContent())
      .toContain('a.pdf');
    await page.screenshot({ path: join(shots, 'desktop-conversation.png') });
    expect(existsSync(join(shots, 'desktop-conversation.png'))).toBe(true);
  });

  it('shows the typing indicator and streamed text between typing_started and the bot message', async () => {
    const { page } = await newPage();
    const conversationId = (await openReady(page)) as string;
    const chat = t.app.services.chat;
    const who = { conversationId, userId: 'bot-user', isBot: true };
    await chat.emit(t.botId, conversationId, [{ signal: { type: 'typing_started', data: who } }]);
    const typing = page.locator('[data-parley-webchat] .pw-typing');
    await expect.poll(() => typing.count(), { timeout: 15_000 }).toBe(1);
    expect(await typing.getAttribute('role')).toBe('status');
    await chat.emit(t.botId, conversationId, [
      {
        signal: {
          type: 'message_stream_delta',
          data: { id: 'stream1', conversationId, delta: 'Streaming ' },
        },
      },
      {
        signal: { type: 'message_stream_delta', data: { id: 'stream1', conversationId, delta: '**text**' } },
      },
    ]);
    await expect
      .poll(() => page.locator('[data-parley-webchat] [data-stream-id="stream1"] strong').textContent())
      .toBe('text');
    expect(await typing.count()).toBe(0);
    await botSays(conversationId, { type: 'text', text: 'Streaming text' });
    await expect.poll(() => page.locator('[data-parley-webchat] [data-stream-id]').count()).toBe(0);
    await chat.emit(t.botId, conversationId, [{ signal: { type: 'typing_started', data: who } }]);
    await expect.poll(() => typing.count()).toBe(1);
    await chat.emit(t.botId, conversationId, [{ signal: { type: 'typing_stopped', data: who } }]);
    await expect.poll(() => typing.count()).toBe(0);
  });

  it('the knowledge bot answers a message typed in the window (workers on), and the adminKey is sent as x-admin-key', async () => {
    const { t: w, origin: wOrigin } = await listeningTestApp({ workers: true });
    try {
      const put = await w.asOwner('PUT', `/v1/admin/bots/${w.botId}/webchat`, {
        configuration: { adminKey: 'the-admin-key' },
      });
      expect(put.statusCode, put.body).toBe(200);
      const adminHeaders: string[] = [];
      const page = await readyOn(wOrigin, w.botId, { adminKey: 'the-admin-key' }, (opening) =>
        opening.on('request', (r) => {
          const key = r.headers()['x-admin-key'];
          if (key && r.url().includes('/v1/chat/')) adminHeaders.push(key);
        }),
      );
      await sendFromComposer(page, 'Hello, anyone there?');
      await expect
        .poll(() => inWebchat(page, '.pw-msg[data-from="bot"]').count(), { timeout: 20_000 })
        .toBeGreaterThan(0);
      expect(adminHeaders.length).toBeGreaterThan(0);
      expect(new Set(adminHeaders)).toEqual(new Set(['the-admin-key']));
      const stored = String(await page.evaluate(`localStorage.getItem('parley:webchat:${w.botId}')`));
      expect(stored).not.toContain('the-admin-key');
      expect((await events(page)).filter((e) => e.type === 'error')).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('shows a "did you mean" reply as choice buttons, and a click gets the answer from the picked topic', async () => {
    const { t: w, origin: wOrigin } = await listeningTestApp({ workers: true });
    try {
      await uploadIndexed(
        w,
        'returns.md',
        '# Returns and refunds\n\n## Returning an item\n\nYou can return any unused item within 30 days of delivery, without giving a reason.\n',
      );
      await uploadIndexed(
        w,
        'warranty.md',
        '# Warranty\n\n## Warranty period\n\nEvery grinder has a warranty of 2 years from delivery, which covers motors and burrs.\n',
      );
      await uploadIndexed(
        w,
        'delivery.md',
        '# Delivery\n\n## Delivery times\n\nParcels arrive within 3 working days; orders placed before noon leave the same day.\n',
      );
      const page = await readyOn(wOrigin, w.botId);
      // Between the documents' words: the bot is unsure and asks back.
      await sendFromComposer(page, 'delivery of my grinder, what about payment and coffee');
      const buttons = inWebchat(page, '.pw-msg[data-type="choice"] .pw-choice');
      await expect.poll(() => buttons.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      expect(await inWebchat(page, '.pw-msg[data-type="choice"]').textContent()).toContain(
        'Did you mean one of these?',
      );
      await buttons.filter({ hasText: 'Warranty period' }).click();
      await expect
        .poll(() => inWebchat(page, '.pw-msg[data-from="bot"]').last().textContent(), { timeout: 20_000 })
        .toContain('Every grinder has a warranty of 2 years');
      // The pick shows as the visitor's message by its label, not its value.
      expect(await inWebchat(page, '.pw-msg[data-from="user"]').last().textContent()).toContain(
        'Warranty period',
      );
      expect((await events(page)).filter((e) => e.type === 'error')).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('starts a new conversation when the current one is deleted through the Chat API', async () => {
    const { page } = await newPage();
    await run(page, (w) => w.parley.open());
    await waitForEvent(page, 'webchat:ready');
    const first = await readyConversationId(page);
    const res = await fetch(`${origin}/v1/chat/${t.botId}/conversations/${first}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${t.botKey}` },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await waitForEvent(page, 'conversation', 2);
    const second = (await events(page)).filter((e) => e.type === 'conversation')[1]?.data.conversationId;
    expect(second).not.toBe(first);
    expect(await run(page, (w) => w.parley.sendMessage('still here').then(() => 'sent'))).toBe('sent');
    expect((await events(page)).filter((e) => e.type === 'error')).toEqual([]);
  });

  it('renders Markdown safely: script tags and onerror handlers never run', async () => {
    const { page, errors } = await newPage();
    const conversationId = (await openReady(page)) as string;
    const evil = await botSays(conversationId, {
      type: 'markdown',
      markdown:
        'Hi <script>window.pwned = true</script> <img src="x" onerror="window.pwned = true"> [click](javascript:window.pwned=true) <b>bold</b>',
    });
    const bubble = page.locator(`[data-parley-webchat] [data-message-id="${evil.id}"] .pw-bubble`);
    await expect.poll(() => bubble.count(), { timeout: 15_000 }).toBe(1);
    await page.waitForTimeout(300);
    expect(await page.evaluate('window.pwned === true')).toBe(false);
    const html = await bubble.innerHTML();
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<b>bold</b>');
    await page
      .locator('[data-parley-webchat] a', { hasText: 'click' })
      .click()
      .catch(() => undefined);
    expect(await page.evaluate('window.pwned === true')).toBe(false);
    expect(errors).toEqual([]);
  });

  it('rejects invalid configuration with an error naming the field and changes nothing', async () => {
    const { page } = await newPage();
    await waitForEvent(page, 'webchat:initialized');
    await run(page, (w) => w.parley.config({ configuration: { color: '#AA0000', botName: 'Valid name' } }));
    const header = page.locator('[data-parley-webchat] .pw-title h2');
    await expect.poll(() => header.textContent()).toBe('Valid name');
    const colorOf = () =>
      page.evaluate(
        "getComputedStyle(document.querySelector('[data-parley-webchat]').shadowRoot.querySelector('.pw-root')).getPropertyValue('--pw-color')",
      );
    expect(await colorOf()).toBe('#AA0000');
    const cases: [Record<string, unknown>, string][] = [
      [{ radius: 7, botName: 'Nope' }, 'radius'],
      [{ color: 'red', botName: 'Nope' }, 'color'],
      [{ themeMode: 'blue', botName: 'Nope' }, 'themeMode'],
      [{ storageLocation: 'cookies' }, 'storageLocation'],
      [{ website: { title: 'Site' }, botName: 'Nope' }, 'website'],
      [{ phone: 'not an object' }, 'phone'],
    ];
    for (const [configuration, field] of cases) {
      const before = (await events(page)).filter((e) => e.type === 'error').length;
      await run(page, (w, c) => w.parley.config({ configuration: c }), configuration);
      const errs = (await events(page)).filter((e) => e.type === 'error');
      expect(errs.length, field).toBe(before + 1);
      expect(errs[errs.length - 1]?.data.field).toBe(field);
      expect(errs[errs.length - 1]?.data.message).toContain(field);
    }
    expect(await header.textContent()).toBe('Valid name');
    expect(await colorOf()).toBe('#AA0000');
    // Theme, radius and blank fields (blank keeps the earlier value).
    await run(page, (w) => w.parley.config({ configuration: { themeMode: 'dark', radius: 2, botName: '' } }));
    expect(await page.locator('[data-parley-webchat] .pw-root').getAttribute('data-theme')).toBe('dark');
    expect(await header.textContent()).toBe('Valid name');
    // setUnreadMessageCount with a bad count reports an error too.
    await run(page, (w) => w.parley.setUnreadMessageCount(-1));
    const last = (await events(page)).filter((e) => e.type === 'error').pop();
    expect(last?.data.message).toContain('setUnreadMessageCount');
  });

  it('accepts showPoweredBy with a deprecation warning and no effect; footer is Markdown and "" removes it', async () => {
    const { page } = await newPage();
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await waitForEvent(page, 'webchat:initialized');
    await run(page, (w) => w.parley.open());
    const footer = page.locator('[data-parley-webchat] .pw-footer');
    expect(await footer.textContent()).toContain('Parley');
    await run(page, (w) =>
      w.parley.config({ configuration: { showPoweredBy: false, footer: 'Made by **ACME**' } }),
    );
    await expect.poll(() => footer.locator('strong').textContent()).toBe('ACME');
    expect(warnings.some((w) => w.includes('showPoweredBy') && w.includes('deprecated'))).toBe(true);
    expect((await events(page)).filter((e) => e.type === 'error')).toEqual([]);
    await run(page, (w) => w.parley.config({ configuration: { footer: '' } }));
    await expect.poll(() => footer.count()).toBe(0);
  });

  it('takes omitted fields from the dashboard; the page overrides them; header links and options render', async () => {
    await withDashboard(
      {
        botName: 'Dashboard bot',
        botDescription: 'From the dashboard',
        composerPlaceholder: 'Ask the dashboard',
        headerVariant: 'solid',
        feedbackEnabled: true,
        phone: { title: 'Call', link: '+1 555 0100' },
        email: { title: 'Mail', link: 'help@example.com' },
        privacyPolicy: { title: 'Privacy', link: 'https://example.com/privacy' },
        additionalStylesheet: '.pw-title h2 { letter-spacing: 3px; }',
      },
      async () => {
        const { page } = await newPage({
          after: `<script>window.parley.config({ configuration: { botName: 'Page bot', botDescription: '' } });</script>`,
        });
        await waitForEvent(page, 'webchat:initialized');
        await run(page, (w) => w.parley.open());
        await expect
          .poll(() => page.locator('[data-parley-webchat] .pw-title h2').textContent())
          .toBe('Page bot');
        expect(await page.locator('[data-parley-webchat] .pw-title p').first().textContent()).toBe(
          'From the dashboard',
        );
        expect(await page.locator('[data-parley-webchat] textarea').getAttribute('placeholder')).toBe(
          'Ask the dashboard',
        );
        expect(await page.locator('[data-parley-webchat] .pw-header').getAttribute('data-variant')).toBe(
          'solid',
        );
        expect(await page.locator('[data-parley-webchat] a[data-link="phone"]').getAttribute('href')).toBe(
          'tel:+15550100',
        );
        expect(await page.locator('[data-parley-webchat] a[data-link="email"]').getAttribute('href')).toBe(
          'mailto:help@example.com',
        );
        expect(
          await page.locator('[data-parley-webchat] a[data-link="privacyPolicy"]').getAttribute('href'),
        ).toBe('https://example.com/privacy');
        expect(
          await page.evaluate(
            "getComputedStyle(document.querySelector('[data-parley-webchat]').shadowRoot.querySelector('.pw-title h2')).letterSpacing",
          ),
        ).toBe('3px');
        // Styles stay inside the shadow root: the page's h1 is untouched.
        expect(await page.evaluate("getComputedStyle(document.querySelector('h1')).letterSpacing")).toBe(
          'normal',
        );
        // Feedback thumbs on a bot message go to the server.
        await waitForEvent(page, 'webchat:ready');
        const conversationId = await readyConversationId(page);
        const reply = await botSays(conversationId, { type: 'text', text: 'Rate me' });
        const thumb = page.locator(
          `[data-parley-webchat] [data-message-id="${reply.id}"] button[aria-label="Helpful"]`,
        );
        await thumb.click();
        await expect.poll(() => thumb.getAttribute('aria-pressed')).toBe('true');
        await page.waitForTimeout(300);
        expect((await events(page)).filter((e) => e.type === 'error')).toEqual([]);
      },
    );
  });

  it('uploads a file and an image with allowFileUpload (POST /files, PUT the bytes, then a file/image message)', async () => {
    await withDashboard({ allowFileUpload: true }, async () => {
      const { page } = await newPage();
      await run(page, (w) => w.parley.open());
      await waitForEvent(page, 'webchat:ready');
      const input = page.locator('[data-parley-webchat] input[type="file"]');
      await input.setInputFiles({
        name: 'notes.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('hello upload'),
      });
      const link = page.locator('[data-parley-webchat] .pw-msg[data-type="file"] a');
      await expect.poll(() => link.count(), { timeout: 15_000 }).toBe(1);
      expect(await link.textContent()).toContain('notes.txt');
      const href = await link.getAttribute('href');
      const downloaded = await fetch(new URL(href ?? '', origin));
      expect(downloaded.status).toBe(200);
      expect(await downloaded.text()).toBe('hello upload');
      // A 1×1 PNG becomes an image message.
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      );
      await input.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
      const image = page.locator('[data-parley-webchat] .pw-msg[data-type="image"] img');
      await expect.poll(() => image.count(), { timeout: 15_000 }).toBe(1);
      await expect
        .poll(() => image.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth))
        .toBe(1);
      expect((await events(page)).filter((e) => e.type === 'error')).toEqual([]);
    });
  });

  it('updateUser and getUser work before the conversation starts, and config({user}) updates the user', async () => {
    const { page } = await newPage();
    await waitForEvent(page, 'webchat:initialized');
    const user = await run(page, async (w) => {
      await w.parley.updateUser({ name: 'Ada', data: { plan: 'pro' } });
      return w.parley.getUser();
    });
    expect(user).toMatchObject({ name: 'Ada', data: { plan: 'pro' } });
    await run(page, (w) => w.parley.config({ user: { name: 'Ada L.' } }));
    await expect.poll(async () => (await run(page, (w) => w.parley.getUser())).name).toBe('Ada L.');
    const rejected = await run(page, (w) =>
      w.parley.updateUser({ nickname: 'x' }).then(
        () => 'ok',
        (e: Error) => e.message,
      ),
    );
    expect(rejected).toContain('nickname');
    // A second init is ignored.
    await run(page, (w) => w.parley.init({ botId: 'other' }));
    expect((await events(page)).filter((e) => e.type === 'webchat:initialized')).toHaveLength(1);
  });

  it('localStorage resumes the conversation after a reload; sessionStorage starts fresh in a new tab', async () => {
    const { page, context } = await newPage();
    await run(page, (w) => w.parley.sendMessage('remember me'));
    const firstConversation = await readyConversationId(page);
    const stored = await page.evaluate(`localStorage.getItem('parley:webchat:${t.botId}')`);
    expect(stored).toContain(String(firstConversation));
    expect(stored).not.toContain('adminKey');
    await page.reload();
    const resumed = await openReady(page);
    expect(resumed).toBe(firstConversation);
    expect(await eventTypes(page)).not.toContain('conversation');
    await expect
      .poll(() => page.locator('[data-parley-webchat] .pw-msg[data-from="user"]').first().textContent())
      .toContain('remember me');

    await withDashboard({ storageLocation: 'sessionStorage' }, async () => {
      const tab = await context.newPage();
      await tab.route(`${origin}/test-page.html`, (route) =>
        route.fulfill({ body: pageHtml(`data-bot-id="${t.botId}"`), contentType: 'text/html' }),
      );
      await tab.goto(`${origin}/test-page.html`);
      const fresh = await openReady(tab);
      expect(fresh).not.toBe(firstConversation);
      expect(await eventTypes(tab)).toContain('conversation');
      expect(await tab.evaluate(`sessionStorage.getItem('parley:webchat:${t.botId}')`)).toContain(
        String(fresh),
      );
      // Reloading the same tab keeps its session.
      await tab.reload();
      expect(await openReady(tab)).toBe(fresh);
      // Another tab: fresh again.
      const third = await context.newPage();
      await third.route(`${origin}/test-page.html`, (route) =>
        route.fulfill({ body: pageHtml(`data-bot-id="${t.botId}"`), contentType: 'text/html' }),
      );
      await third.goto(`${origin}/test-page.html`);
      expect(await openReady(third)).not.toBe(fresh);
    });
  });

  it('init() without data-bot-id, a custom global name, and two bots on one page from another origin', async () => {
    const second = await t.asOwner('POST', '/v1/admin/bots', { name: 'Second bot' });
    expect(second.statusCode, second.body).toBe(201);
    const secondId = (second.json() as { bot: { id: string } }).bot.id;
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const html = `<!doctype html><html><body>
<script src="${origin}/webchat/v1/inject.js"></script>
<script src="${origin}/webchat/v1/inject.js" data-global-name="sales"></script>
<script>
  window.events = [];
  parley.on('*', function (e) { window.events.push({ type: 'a:' + e.type, data: {} }); });
  sales.on('*', function (e) { window.events.push({ type: 'b:' + e.type, data: {} }); });
  parley.init({ botId: ${JSON.stringify(t.botId)}, configuration: { botName: 'First' } });
  sales.init({ botId: ${JSON.stringify(secondId)}, configuration: { botName: 'Second' } });
</script></body></html>`;
    otherHtml = html;
    await page.goto(`${other.origin}/two.html`);
    await waitForEvent(page, 'a:webchat:initialized');
    await waitForEvent(page, 'b:webchat:initialized');
    expect(await page.locator('[data-parley-webchat]').count()).toBe(2);
    await page.evaluate('parley.open(); sales.open()');
    await waitForEvent(page, 'a:webchat:ready');
    await waitForEvent(page, 'b:webchat:ready');
    const keys = (await page.evaluate('Object.keys(localStorage)')) as string[];
    expect(keys.sort()).toEqual([`parley:webchat:${secondId}`, `parley:webchat:${t.botId}`].sort());
    expect(
      await page.evaluate("parley.sendMessage('cross-origin hello').then(function () { return 'sent'; })"),
    ).toBe('sent');
    // webchat.js was loaded once for both.
    expect(await page.evaluate('document.querySelectorAll(\'script[src$="webchat.js"]\').length')).toBe(1);
  });

  it('an unknown bot emits an error and rejects queued calls instead of losing them', async () => {
    const { page } = await newPage({
      attrs: 'data-bot-id="no-such-bot"',
      after: `<script>window.pending = window.parley.getUser().then(function () { return 'resolved'; }, function (e) { return 'rejected: ' + e.message; });</script>`,
    });
    expect(await page.evaluate('window.pending')).toMatch(/^rejected: Unknown bot/);
    await waitForEvent(page, 'error');
    expect(await eventTypes(page)).not.toContain('webchat:initialized');
  });

  it('fills a phone screen and keeps inputs at 16px (no iOS zoom); a screenshot is saved', async () => {
    const { page } = await newPage({ viewport: { width: 390, height: 844 } });
    await waitForEvent(page, 'webchat:initialized');
    await run(page, (w) => w.parley.open());
    const box = await windowLocator(page).boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 390, height: 844 });
    expect(
      await page.evaluate(
        "getComputedStyle(document.querySelector('[data-parley-webchat]').shadowRoot.querySelector('textarea')).fontSize",
      ),
    ).toBe('16px');
    const path = join(shots, 'phone.png');
    await page.screenshot({ path });
    expect(existsSync(path)).toBe(true);
    console.log(`webchat screenshots: ${shots}`);
  });

  it('serves the hosted page with an escaped bot name and a CSP that the webchat satisfies (nonce)', async () => {
    await withDashboard({ botName: '<img src=x onerror=alert(1)> & "Co"' }, async () => {
      const res = await fetch(`${origin}/webchat/${t.botId}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'nonce-[^']+'/);
      const html = await res.text();
      expect(html).toContain('<title>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;</title>');
      expect((await fetch(`${origin}/webchat/no-such-bot`)).status).toBe(404);

      const context = await browser.newContext();
      contexts.push(context);
      const page = await context.newPage();
      const violations: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      await page.goto(`${origin}/webchat/${t.botId}`);
      const win = page.locator('[data-parley-webchat] .pw-window');
      await expect.poll(() => win.isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await page.locator('[data-parley-webchat] .pw-fab').count()).toBe(0);
      await sendFromComposer(page, 'hello from the hosted page');
      await expect
        .poll(() => inWebchat(page, '.pw-msg[data-from="user"]').count(), { timeout: 15_000 })
        .toBe(1);
      // The styles applied (a nonce-less <style> would be blocked and leave the window unstyled).
      expect(
        await page.evaluate(
          "getComputedStyle(document.querySelector('[data-parley-webchat]').shadowRoot.querySelector('.pw-window')).display",
        ),
      ).toBe('flex');
      expect(violations).toEqual([]);
    });
  });
});
