// The Console's Q&A entries in a real browser (Debian Chromium, under the strict CSP), against an in-process
// Parley with its chat workers: a visitor's question the bot could not answer on the hosted webchat shows in
// Insights; "Answer this" opens the entry form filled with it; once saved, the hosted webchat answers the same
// question put in other words with the entry (matched by words: the test app has no embedder), and Insights
// counts the reply the entry gave and no longer lists the question it now answers. The Q&A page as a person uses it:
// add (a refused link says why), edit, search, disable and delete (confirmed); the answer's Markdown shows as the
// chat shows it and markup never runs; a viewer reads but is offered no change; axe finds nothing; 390 px holds.
// The inbox: "Answer this" under a conversation the bot could not answer, and once the entry is saved the
// conversation and its row are marked "Answered by a Q&A entry since".
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium } from '../packages/testkit/src/e2e/browser.js';
import { axe, overflows, useConsoleSuite } from '../packages/testkit/src/e2e/console.js';
import { inWebchat, sendFromComposer } from '../packages/testkit/src/e2e/webchat.js';
import { uploadIndexed } from '../packages/testkit/src/server/files-indexing.js';

const chromiumHere = haveChromium('console Q&A browser tests');

/** The bot's replies the hosted webchat shows (not the greeting), as text. */
const botSaid = (page: Page) =>
  inWebchat(page, '.pw-msg[data-from="bot"][data-message-id]').allTextContents();

/** The value of the Insights figure named `name`. */
const tile = (page: Page, name: string) => page.locator('.tile', { hasText: name }).locator('.tile-value');

