// The Console's search playground and webchat designer in a real browser (Debian Chromium) against an in-process
// Parley with an indexed handbook in a knowledge base of the bot. The owner searches: passages with the question's
// words marked and the bot's own reply with its source; a question the handbook does not answer gets the honest
// not-found reply. In the designer the owner changes the main colour and sees the real webchat (the hosted page in
// a frame) take it before saving, gets the Admin API's own message beside a bad radius, saves, reloads and finds
// the values kept, sets a greeting and suggested questions (a repeated one refused beside the list), copies the
// embed snippet; markup in the bot name and a text field stays inert; axe finds nothing. At 390 px (dark) a viewer
// sees both pages laid out without sideways scroll, the designer read-only.
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { haveChromium } from '../packages/testkit/src/e2e/browser.js';
import { axe, overflows, useConsoleSuite } from '../packages/testkit/src/e2e/console.js';
import { webchatColour } from '../packages/testkit/src/e2e/webchat.js';
import { api } from '../packages/testkit/src/server/files-api.js';
import { HANDBOOK, uploadIndexed } from '../packages/testkit/src/server/files-indexing.js';

/**
 * Time bound of one browser flow: ~10 s here alone, but CI runs it beside the other suites on 2 cores, where the
 * bot's first reply waits for the embedder's workers to start (the ONNX graph is built at start).
 */
const BROWSER_FLOW_MS = 120_000;

const chromiumHere = haveChromium('console designer browser tests');

/** Where a screenshot is kept (e2e/artifacts/, a test artifact). */
const artifact = (name: string) => fileURLToPath(new URL(`./artifacts/${name}`, import.meta.url));

const TRICKY = '<img src=x onerror=window.pwned=1>';
const TRICKY_TEXT = '<img src=y onerror=window.pwned=2>';
const NOT_FOUND = "I couldn't find anything about that in my knowledge base.";

/** Whether the webchat in the preview frame shows `text` (as text: its shadow roots' text content). */
function previewShows(frame: Frame, text: string): Promise<boolean> {
  return frame.evaluate(
    `[...document.querySelectorAll('*')].some((e) => e.shadowRoot?.textContent?.includes(${JSON.stringify(text)}))`,
  );
}

/** The frame of the designer's preview (the bot's hosted chat page). */
async function previewFrame(page: Page, botId: string): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url().endsWith(`/webchat/${botId}`))).toBe(true);
  return page.frames().find((f) => f.url().endsWith(`/webchat/${botId}`)) as Frame;
}

/**
 * Whether the preview's webchat took the keyboard: once its effects have run (two frames of its own), the focus
 * is in the frame's composer rather than on the Console.
 */
async function previewTookFocus(page: Page, frame: Frame): Promise<boolean> {
  await frame.evaluate(
    'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done))))',
  );
  const top = await page.evaluate('document.activeElement?.tagName');
  const inside = await frame.evaluate(
    `[...document.querySelectorAll('*')].some((e) => e.shadowRoot?.activeElement?.tagName === 'TEXTAREA')`,
  );
  return top === 'IFRAME' || inside === true;
}

