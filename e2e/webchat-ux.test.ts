import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, useBrowserApp } from '../packages/testkit/src/e2e/browser.js';
import {
  inWebchat as chat,
  recordedEvents as events,
  postAsBot,
  readyConversationId,
  sendFromComposer,
  setWebchatConfiguration,
  waitForEvent,
  withWebchatConfiguration,
} from '../packages/testkit/src/e2e/webchat.js';
import { createTestApp, type TestApp } from '../packages/testkit/src/server/harness.js';

const chromiumHere = haveChromium('webchat UX browser tests');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Evaluates `js` in the page; `$` is the webchat's shadow root there. */
function inShadow<T>(page: Page, js: string): Promise<T> {
  return page.evaluate(
    `(async () => { const $ = document.querySelector('[data-parley-webchat]').shadowRoot; ${js} })()`,
  ) as Promise<T>;
}

describe.skipIf(!chromiumHere)('webchat user experience in a browser', () => {
  const suite = useBrowserApp();

  /** A page on the server's suite.origin with the script tag (or `init` in `after`), recording every event. */
  async function newPage(
    options: {
      app?: { origin: string; botId: string };
      init?: Record<string, unknown>;
      /** Attributes of the script tag, which then initializes the chat itself (no init call). */
      attrs?: string;
      before?: string;
      viewport?: { width: number; height: number };
    } = {},
  ) {
    const app = options.app ?? { origin: suite.origin, botId: suite.t.botId };
    const context = await suite.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const init = JSON.stringify({ botId: app.botId, ...options.init });
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Webchat UX test page</title></head>
<body><main><h1>A customer's site</h1><p>Some content.</p><button id="outside">Outside</button></main>
<script>
window.events = [];
${options.before ?? ''}
</script>
<script src="${app.origin}/webchat/v1/inject.js" ${options.attrs ?? ''}></script>
<script>
window.parley.on('*', function (e) {
  var d = e.data instanceof Error ? { message: e.data.message, field: e.data.field } : e.data;
  window.events.push({ type: e.type, data: JSON.parse(JSON.stringify(d === undefined ? null : d)) });
});
${options.attrs ? '' : `window.parley.init(${init});`}
</script></body></html>`;
    await page.route(`${app.origin}/ux-page.html`, (route) =>
      route.fulfill({ body: html, contentType: 'text/html' }),
    );
    await page.goto(`${app.origin}/ux-page.html`);
    return { page, errors };
  }

  async function openReady(page: Page): Promise<string> {
    await waitForEvent(page, 'webchat:initialized');
    await page.evaluate('window.parley.open()');
    await waitForEvent(page, 'webchat:ready');
    return readyConversationId(page);
  }

  const setDashboard = (configuration: Record<string, unknown>, app: TestApp = suite.t) =>
    setWebchatConfiguration(app, configuration);
  const withDashboard = (configuration: Record<string, unknown>, steps: () => Promise<void>) =>
    withWebchatConfiguration(suite.t, configuration, steps);

  const botSays = (conversationId: string, payload: Record<string, unknown>) =>
    postAsBot(suite.origin, suite.t, conversationId, payload);

  /** Runs axe-core on the whole document (it descends into the open shadow root); answers the violations. */
  async function axe(page: Page): Promise<string[]> {
    if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ path: AXE });
    const violations = (await page.evaluate(
      `window.axe.run(document, { resultTypes: ['violations'] }).then(function (r) { return r.violations; })`,
    )) as {
      id: string;
      impact: string;
      help: string;
      nodes: { target: unknown; failureSummary: string }[];
    }[];
    return violations.map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.failureSummary}`).join(' | ')}`,
    );
  }

  it('has no axe violations, light and dark, closed, open and empty (greeting, suggested questions), and with messages, choices, feedback and upload', async () => {
    await withDashboard(
      {
        feedbackEnabled: true,
        allowFileUpload: true,
        botDescription: 'Answers questions',
        greeting: 'Hi! Ask me about **orders**.',
        suggestedQuestions: ['Where is my order?', 'How do I get a refund?'],
      },
      async () => {
        for (const themeMode of ['light', 'dark']) {
          const { page } = await newPage({ init: { configuration: { themeMode } } });
          await waitForEvent(page, 'webchat:initialized');
          await page.evaluate('window.parley.setUnreadMessageCount(2)');
          expect(await axe(page), `${themeMode}, closed`).toEqual([]);
          const conversationId = await openReady(page);
          await expect.poll(() => chat(page, '.pw-suggestion').count()).toBe(2);
          expect(await axe(page), `${themeMode}, open and empty`).toEqual([]);
          await page.evaluate(`window.parley.sendMessage('Hello there')`);
          await botSays(conversationId, {
            type: 'markdown',
            markdown: 'Hi! **Bold**, a [link](https://example.com)',
          });
          await botSays(conversationId, {
            type: 'choice',
            text: 'Pick one',
            options: [
              { label: 'Yes', value: 'y' },
              { label: 'No', value: 'n' },
            ],
          });
          await expect.poll(() => chat(page, '.pw-msg[data-type="choice"] .pw-choice').count()).toBe(2);
          // The comment box after a thumbs down is checked too.
          await chat(page, '.pw-msg[data-type="markdown"] button[aria-label="Not helpful"]').click();
          await expect.poll(() => chat(page, '.pw-comment textarea').count()).toBe(1);
          expect(await axe(page), `${themeMode}, open`).toEqual([]);
          await page.evaluate('window.parley.close()');
          expect(await axe(page), `${themeMode}, closed again`).toEqual([]);
        }
      },
    );
  });

  it('is usable by keyboard: Tab reaches the launcher, Enter opens with focus in the composer, Esc closes back to it', async () => {
    const { page } = await newPage();
    await waitForEvent(page, 'webchat:initialized');
    await page.focus('#outside');
    await page.keyboard.press('Tab');
    const focused = () =>
      inShadow<string>(
        page,
        `const a = $.activeElement; return a ? (a.className || a.tagName) + '|' + (a.className === 'pw-fab' ? a.textContent : '') : 'none';`,
      );
    expect(await focused()).toMatch(/^pw-fab\|Open chat with /);
    await page.keyboard.press('Enter');
    await expect.poll(() => chat(page, '.pw-window').isVisible()).toBe(true);
    await expect.poll(focused).toBe('TEXTAREA|');
    const dialog = chat(page, '[role="dialog"]');
    const name = await inShadow<string>(
      page,
      `return $.getElementById($.querySelector('[role=dialog]').getAttribute('aria-labelledby')).textContent;`,
    );
    expect(name.length).toBeGreaterThan(0);
    expect(await dialog.count()).toBe(1);
    expect(await chat(page, '.pw-log').getAttribute('aria-live')).toBe('polite');
    expect(await chat(page, '.pw-log').getAttribute('role')).toBe('log');
    await page.keyboard.press('Escape');
    await expect.poll(() => chat(page, '.pw-window').isVisible()).toBe(false);
    // Focus goes back in an effect after the window is hidden (the next frame): wait for it.
    await expect.poll(focused).toMatch(/^pw-fab\|Open chat with /);
    expect((await events(page)).map((e) => e.type)).toContain('webchat:closed');
  });

  it('sticks to the bottom only when there; scrolled up, a new message shows a "New messages" button', async () => {
    const { page } = await newPage();
    const conversationId = await openReady(page);
    for (let i = 0; i < 25; i++) await botSays(conversationId, { type: 'text', text: `Line ${i}` });
    await expect.poll(() => chat(page, '.pw-msg').count(), { timeout: 15_000 }).toBe(25);
    const gap = () =>
      inShadow<number>(
        page,
        `const l = $.querySelector('.pw-log'); return l.scrollHeight - l.scrollTop - l.clientHeight;`,
      );
    await expect.poll(gap).toBeLessThan(5);
    expect(await chat(page, '.pw-new').count()).toBe(0);
    // The user scrolls up to read: a new message does not move the log, a button appears.
    await inShadow(page, `$.querySelector('.pw-log').scrollTop = 0;`);
    await page.waitForTimeout(100);
    await botSays(conversationId, { type: 'text', text: 'Something new' });
    await expect.poll(() => chat(page, '.pw-msg').count()).toBe(26);
    const button = chat(page, '.pw-new');
    await expect.poll(() => button.count()).toBe(1);
    expect(await button.textContent()).toContain('New messages');
    expect(await inShadow<number>(page, `return $.querySelector('.pw-log').scrollTop;`)).toBe(0);
    await button.click();
    await expect.poll(gap).toBeLessThan(5);
    expect(await button.count()).toBe(0);
    // At the bottom, the next message scrolls into view without a button.
    await botSays(conversationId, { type: 'text', text: 'And another' });
    await expect.poll(() => chat(page, '.pw-msg').count()).toBe(27);
    await expect.poll(gap).toBeLessThan(5);
    expect(await button.count()).toBe(0);
  });

  it('on a phone, follows the visual viewport so the composer stays above the on-screen keyboard', async () => {
    const { page } = await newPage({ viewport: { width: 390, height: 844 } });
    await openReady(page);
    const win = chat(page, '.pw-window');
    const composer = chat(page, '.pw-composer');
    expect(await win.boundingBox()).toMatchObject({ x: 0, y: 0, width: 390, height: 844 });
    // A keyboard: the layout viewport keeps its height, the visual viewport shrinks (and may scroll).
    await page.evaluate(`(() => {
      const vv = window.visualViewport;
      Object.defineProperty(vv, 'height', { configurable: true, get: () => 500 });
      Object.defineProperty(vv, 'offsetTop', { configurable: true, get: () => 0 });
      vv.dispatchEvent(new Event('resize'));
    })()`);
    expect(await page.evaluate('window.innerHeight')).toBe(844);
    await expect.poll(async () => (await win.boundingBox())?.height).toBe(500);
    const box = await composer.boundingBox();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(500);
    await page.evaluate(`(() => {
      const vv = window.visualViewport;
      Object.defineProperty(vv, 'offsetTop', { configurable: true, get: () => 120 });
      vv.dispatchEvent(new Event('scroll'));
    })()`);
    await expect.poll(async () => (await win.boundingBox())?.y).toBe(120);
    // The keyboard closes (a real viewport change this time).
    await page.evaluate(`(() => {
      const vv = window.visualViewport;
      delete vv.height;
      delete vv.offsetTop;
    })()`);
    await page.setViewportSize({ width: 390, height: 700 });
    await expect.poll(async () => await win.boundingBox()).toMatchObject({ y: 0, height: 700 });
    // Desktop widths keep the floating window.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(async () => (await win.boundingBox())?.width).toBe(400);
  });

  it('speaks French with locale "fr", takes string overrides, and rejects unknown keys changing nothing', async () => {
    const { page } = await newPage({ init: { locale: 'fr-CA', strings: { send: 'Expédier' } } });
    await waitForEvent(page, 'webchat:initialized');
    const fab = chat(page, '.pw-fab');
    await expect.poll(() => fab.textContent()).toMatch(/^Ouvrir la discussion avec /);
    await page.evaluate('window.parley.setUnreadMessageCount(3)');
    await expect.poll(() => fab.textContent()).toMatch(/3 non lus$/);
    expect(await chat(page, '.pw-root').getAttribute('lang')).toBe('fr');
    await openReady(page);
    expect(await chat(page, 'textarea').getAttribute('placeholder')).toBe('Écrivez votre message…');
    expect(await chat(page, '.pw-send').getAttribute('aria-label')).toBe('Expédier');
    expect(await chat(page, '.pw-log').getAttribute('aria-label')).toBe('Messages');
    expect(await chat(page, '.pw-footer').textContent()).toContain('Propulsé par Parley');
    // Overrides through config(); the spec field composerPlaceholder wins over the locale's default.
    await page.evaluate(`window.parley.config({ strings: { newConversation: 'Recommencer' } })`);
    await expect
      .poll(() => chat(page, '.pw-header button').first().getAttribute('aria-label'))
      .toBe('Recommencer');
    await page.evaluate(`window.parley.config({ configuration: { composerPlaceholder: 'Votre question' } })`);
    await expect.poll(() => chat(page, 'textarea').getAttribute('placeholder')).toBe('Votre question');
    // Unknown keys and locales: an error naming them, and nothing of the call applies.
    await page.evaluate(
      `window.parley.config({ locale: 'en', strings: { send: 'Send it', sendd: 'typo' }, configuration: { botName: 'Changed' } })`,
    );
    await waitForEvent(page, 'error');
    let errors = (await events(page)).filter((e) => e.type === 'error');
    expect(errors[0]?.data).toMatchObject({ field: 'strings.sendd' });
    expect(errors[0]?.data.message).toContain('strings.sendd');
    await page.evaluate(`window.parley.config({ locale: 'ko' })`);
    await waitForEvent(page, 'error', 2);
    errors = (await events(page)).filter((e) => e.type === 'error');
    expect(errors[1]?.data).toMatchObject({ field: 'locale' });
    expect(await chat(page, '.pw-send').getAttribute('aria-label')).toBe('Expédier');
    expect(await chat(page, '.pw-root').getAttribute('lang')).toBe('fr');
    expect(await chat(page, 'h2').textContent()).not.toBe('Changed');
    // Back to English.
    await page.evaluate(`window.parley.config({ locale: 'en', strings: { send: 'Send it' } })`);
    await expect.poll(() => chat(page, '.pw-send').getAttribute('aria-label')).toBe('Send it');
    expect(await chat(page, '.pw-header button').first().getAttribute('aria-label')).toBe('Recommencer');
    expect(await chat(page, '.pw-root').getAttribute('lang')).toBe('en');
  });

  it('takes the locale from the script tag (data-locale)', async () => {
    const { page } = await newPage({ attrs: `data-bot-id="${suite.t.botId}" data-locale="fr"` });
    await waitForEvent(page, 'webchat:initialized');
    expect(await chat(page, '.pw-root').getAttribute('lang')).toBe('fr');
    expect(await chat(page, '.pw-fab').textContent()).toMatch(/^Ouvrir la discussion/);
  });

  it('after a thumbs down, sends an optional comment with the feedback', async () => {
    await withDashboard({ feedbackEnabled: true }, async () => {
      const { page } = await newPage();
      const conversationId = await openReady(page);
      const bodies: unknown[] = [];
      page.on('request', (r) => {
        if (r.method() === 'PUT' && r.url().endsWith('/feedback')) bodies.push(r.postDataJSON());
      });
      const reply = await botSays(conversationId, { type: 'text', text: 'Rate me' });
      const msg = `.pw-msg[data-message-id="${reply.id}"]`;
      await chat(page, `${msg} button[aria-label="Not helpful"]`).click();
      const box = chat(page, `${msg} .pw-comment textarea`);
      await expect.poll(() => box.count()).toBe(1);
      await expect
        .poll(() => inShadow<string>(page, 'return $.activeElement?.id'))
        .toBe(`pw-comment-${reply.id}`);
      await box.fill('The answer was out of date');
      await chat(page, `${msg} .pw-comment button[type="submit"]`).click();
      await expect.poll(() => chat(page, `${msg} .pw-thanks`).count()).toBe(1);
      expect(await chat(page, `${msg} .pw-comment`).count()).toBe(0);
      await expect.poll(() => bodies.length).toBe(2);
      expect(bodies).toEqual([
        { value: 'negative' },
        { value: 'negative', comment: 'The answer was out of date' },
      ]);
      // The second request was sent; the server may still be storing it: read until it has.
      const stored = async () => {
        const res = await fetch(
          `${suite.origin}/v1/chat/${suite.t.botId}/conversations/${conversationId}/messages`,
          {
            headers: { authorization: `Bearer ${suite.t.botKey}` },
          },
        );
        const { messages } = (await res.json()) as { messages: { id: string; feedback?: unknown }[] };
        return messages.find((m) => m.id === reply.id)?.feedback;
      };
      await expect.poll(stored).toEqual({ value: 'negative', comment: 'The answer was out of date' });
      expect((await events(page)).filter((e) => e.type === 'error')).toEqual([]);
    });
  });

  it('uploads files dropped on the window or pasted into the composer, shows progress, and explains a 413', async () => {
    await withDashboard({ allowFileUpload: true }, async () => {
      const { page } = await newPage();
      await openReady(page);
      const files = chat(page, '.pw-msg[data-type="file"] a');
      // Drop.
      await inShadow(
        page,
        `const dt = new DataTransfer();
        dt.items.add(new File(['dropped bytes'], 'dropped.txt', { type: 'text/plain' }));
        const target = $.querySelector('.pw-log');
        target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true, composed: true }));
        await new Promise((resolve) => setTimeout(resolve, 50));
        const overlay = !!$.querySelector('.pw-drop');
        target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true, composed: true }));
        return overlay;`,
      ).then((overlay) => expect(overlay).toBe(true));
      await expect.poll(() => files.count(), { timeout: 15_000 }).toBe(1);
      expect(await files.first().textContent()).toContain('dropped.txt');
      expect(await chat(page, '.pw-drop').count()).toBe(0);
      const href = await files.first().getAttribute('href');
      expect(await (await fetch(new URL(href ?? '', suite.origin))).text()).toBe('dropped bytes');
      // Paste.
      await inShadow(
        page,
        `const dt = new DataTransfer();
        dt.items.add(new File(['pasted bytes'], 'pasted.txt', { type: 'text/plain' }));
        $.querySelector('textarea').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true, composed: true }));`,
      );
      await expect.poll(() => files.count(), { timeout: 15_000 }).toBe(2);
      expect(await files.nth(1).textContent()).toContain('pasted.txt');
      // Progress: the byte upload is held; the window shows a progress bar until it completes.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/v1/files/*/upload**', async (route) => {
        if (route.request().method() !== 'PUT') return route.continue();
        await held;
        await route.continue();
      });
      const input = chat(page, 'input[type="file"]');
      await input.setInputFiles({
        name: 'big.bin',
        mimeType: 'application/octet-stream',
        buffer: Buffer.alloc(200_000, 7),
      });
      const progress = chat(page, '.pw-upload progress');
      await expect.poll(() => progress.count()).toBe(1);
      expect(await chat(page, '.pw-upload').textContent()).toContain('Uploading big.bin');
      expect(await chat(page, '.pw-upload').getAttribute('role')).toBe('status');
      release();
      await expect.poll(() => files.count(), { timeout: 15_000 }).toBe(3);
      expect(await progress.count()).toBe(0);
      // The server refuses the bytes (413): a clear sentence in the window, no message, an error event.
      await page.unroute('**/v1/files/*/upload**');
      await page.route('**/v1/files/*/upload**', (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({
              status: 413,
              contentType: 'application/json',
              body: JSON.stringify({ code: 413, type: 'PayloadTooLarge', message: 'File too large' }),
            })
          : route.continue(),
      );
      await input.setInputFiles({
        name: 'huge.bin',
        mimeType: 'application/octet-stream',
        buffer: Buffer.alloc(1000, 1),
      });
      const notice = chat(page, '.pw-notice');
      await expect.poll(() => notice.count(), { timeout: 15_000 }).toBe(1);
      expect(await notice.textContent()).toBe('The file huge.bin is too large.');
      expect(await notice.getAttribute('role')).toBe('alert');
      expect(await files.count()).toBe(3);
      expect(await progress.count()).toBe(0);
      expect((await events(page)).filter((e) => e.type === 'error').length).toBe(1);
    });
  });

  it('reconnects a dropped live stream with Last-Event-ID and shows a message sent meanwhile exactly once', async () => {
    // The page's fetch hands the webchat a stream the test can break, and holds the next listen request.
    const before = `