describe.skipIf(!chromiumHere)('console Q&A entries in a browser', () => {
  const suite = useConsoleSuite({ workers: true });

  /** The hosted webchat of the bot in a fresh profile: asks `question` and answers the bot's reply, as text. */
  async function askHostedWebchat(question: string): Promise<string> {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(`${suite.origin}/webchat/${suite.t.botId}`);
      await inWebchat(page, 'textarea').waitFor({ timeout: 15_000 });
      await sendFromComposer(page, question);
      await expect.poll(() => botSaid(page), { timeout: 20_000 }).toHaveLength(1);
      return (await botSaid(page))[0] ?? '';
    } finally {
      await context.close();
    }
  }

  /** The bot's Q&A entries through the Admin API. */
  async function entries() {
    const res = await suite.t.asOwner('GET', `/v1/admin/bots/${suite.t.botId}/qa?pageSize=100`);
    expect(res.statusCode).toBe(200);
    return (
      res.json() as { entries: Array<{ id: string; questions: string[]; answer: string; enabled: boolean }> }
    ).entries;
  }

  it('Insights → "Answer this" → save: the hosted webchat answers the question in other words with the entry', async () => {
    // A visitor asks on the hosted webchat; the bot knows nothing about it.
    const unanswered = await askHostedWebchat('Do you ship to Canada?');
    expect(unanswered).toMatch(/couldn't find anything/i);

    const { page, problems } = await suite.signedInPage(1280, 'light');
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/insights`);
    const rows = page.getByRole('list', { name: 'Unanswered questions' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().locator('.list-title').textContent()).toBe('Do you ship to Canada?');
    expect(await tile(page, 'Q&A entries').textContent()).toBe('0');

    await rows
      .first()
      .getByRole('link', { name: /Answer this/ })
      .click();
    // The Q&A page, its form filled with the visitor's words.
    await expect.poll(() => page.getByRole('heading', { name: 'New entry' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe(`/console/bots/${suite.t.botId}/qa`);
    expect(await page.getByLabel('Questions').inputValue()).toBe('Do you ship to Canada?');
    await page
      .getByLabel('Answer', { exact: true })
      .fill('Yes: we ship to **Canada** in 5 to 8 days. See [shipping](https://example.com/shipping).');
    // The preview shows the answer as the chat does.
    expect(await page.locator('.qa-preview strong').textContent()).toBe('Canada');
    expect(await axe(page), 'Q&A form').toEqual([]);
    await page.getByRole('button', { name: 'Add entry' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Entry "Do you ship to Canada?" added. The bot answers it from now on.');
    // The form is closed and the address no longer carries the question.
    expect(new URL(page.url()).search).toBe('');
    const list = page.getByRole('list', { name: 'Q&A entries' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);

    // The next visitor, in other words, gets the entry's answer.
    const answered = await askHostedWebchat('Can you ship my order to Canada?');
    expect(answered).toContain('we ship to Canada in 5 to 8 days');

    // Insights counts the reply an entry gave, and no longer lists the question an entry now answers.
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/insights`);
    await expect.poll(() => tile(page, 'Q&A entries').textContent()).toBe('1');
    await expect.poll(() => page.getByText('No unanswered questions in this period.').isVisible()).toBe(true);

    expect(problems).toEqual([]);
  }, 90_000);

  it('inbox → "Answer this" → a sentence of the knowledge picked → save: the conversation is marked, in the list too', async () => {
    const unanswered = await askHostedWebchat('Where is my parcel?');
    expect(unanswered).toMatch(/couldn't find anything/i);
    const conversation = (
      (
        await suite.t.asOwner('GET', `/v1/admin/bots/${suite.t.botId}/conversations?unanswered=true`)
      ).json() as { conversations: Array<{ id: string; lastQuestion?: string }> }
    ).conversations.find((c) => c.lastQuestion === 'Where is my parcel?');
    expect(conversation).toBeDefined();
    const conversationPath = `/console/bots/${suite.t.botId}/conversations/${conversation?.id}`;

    // Since then, a document telling about parcels was added: its sentences are offered to pick.
    await uploadIndexed(
      suite.t,
      'parcels.md',
      '# Parcels\n\nEvery parcel is tracked. Follow your parcel with the tracking link in your shipping e-mail. Parcels arrive in 2 to 4 days.\n',
    );

    const { page, problems } = await suite.signedInPage(1280, 'light');
    await page.goto(`${suite.origin}${conversationPath}`);
    const teach = page.getByRole('region', { name: 'Teach the bot' });
    const questions = teach.getByRole('list', { name: 'Questions to answer' }).getByRole('listitem');
    await expect.poll(() => questions.count()).toBe(1);
    expect(await questions.first().locator('.list-title').textContent()).toBe('Where is my parcel?');
    expect(await teach.locator('.badge-corrected').count()).toBe(0);
    expect(await axe(page), 'conversation with Teach the bot').toEqual([]);
    await questions
      .first()
      .getByRole('link', { name: /Answer this/ })
      .click();
    await expect.poll(() => page.getByRole('heading', { name: 'New entry' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Questions').inputValue()).toBe('Where is my parcel?');
    // The answer: a sentence of the knowledge picked, then a word of one's own.
    const sentences = page.getByRole('list', { name: 'Sentences from parcels.md' }).getByRole('listitem');
    await expect.poll(() => sentences.count()).toBe(3);
    expect(await sentences.allTextContents()).toEqual([
      expect.stringContaining('Every parcel is tracked.'),
      expect.stringContaining('Follow your parcel with the tracking link in your shipping e-mail.'),
      expect.stringContaining('Parcels arrive in 2 to 4 days.'),
    ]);
    await sentences.nth(1).getByRole('button', { name: /^Use/ }).click();
    const answerField = page.getByLabel('Answer', { exact: true });
    expect(await answerField.inputValue()).toBe(
      'Follow your parcel with the tracking link in your shipping e-mail.',
    );
    await sentences.nth(2).getByRole('button', { name: /^Use/ }).click();
    expect(await answerField.inputValue()).toBe(
      'Follow your parcel with the tracking link in your shipping e-mail. Parcels arrive in 2 to 4 days.',
    );
    expect(await axe(page), 'Q&A form with sentences to pick').toEqual([]);
    await page.getByRole('button', { name: 'Add entry' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Entry "Where is my parcel?" added. The bot answers it from now on.');

    // The conversation and its row in the inbox are marked: an entry saved since answers its question.
    await page.goto(`${suite.origin}${conversationPath}`);
    await expect
      .poll(() => teach.locator('.qa-corrected').textContent())
      .toMatch(/^Answered by a Q&A entry since .+“Where is my parcel\?” gets its Q&A entry's answer now\.$/);
    // The next visitor, in other words, gets the entry's answer.
    expect(await askHostedWebchat('where is my parcel right now')).toContain(
      'Follow your parcel with the tracking link in your shipping e-mail. Parcels arrive in 2 to 4 days.',
    );

    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/conversations`);
    const row = page.locator('.inbox-row', { hasText: 'Where is my parcel?' });
    await expect.poll(() => row.locator('.badge-corrected').count()).toBe(1);
    expect(await row.locator('.badge-corrected').textContent()).toMatch(/^Answered by a Q&A entry since /);
    // The conversation the entry answered needed no correction: no mark.
    const answered = page.locator('.inbox-row', { hasText: 'where is my parcel right now' });
    await expect.poll(() => answered.count()).toBe(1);
    expect(await answered.locator('.badge-corrected').count()).toBe(0);
    expect(await axe(page), 'inbox with a corrected conversation').toEqual([]);
    expect(problems).toEqual([]);
  }, 90_000);

  it('the Q&A page: add, a refused link in words, edit, search, disable, delete; markup never runs', async () => {
    const { page, problems } = await suite.signedInPage(1280, 'light');
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}`);
    await page.getByRole('navigation', { name: 'Bot sections' }).getByRole('link', { name: 'Q&A' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Q&A' }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Add an entry' }).click();
    await page.getByLabel('Questions').fill('What are your opening hours?\nWhen are you open?');
    await page.getByLabel('Answer', { exact: true }).fill('Open [daily](javascript:alert(1)) from 9 to 5.');
    await page.getByLabel('Tags').fill('topic=hours');
    await page.getByRole('button', { name: 'Add entry' }).click();
    // The Admin API refuses the link; the form says why and nothing is saved.
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/javascript:alert.*may lead only to http\(s\), mailto: and tel:/);
    expect((await entries()).some((e) => e.questions.includes('When are you open?'))).toBe(false);
    await page
      .getByLabel('Answer', { exact: true })
      .fill('Open **daily** from 9 to 5. <script>window.pwned=1</script>');
    await page.getByRole('button', { name: 'Add entry' }).click();
    const row = page.getByRole('listitem', { name: 'What are your opening hours?' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('.qa-answer strong').textContent()).toBe('daily');
    expect(await row.textContent()).toContain('Also asked as: When are you open?');
    expect(await row.textContent()).toContain('topic=hours');
    // The answer shows as the chat shows it (the webchat's renderer, b04ed12): raw HTML is dropped, never run.
    expect(await row.locator('.qa-answer').textContent()).not.toContain('pwned');
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await row.locator('script').count()).toBe(0);
    const saved = (await entries()).find((e) => e.questions[0] === 'What are your opening hours?');
    expect(saved?.questions).toEqual(['What are your opening hours?', 'When are you open?']);
    expect(saved?.enabled).toBe(true);

    // Edit: the form in place, with the entry's values.
    await row.getByRole('button', { name: 'Edit' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Edit entry' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Tags').inputValue()).toBe('topic=hours');
    await page.getByLabel('Answer', { exact: true }).fill('Open daily from 8 to 6.');
    await page.getByRole('button', { name: 'Save entry' }).click();
    await expect
      .poll(async () => (await row.locator('.qa-answer').textContent())?.trim())
      .toBe('Open daily from 8 to 6.');
    expect((await entries()).find((e) => e.id === saved?.id)?.answer).toBe('Open daily from 8 to 6.');

    // Search narrows the list on the server.
    const list = page.locator('ul[aria-label="Q&A entries"] > li');
    await expect.poll(() => list.count()).toBeGreaterThan(1);
    await page.getByLabel('Search entries').fill('opening');
    await expect.poll(() => list.count()).toBe(1);
    expect(await axe(page), 'Q&A list').toEqual([]);

    // Disable: the switch, the badge and the stored entry.
    await row.getByRole('checkbox', { name: /Enabled/ }).uncheck();
    await expect.poll(() => row.locator('.badge').textContent()).toBe('Disabled');
    expect((await entries()).find((e) => e.id === saved?.id)?.enabled).toBe(false);

    // Delete asks first; Cancel keeps it, Yes deletes it.
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, delete this entry' }).click();
    await expect.poll(() => page.getByText('No entry matches this search.').isVisible()).toBe(true);
    expect((await entries()).some((e) => e.id === saved?.id)).toBe(false);
    // The one refusal the browser logs is the 400 of the refused link.
    expect(problems).toEqual([expect.stringContaining('status of 400')]);
  }, 60_000);

  it('a viewer reads the entries but is offered no change; 390 px, dark, holds', async () => {
    const created = await suite.t.asOwner('POST', `/v1/admin/bots/${suite.t.botId}/qa`, {
      questions: ['Where is the office?'],
      answer: 'In **Lyon**.',
      tags: { topic: 'office' },
    });
    expect(created.statusCode).toBe(201);
    const viewer = await suite.joinAs('viewer');
    const { page, problems } = await suite.newPage(390, 'dark');
    await page.goto(`${suite.origin}/console/`);
    await suite.signIn(page, viewer.password, viewer.email);
    await page.getByRole('heading', { name: 'Bots' }).waitFor();
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/qa`);
    const row = page.getByRole('listitem', { name: 'Where is the office?' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('.qa-answer strong').textContent()).toBe('Lyon');
    expect(await page.getByRole('button', { name: 'Add an entry' }).count()).toBe(0);
    expect(await row.getByRole('button').count()).toBe(0);
    expect(await row.getByRole('checkbox').count()).toBe(0);
    // "Answer this" is offered only to who may write an entry.
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/qa?ask=Where%20is%20the%20office%3F`);
    await expect.poll(() => row.count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'New entry' }).count()).toBe(0);
    expect(await overflows(page)).toBe(false);
    expect(await axe(page), 'Q&A, viewer, 390 px dark').toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);
});