describe.skipIf(!chromiumHere)('console playground and webchat designer in a browser', () => {
  // A browser of its own: the tests read back what they copied (the clipboard is the browser's).
  const suite = useConsoleSuite({ workers: true }, { own: true });
  let botId: string;
  let viewer = { email: '', password: '' };

  beforeAll(async () => {
    const { t } = suite;
    botId = t.botId;
    const fileId = await uploadIndexed(t, 'handbook.md', HANDBOOK);
    const kb = await api(t, 'POST', '/v1/files/knowledge-bases', { name: 'Handbook' });
    expect(kb.statusCode, kb.body).toBe(201);
    const kbId = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const linked = await api(t, 'PUT', `/v1/files/knowledge-bases/${kbId}/files/${fileId}`);
    expect(linked.statusCode, linked.body).toBeLessThan(300);
    const renamed = await t.asOwner('PUT', `/v1/admin/bots/${botId}`, { name: TRICKY });
    expect(renamed.statusCode, renamed.body).toBe(200);
    viewer = await suite.joinAs('viewer');
  });

  it(
    'owner at 1280 px: searches, reads the bot reply and the not-found reply, designs, saves, copies',
    async () => {
      const { page, problems } = await suite.signedInPage(1280, 'light');
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.origin });
      await page.goto(`${suite.origin}/console/bots/${botId}/playground`);
      await expect
        .poll(() => page.getByRole('heading', { name: 'Search playground' }).isVisible())
        .toBe(true);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(TRICKY);

      await page.getByLabel('Question', { exact: true }).fill('How long do I have to ask for a refund?');
      await page.getByLabel('Knowledge base', { exact: true }).selectOption({ label: 'Handbook' });
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const results = page.getByRole('list', { name: 'Passages found' });
      await expect
        .poll(() => results.getByRole('link', { name: 'handbook.md' }).first().isVisible())
        .toBe(true);
      const marked = await results.locator('mark').allTextContents();
      expect(marked.map((m) => m.toLowerCase())).toEqual(expect.arrayContaining(['refund']));
      expect(await results.getByRole('link', { name: 'handbook.md' }).first().getAttribute('href')).toMatch(
        new RegExp(`^/console/bots/${botId}/files/[^/]+$`),
      );
      const reply = page.getByRole('region', { name: "The bot's reply" });
      await expect.poll(() => reply.textContent()).toContain('within 30 days');
      expect(await reply.getByText('Answered', { exact: true }).isVisible()).toBe(true);
      const source = reply.getByRole('list', { name: 'Sources' }).getByRole('link', { name: 'handbook.md' });
      expect(await source.getAttribute('href')).toMatch(new RegExp(`^/console/bots/${botId}/files/[^/]+$`));
      // The reply as the chat shows it: the private source named as plain text, no link (sourceLinks public,
      // the default).
      const replyText = reply.locator('.playground-reply');
      expect(await replyText.textContent()).toContain('— Parley handbook');
      expect(await replyText.getByRole('link').count()).toBe(0);
      await reply.getByText('How the bot chose').click();
      await expect
        .poll(() =>
          reply
            .getByText(/^Quoted: /)
            .first()
            .isVisible(),
        )
        .toBe(true);
      expect(await axe(page), 'playground').toEqual([]);
      await page.screenshot({ path: artifact('console-playground-1280.png'), fullPage: true });

      await page
        .getByLabel('Question', { exact: true })
        .fill('What is the airspeed velocity of an unladen swallow?');
      await page.getByLabel('Search mode', { exact: true }).selectOption('lexical');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect
        .poll(async () => (await reply.locator('.playground-reply').textContent())?.trim())
        .toBe(NOT_FOUND);
      expect(await reply.getByText('Not answered', { exact: true }).isVisible()).toBe(true);

      // The designer: the preview takes the unsaved colour.
      await page.getByRole('link', { name: 'Webchat', exact: true }).click();
      const colour = page.getByLabel('Main colour', { exact: true });
      await expect.poll(() => colour.isVisible()).toBe(true);
      const frame = await previewFrame(page, botId);
      await expect.poll(() => webchatColour(frame), { timeout: 15_000 }).toBe('#3276EA');
      // The live preview does not take the keyboard: the page keeps the focus once the webchat has drawn.
      expect(await previewTookFocus(page, frame)).toBe(false);
      // Where to put it first: the snippet and the hosted page link above the form.
      const snippetTop = await page.getByLabel('Embed snippet', { exact: true }).boundingBox();
      const formTop = await page.getByRole('form', { name: 'Webchat configuration' }).boundingBox();
      expect(snippetTop?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(formTop?.y ?? 0);
      // The admin key is there for the owner, with what it grants.
      expect(await page.locator('#wc-adminKey-hint').textContent()).toMatch(
        /^A secret that opens every conversation of this bot/,
      );
      await colour.fill('#0A7F5A');
      await expect.poll(() => webchatColour(frame)).toBe('#0A7F5A');
      // Cleared, the preview shows the default again; set once more for the rest of the test.
      await colour.fill('');
      await expect.poll(() => webchatColour(frame)).toBe('#3276EA');
      await colour.fill('#0A7F5A');
      await expect.poll(() => webchatColour(frame)).toBe('#0A7F5A');
      const unsaved = await suite.t.asOwner('GET', `/v1/admin/bots/${botId}/webchat`);
      expect(unsaved.json()).toEqual({ configuration: {} });

      // Markup in a text field stays text, in the form and in the preview.
      await page.getByLabel('Name in the header', { exact: true }).fill(TRICKY_TEXT);
      await expect.poll(() => previewShows(frame, TRICKY_TEXT)).toBe(true);
      expect(
        await frame.evaluate(
          `[...document.querySelectorAll('*')].some((e) => e.shadowRoot?.querySelector('img[src="y"]'))`,
        ),
      ).toBe(false);

      // A bad radius: the Admin API's own words beside the field.
      const radius = page.getByLabel('Corner radius', { exact: true });
      await radius.fill('9');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const radiusError = page.locator('#wc-radius-error');
      await expect.poll(() => radiusError.textContent()).toBe('must be a number between 0.5 and 4');
      expect(await radius.getAttribute('aria-describedby')).toContain('wc-radius-error');
      // Save again after changing another field: the API is asked again, refuses again, the message stays.
      await page.getByLabel('Name in the header', { exact: true }).fill(`${TRICKY_TEXT} `);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => problems.length).toBe(2);
      await expect.poll(() => radiusError.textContent()).toBe('must be a number between 0.5 and 4');
      await page.getByLabel('Name in the header', { exact: true }).fill(TRICKY_TEXT);
      expect(await axe(page), 'designer with an error').toEqual([]);

      // The first impression: a greeting and suggested questions, previewed before saving; a repeated question is
      // refused by the Admin API beside the list (with the radius still bad: both messages at once).
      await page.getByLabel('Greeting', { exact: true }).fill('Hello from **Acme**!');
      await expect.poll(() => previewShows(frame, 'Hello from Acme!')).toBe(true);
      const addQuestion = page.getByRole('button', { name: 'Add question', exact: true });
      await addQuestion.click();
      const question1 = page.getByLabel('Question 1', { exact: true });
      expect(await question1.evaluate((e) => e === e.ownerDocument.activeElement)).toBe(true);
      await question1.fill('How do I get a refund?');
      await expect.poll(() => previewShows(frame, 'How do I get a refund?')).toBe(true);
      for (const [i, text] of ['how do I get a refund? ', 'Spare'].entries()) {
        await addQuestion.click();
        // The new question's field takes the focus once it is drawn: type only then.
        const added = page.getByLabel(`Question ${i + 2}`, { exact: true });
        await expect.poll(() => added.evaluate((e) => e === e.ownerDocument.activeElement)).toBe(true);
        await page.keyboard.type(text);
        await expect.poll(() => added.inputValue()).toBe(text);
      }
      await page.getByRole('button', { name: 'Remove question 3', exact: true }).click();
      expect(await page.getByLabel('Question 3', { exact: true }).count()).toBe(0);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const questionsError = page.locator('#wc-suggestedQuestions-error');
      await expect.poll(() => questionsError.textContent()).toBe('question 2 repeats question 1');
      expect(await radiusError.textContent()).toBe('must be a number between 0.5 and 4');
      expect(await page.getByLabel('Question 2', { exact: true }).getAttribute('aria-describedby')).toContain(
        'wc-suggestedQuestions-error',
      );
      await page.getByLabel('Question 2', { exact: true }).fill('When will my parcel arrive?');
      // A link field: its title and its link, two inputs saved as one value (the link trimmed).
      await page.getByLabel('Website title', { exact: true }).fill('Our shop');
      await page.getByLabel('Website link', { exact: true }).fill(' https://shop.example.com/ ');

      await radius.fill('2');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const savedNotice = page.getByRole('status').filter({ hasText: 'Saved.' });
      await expect.poll(() => savedNotice.isVisible()).toBe(true);
      const unsavedWords = page.getByText('Unsaved changes: the preview shows them.');
      expect(await unsavedWords.count()).toBe(0);
      // After Save the preview loads again, and still leaves the focus where it was.
      await expect.poll(() => frame.isDetached()).toBe(true);
      const afterSave = await previewFrame(page, botId);
      await expect.poll(() => webchatColour(afterSave), { timeout: 15_000 }).toBe('#0A7F5A');
      expect(await previewTookFocus(page, afterSave)).toBe(false);
      // A change after Save: "Unsaved changes", and "Saved." is gone (never both at once).
      await page.getByLabel('Greeting', { exact: true }).fill('Hello again');
      await expect.poll(() => unsavedWords.isVisible()).toBe(true);
      expect(await savedNotice.count()).toBe(0);
      await page.reload();
      await expect.poll(() => page.getByLabel('Main colour', { exact: true }).inputValue()).toBe('#0A7F5A');
      expect(await page.getByLabel('Corner radius', { exact: true }).inputValue()).toBe('2');
      expect(await page.getByLabel('Name in the header', { exact: true }).inputValue()).toBe(TRICKY_TEXT);
      expect(await page.getByLabel('Question 2', { exact: true }).inputValue()).toBe(
        'When will my parcel arrive?',
      );
      expect(await page.getByLabel('Website title', { exact: true }).inputValue()).toBe('Our shop');
      expect(await page.getByLabel('Website link', { exact: true }).inputValue()).toBe(
        'https://shop.example.com/',
      );
      const saved = await suite.t.asOwner('GET', `/v1/admin/bots/${botId}/webchat`);
      expect(saved.json()).toEqual({
        configuration: {
          color: '#0A7F5A',
          radius: 2,
          botName: TRICKY_TEXT,
          greeting: 'Hello from **Acme**!',
          suggestedQuestions: ['How do I get a refund?', 'When will my parcel arrive?'],
          website: { title: 'Our shop', link: 'https://shop.example.com/' },
        },
      });
      const reloaded = await previewFrame(page, botId);
      await expect.poll(() => webchatColour(reloaded), { timeout: 15_000 }).toBe('#0A7F5A');
      await expect.poll(() => previewShows(reloaded, 'When will my parcel arrive?')).toBe(true);

      await page.getByRole('button', { name: 'Copy snippet' }).click();
      await expect
        .poll(() => page.evaluate('navigator.clipboard.readText()'))
        .toBe(`<script src="${suite.origin}/webchat/v1/inject.js" data-bot-id="${botId}" async></script>`);
      expect(await page.getByLabel('Hosted chat page', { exact: true }).inputValue()).toBe(
        `${suite.origin}/webchat/${botId}`,
      );
      expect(await page.evaluate('window.pwned')).toBeUndefined();
      expect(await reloaded.evaluate('window.pwned')).toBeUndefined();
      expect(await axe(page), 'designer').toEqual([]);
      await page.screenshot({ path: artifact('console-designer-1280.png'), fullPage: true });
      // The refused requests are the three Saves with the bad radius (the browser logs every 4xx answer).
      const refused = 'Failed to load resource: the server responded with a status of 400 (Bad Request)';
      expect(problems).toEqual([refused, refused, refused]);
    },
    BROWSER_FLOW_MS,
  );

  it(
    'viewer at 390 px, dark: the playground answers, the designer is read-only, the layout holds',
    async () => {
      const { page, problems } = await suite.newPage(390, 'dark');
      await page.goto(`${suite.origin}/console/bots/${botId}/playground`);
      await suite.signIn(page, viewer.password, viewer.email);
      await page.getByLabel('Question', { exact: true }).fill('refund');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect
        .poll(() => page.getByRole('region', { name: "The bot's reply" }).textContent())
        .toContain('within 30 days');
      expect(await overflows(page)).toBe(false);
      expect(await axe(page), 'playground, 390 px dark').toEqual([]);

      await page.getByRole('link', { name: 'Webchat', exact: true }).click();
      await expect
        .poll(() => page.getByText(/can look at the webchat configuration but not change it/).isVisible())
        .toBe(true);
      expect(await page.getByLabel('Main colour', { exact: true }).isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
      // The admin key is a chat secret a viewer may not read: no field for it.
      expect(await page.locator('#wc-adminKey').count()).toBe(0);
      expect(await page.getByLabel('Name in the header', { exact: true }).isVisible()).toBe(true);
      await previewFrame(page, botId);
      expect(await overflows(page)).toBe(false);
      expect(await axe(page), 'designer, 390 px dark').toEqual([]);
      await page.screenshot({ path: artifact('console-designer-390.png'), fullPage: true });
      expect(problems).toEqual([]);
    },
    BROWSER_FLOW_MS,
  );
});
