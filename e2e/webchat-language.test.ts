import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import DE from '../packages/server/src/modules/bots/words/de.json' with { type: 'json' };
import { haveChromium, useBrowserApp } from '../packages/testkit/src/e2e/browser.js';
import { botApi, indexInKnowledgeBase } from '../packages/testkit/src/e2e/knowledge.js';
import {
  inWebchat as chat,
  sendFromComposer,
  withWebchatConfiguration,
} from '../packages/testkit/src/e2e/webchat.js';

const chromiumHere = haveChromium('webchat language browser tests');

/** A German shop's returns page: what the bot quotes to a German visitor (issue #38, figure 2). */
const RUECKGABE = `# Rückgabe und Erstattung

## Rückgabefrist

Sie können jeden unbenutzten Artikel innerhalb von 30 Tagen nach der Lieferung ohne Angabe von Gründen zurückgeben.

## Erstattung

Die Erstattung erreicht Ihre Karte innerhalb von 5 Werktagen, sobald das Paket bei uns angekommen ist.
`;

interface Recorded {
  type: string;
  data: { message?: string; field?: string } | null;
}

describe.skipIf(!chromiumHere)("webchat in the visitor's language", () => {
  // Workers: the German document is indexed and the bot's replies are made as in production.
  const suite = useBrowserApp({ workers: true });

  /**
   * A customer's page embedding the chat, in a browser context of `locale` (its navigator.languages and
   * Accept-Language), recording the webchat's events; `attrs` go on the script tag.
   */
  async function openChat(
    context: BrowserContextOptions,
    attrs = '',
    before?: (page: Page) => Promise<unknown>,
  ): Promise<Page> {
    const browserContext = await suite.newContext({ viewport: { width: 1280, height: 800 }, ...context });
    const page = await browserContext.newPage();
    await before?.(page);
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body>
<h1>A customer's site</h1>
<script>window.events = [];</script>
<script src="${suite.origin}/webchat/v1/inject.js" data-bot-id="${suite.t.botId}" ${attrs}></script>
<script>window.parley.on('*', function (e) {
  var d = e.data instanceof Error ? { message: e.data.message, field: e.data.field } : null;
  window.events.push({ type: e.type, data: d });
});</script></body></html>`;
    await page.route(`${suite.origin}/shop.html`, (route) =>
      route.fulfill({ body: html, contentType: 'text/html' }),
    );
    await page.goto(`${suite.origin}/shop.html`);
    await chat(page, '.pw-fab').click();
    await expect.poll(() => chat(page, 'textarea').isVisible()).toBe(true);
    return page;
  }
  const events = (page: Page) => page.evaluate('window.events') as Promise<Recorded[]>;
  const root = (page: Page) => chat(page, '.pw-root');

  it('shows a browser in de-DE the chat in German: launcher, placeholder, send button and "Talk to a person"', async () => {
    await withWebchatConfiguration(suite.t, { handoffButton: true }, async () => {
      const page = await openChat({ locale: 'de-DE' });
      expect(await root(page).getAttribute('lang')).toBe('de');
      expect(await root(page).getAttribute('dir')).toBe('ltr');
      expect(await chat(page, 'textarea').getAttribute('placeholder')).toBe('Nachricht eingeben…');
      expect(await chat(page, '.pw-send').getAttribute('aria-label')).toBe('Senden');
      expect(await chat(page, '.pw-fab').textContent()).toContain('Chat schließen');
      expect(await chat(page, '.pw-handoff').textContent()).toBe('Mit einem Menschen sprechen');
      expect((await events(page)).filter((e) => e.type === 'error')).toEqual([]);
    });
  });

  it('answers a browser in de-DE in German: German words before a quote of the German document, its German "not found" when it does not know', async () => {
    await indexInKnowledgeBase(botApi(suite.origin, suite.t), {
      key: 'de/rueckgabe.md',
      text: RUECKGABE,
      knowledgeBase: 'Rückgaben',
    });
    const page = await openChat({ locale: 'de-DE' });
    expect(await root(page).getAttribute('lang')).toBe('de');
    const replies = chat(page, '.pw-msg[data-from="bot"][data-message-id]');
    const before = await replies.count();
    await sendFromComposer(page, 'Innerhalb von wie vielen Tagen kann ich einen Artikel zurückgeben?');
    await expect.poll(() => replies.count(), { timeout: 20_000 }).toBe(before + 1);
    const answer = (await replies.last().textContent()) ?? '';
    expect(answer).toContain(DE.intro);
    expect(answer).toContain('innerhalb von 30 Tagen nach der Lieferung');
    expect(answer).toContain('Rückgabefrist');
    await sendFromComposer(page, 'Welcher Bus fährt morgens zum Zoo?');
    await expect.poll(() => replies.count(), { timeout: 20_000 }).toBe(before + 2);
    expect(await replies.last().textContent()).toContain(DE.notFound);
  });

  it('lays the chat out right to left for a browser in ar: dir=rtl, launcher and send button on the left', async () => {
    const page = await openChat({ locale: 'ar' });
    expect(await root(page).getAttribute('dir')).toBe('rtl');
    expect(await root(page).getAttribute('lang')).toBe('ar');
    expect(await chat(page, 'textarea').getAttribute('placeholder')).toBe('اكتب رسالتك…');
    const send = await chat(page, '.pw-send').boundingBox();
    const input = await chat(page, 'textarea').boundingBox();
    const fab = await chat(page, '.pw-fab').boundingBox();
    const window = await chat(page, '.pw-window').boundingBox();
    if (!send || !input || !fab || !window) throw new Error('the chat is not laid out');
    expect(send.x + send.width).toBeLessThanOrEqual(input.x);
    expect(fab.x).toBeLessThan(100);
    expect(window.x).toBeLessThan(100);
  });

  it("prefers the page's locale over the bot's defaultLocale, and that over the browser's languages", async () => {
    await withWebchatConfiguration(suite.t, { defaultLocale: 'fr-CA' }, async () => {
      const french = await openChat({ locale: 'de-DE' });
      expect(await chat(french, 'textarea').getAttribute('placeholder')).toBe('Écrivez votre message…');
      const spanish = await openChat({ locale: 'de-DE' }, 'data-locale="es-MX"');
      expect(await chat(spanish, 'textarea').getAttribute('placeholder')).toBe('Escribe tu mensaje…');
      // Switched by the page at any time, fetching the Japanese texts then.
      await spanish.evaluate(`window.parley.config({ locale: 'ja' })`);
      await expect.poll(() => chat(spanish, '.pw-send').getAttribute('aria-label')).toBe('送信');
    });
  });

  it('skips an unshipped browser language for the next one, and falls back to English', async () => {
    const dutch = await openChat({ locale: 'ko-KR' }, '', async (page) => {
      await page.addInitScript(
        `Object.defineProperty(navigator, 'languages', { get: () => ['ko-KR', 'nl-BE'] })`,
      );
    });
    expect(await chat(dutch, 'textarea').getAttribute('placeholder')).toBe('Typ je bericht…');
    const english = await openChat({ locale: 'ko-KR' });
    expect(await chat(english, 'textarea').getAttribute('placeholder')).toBe('Type your message…');
    expect(await root(english).getAttribute('lang')).toBe('en');
  });

  it('stays in English and says so in an error event when the catalog cannot be fetched', async () => {
    const page = await openChat({ locale: 'it-IT' }, '', (p) =>
      p.route('**/webchat/v1/locale-it.json', (route) => route.fulfill({ status: 503, body: 'down' })),
    );
    expect(await chat(page, 'textarea').getAttribute('placeholder')).toBe('Type your message…');
    const errors = (await events(page)).filter((e) => e.type === 'error');
    expect(errors).toEqual([
      {
        type: 'error',
        data: { field: 'locale', message: expect.stringContaining('Could not load the it texts') },
      },
    ]);
  });

  it('keeps the other languages out of webchat.js: each is a file of its own, served to any site', async () => {
    const bundle = await (await fetch(`${suite.origin}/webchat/v1/webchat.js`)).text();
    expect(bundle).toContain('Type your message');
    expect(bundle).not.toContain('Nachricht eingeben');
    expect(bundle).not.toContain('crivez votre message');
    const german = await fetch(`${suite.origin}/webchat/v1/locale-de.json`);
    expect(german.status).toBe(200);
    expect(german.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(german.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await german.json()) as { send: string }).send).toBe('Senden');
    const korean = await fetch(`${suite.origin}/webchat/v1/locale-ko.json`);
    expect(korean.status).toBe(404);
  });

  it("refuses a bot defaultLocale that is not a shipped language's tag, naming the field", async () => {
    const res = await suite.t.asOwner('PUT', `/v1/admin/bots/${suite.t.botId}/webchat`, {
      configuration: { defaultLocale: 'ko' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      type: 'InvalidPayload',
      message: expect.stringContaining('defaultLocale'),
    });
  });
});