window.hold = null;
window.waiting = false;
var realFetch = window.fetch;
window.fetch = function (input, init) {
  var url = String((input && input.url) || input);
  if (url.indexOf('/listen') < 0) return realFetch.call(window, input, init);
  var go = window.hold ? (window.waiting = true, window.hold) : Promise.resolve();
  return go.then(function () { return realFetch.call(window, input, init); }).then(function (res) {
    if (!res.body) return res;
    var reader = res.body.getReader();
    var body = new ReadableStream({
      start: function (c) {
        window.dropStream = function () { reader.cancel().catch(function () {}); c.error(new TypeError('network error (test)')); };
        (function pump() {
          reader.read().then(function (r) { if (r.done) { try { c.close(); } catch (e) {} return; } c.enqueue(r.value); pump(); },
            function (e) { try { c.error(e); } catch (x) {} });
        })();
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  });
};`;
    const { page } = await newPage({ before });
    const listens: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/listen')) listens.push(r.headers()['last-event-id']);
    });
    const conversationId = await openReady(page);
    await botSays(conversationId, { type: 'text', text: 'Before the drop' });
    const bot = chat(page, '.pw-msg[data-from="bot"]');
    await expect.poll(() => bot.count(), { timeout: 15_000 }).toBe(1);
    expect(listens.length).toBe(1);
    await page.evaluate(
      'window.hold = new Promise(function (resolve) { window.release = resolve; }); window.dropStream();',
    );
    const away = await botSays(conversationId, { type: 'text', text: 'Sent while disconnected' });
    await page.waitForFunction('window.waiting === true', undefined, { timeout: 15_000 });
    await page.waitForTimeout(200);
    expect(await bot.count()).toBe(1);
    await page.evaluate('window.hold = null; window.release();');
    await expect.poll(() => bot.count(), { timeout: 15_000 }).toBe(2);
    await page.waitForTimeout(500);
    expect(await chat(page, `[data-message-id="${away.id}"]`).count()).toBe(1);
    expect(await bot.count()).toBe(2);
    const messageEvents = (await events(page)).filter((e) => e.type === 'message' && e.data.id === away.id);
    expect(messageEvents.length).toBe(1);
    expect(listens.length).toBe(2);
    expect(listens[0]).toBeUndefined();
    expect(listens[1]).toMatch(/.+/);
  });

  it('shows debug details under a knowledge reply when the page has the dashboard adminKey, and none without it', async () => {
    const w = await createTestApp({ workers: true });
    try {
      await w.app.listen({ port: 0, host: '127.0.0.1' });
      const address = w.app.server.address();
      if (!address || typeof address === 'string') throw new Error('no address');
      const app = { origin: `http://127.0.0.1:${address.port}`, botId: w.botId };
      await setDashboard({ adminKey: 'debug-key-1' }, w);
      for (const adminKey of ['debug-key-1', undefined]) {
        const { page } = await newPage({ app, init: adminKey ? { configuration: { adminKey } } : {} });
        await openReady(page);
        await sendFromComposer(page, 'How many vacation days do I get?');
        const reply = chat(page, '.pw-msg[data-from="bot"]');
        await expect.poll(() => reply.count(), { timeout: 20_000 }).toBeGreaterThan(0);
        if (adminKey) {
          const details = chat(page, '.pw-msg[data-from="bot"] details.pw-debug');
          await expect.poll(() => details.count(), { timeout: 10_000 }).toBe(1);
          await details.locator('summary').click();
          expect(await details.locator('pre').textContent()).toContain('"mode"');
          expect(await chat(page, '.pw-msg[data-from="user"] details.pw-debug').count()).toBe(0);
        } else {
          await page.waitForTimeout(500);
          expect(await chat(page, 'details.pw-debug').count()).toBe(0);
        }
        expect((await events(page)).filter((e) => e.type === 'error')).toEqual([]);
      }
    } finally {
      await w.close();
    }
  });
});
