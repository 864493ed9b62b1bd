// The whole path a new user takes: upload a document to a knowledge base through the Files API, wait for
// indexing, embed the webchat in a plain page on another origin, ask questions worded differently from the
// document, on a desktop and a phone screen, and read the bot's answer: the private document named as plain text
// by default (sourceLinks public), with a link that opens it once the bot links every source (all). And the
// first impression: the greeting and the suggested questions of an empty chat, one asked by a click or the keyboard.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, launchChromium, listeningTestApp } from '../packages/testkit/src/e2e/browser.js';
import { HANDBOOK } from '../packages/testkit/src/e2e/handbook.js';
import { type BotCall, botApi, indexInKnowledgeBase } from '../packages/testkit/src/e2e/knowledge.js';
import {
  askOnPage,
  type CustomerSite,
  embeddingPage,
  inWebchat,
  type PageMessage,
  serveCustomerSite,
  withWebchatConfiguration,
} from '../packages/testkit/src/e2e/webchat.js';
import type { TestApp } from '../packages/testkit/src/server/harness.js';

const chromiumHere = haveChromium('webchat knowledge tests');

describe.skipIf(!chromiumHere)('the webchat answers from an uploaded document', () => {
  let t: TestApp;
  let origin: string;
  let site: CustomerSite;
  let browser: Browser;

  let api: BotCall;

  beforeAll(async () => {
    ({ t, origin } = await listeningTestApp({ workers: true }));

    // The document, uploaded as any user of the Files API would, in a knowledge base: linking starts its indexing.
    api = botApi(origin, t);
    await indexInKnowledgeBase(api, { key: 'handbook/acme.md', text: HANDBOOK, knowledgeBase: 'Handbook' });

    // A customer's site on another origin with nothing but the script tag.
    site = await serveCustomerSite(() => embeddingPage(origin, t.botId));
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  for (const screen of [
    { name: 'desktop', viewport: { width: 1280, height: 800 } },
    { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  ]) {
    it(`on a ${screen.name} screen: quotes the right passage, names the private document without a link by default, links it with sourceLinks all, and says so plainly when it knows nothing`, async () => {
      const setSourceLinks = async (sourceLinks: string) =>
        expect((await t.asOwner('PUT', `/v1/admin/bots/${t.botId}`, { sourceLinks })).statusCode).toBe(200);
      await setSourceLinks('public');
      const context = await browser.newContext({
        viewport: screen.viewport,
        ...(screen.isMobile ? { isMobile: true, hasTouch: true } : {}),
      });
      try {
        const page = await context.newPage();
        await page.goto(`${site.origin}/`);
        await page.evaluate('window.parley.open()');

        // By default (public) the private document is named, as plain text: no link in the bubble, and the URL
        // its link would have had answers 404 without a redirect.
        const named = await askOnPage(page, 'How many days of paid leave do I get each year?', 1);
        expect(named.payload.markdown).toContain('25 days of paid vacation');
        const botBubbles = page.locator('[data-parley-webchat] .pw-msg[data-from="bot"][data-message-id]');
        const namedBubble = botBubbles.first();
        await expect
          .poll(() => namedBubble.textContent(), { timeout: 5000 })
          .toContain('— Acme employee handbook');
        expect(await namedBubble.locator('a').count()).toBe(0);
        const namedId = await namedBubble.getAttribute('data-message-id');
        expect(namedId).toMatch(/^msg_[0-9A-Z]{26}$/);
        const unlinked = await fetch(`${origin}/v1/chat/${t.botId}/messages/${namedId}/sources/0`, {
          redirect: 'manual',
        });
        expect(unlinked.status).toBe(404);
        expect(unlinked.headers.get('location')).toBeNull();

        await setSourceLinks('all');
        const answer = await askOnPage(page, 'How many days of paid leave do I get each year?', 2);
        expect(answer.payload.type).toBe('markdown');
        expect(answer.payload.markdown).toContain('25 days of paid vacation');
        expect(answer.payload.markdown).not.toContain('Lyon office');
        expect(answer.metadata?.sources?.[0]?.key).toBe('handbook/acme.md');

        // The answer is on screen, and its source link opens the very document.
        const bubble = botBubbles.nth(1);
        await expect
          .poll(() => bubble.textContent(), { timeout: 5000 })
          .toContain('25 days of paid vacation');
        const href = await bubble.locator('a').first().getAttribute('href');
        // The answer's permanent source link, which redirects to a download URL made on each click.
        expect(href).toMatch(
          new RegExp(`^${origin}/v1/chat/${t.botId}/messages/msg_[0-9A-Z]{26}/sources/0$`),
        );
        const source = await fetch(String(href));
        expect(source.redirected).toBe(true);
        expect(source.status).toBe(200);
        expect(await source.text()).toBe(HANDBOOK);

        const unknown = await askOnPage(page, 'What is the capital of Mongolia?', 3);
        expect(unknown.payload.type).toBe('text');
        expect(unknown.payload.text).toMatch(/couldn't find anything/i);

        const shots = await mkdtemp(join(tmpdir(), 'parley-webchat-answer-'));
        await page.screenshot({ path: join(shots, `${screen.name}.png`) });
        console.log(`webchat answer screenshot: ${join(shots, `${screen.name}.png`)}`);
      } finally {
        await context.close();
      }
    }, 60_000);
  }

  it('greets an empty chat and offers suggested questions: on the hosted page at 390 px by keyboard, embedded by a click; asked, they go', async () => {
    const first = {
      greeting: 'Hello! I know the **Acme handbook**.',
      suggestedQuestions: ['When does the Lyon office open?', 'How many days of paid vacation do I get?'],
    };
    const [lyon, vacation] = first.suggestedQuestions as [string, string];
    const userSaid = async (page: Page) =>
      (await inWebchat(page, '.pw-msg[data-from="user"]').allTextContents()).map((text) => text.trim());
    const botSaid = (page: Page) =>
      inWebchat(page, '.pw-msg[data-from="bot"][data-message-id]').allTextContents();
    await withWebchatConfiguration(t, first, async () => {
      // The hosted page on a phone: the greeting as the bot's words (not stored), the questions as buttons.
      const phone = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      });
      try {
        const page = await phone.newPage();
        await page.goto(`${origin}/webchat/${t.botId}`);
        const greeting = inWebchat(page, '.pw-greeting');
        await expect
          .poll(() => greeting.textContent(), { timeout: 15_000 })
          .toContain('Hello! I know the Acme handbook.');
        expect(await greeting.locator('strong').textContent()).toBe('Acme handbook');
        const suggestions = page.getByRole('list', { name: 'Suggested questions' }).getByRole('button');
        expect(await suggestions.allTextContents()).toEqual(first.suggestedQuestions);
        for (const box of await Promise.all((await suggestions.all()).map((b) => b.boundingBox()))) {
          expect(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box)).toBe(true);
        }
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
        // By keyboard: Shift+Tab from the composer reaches the last question, its focus ring shows, Enter asks it.
        await inWebchat(page, 'textarea').focus();
        await page.keyboard.press('Shift+Tab');
        const asked = page.getByRole('button', { name: vacation });
        await expect.poll(() => asked.evaluate((b) => b.matches(':focus-visible'))).toBe(true);
        expect(
          await asked.evaluate((b) => b.ownerDocument.defaultView?.getComputedStyle(b).outlineStyle),
        ).toBe('solid');
        await page.keyboard.press('Enter');
        await expect.poll(() => userSaid(page)).toEqual([`You said:${vacation}`]);
        // The bot answers it (what it answers is the other tests' business).
        await expect.poll(() => botSaid(page), { timeout: 20_000 }).toHaveLength(1);
        expect(await suggestions.count()).toBe(0);
        expect(await greeting.count()).toBe(1);
        // The greeting is no message of the conversation: the server holds the question, a text message exactly
        // as if typed, and the reply only (newest first).
        const conversationId = JSON.parse(
          String(await page.evaluate(`localStorage.getItem('parley:webchat:${t.botId}')`)),
        ).conversationId as string;
        const { messages } = (await api(
          'GET',
          `/v1/chat/${t.botId}/conversations/${conversationId}/messages`,
        )) as {
          messages: PageMessage[];
        };
        expect(messages.map((m) => m.isBot)).toEqual([true, false]);
        expect(messages[1]?.payload).toEqual({ type: 'text', text: vacation });
      } finally {
        await phone.close();
      }

      // Embedded on a customer's site: the page's config() may change the greeting; a click asks a question.
      const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await desktop.newPage();
        await page.goto(`${site.origin}/`);
        await page.evaluate(
          `window.parley.config({ configuration: { greeting: 'Welcome to the intranet.' } })`,
        );
        await page.evaluate('window.parley.open()');
        await expect
          .poll(() => inWebchat(page, '.pw-greeting').textContent(), { timeout: 15_000 })
          .toContain('Welcome to the intranet.');
        await page.getByRole('button', { name: lyon }).click();
        await expect.poll(() => userSaid(page)).toEqual([`You said:${lyon}`]);
        await expect.poll(() => botSaid(page), { timeout: 20_000 }).toHaveLength(1);
        expect(await page.getByRole('list', { name: 'Suggested questions' }).count()).toBe(0);
        // The page hears it as any message the visitor sends.
        expect(await page.evaluate('window.messages[0]')).toMatchObject({
          isBot: false,
          payload: { type: 'text', text: lyon },
        });
      } finally {
        await desktop.close();
      }
    });
  }, 60_000);
});
