// The Console's search playground read as a person reads it (issue #37, items 4 and 5), in a real browser
// (Debian Chromium) against an in-process Parley with an indexed handbook. The bot's reply is Markdown rendered
// as the webchat renders it (a quote as a quote, links as links, markup sanitised the webchat's way: no script,
// no handler); passages show a rank and a bar of strength, never raw (negative) scores; "How the bot chose" is a
// table (rank, passage, document, page, why chosen) whose marked words and reasons agree; the labels are plain.
// axe finds nothing in light and dark at 1280 and 390 px.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { haveChromium } from '../packages/testkit/src/e2e/browser.js';
import { axe, OTHER_VIEWS, overflows, useConsoleSuite } from '../packages/testkit/src/e2e/console.js';
import { HANDBOOK, uploadIndexed } from '../packages/testkit/src/server/files-indexing.js';

const chromiumHere = haveChromium('console playground browser tests');

/** A Q&A entry's answer with markup the webchat's sanitiser removes, beside Markdown it keeps. */
const MARKUP_ANSWER =
  'Our **opening hours** are 9 to 5.\n\n> Closed on Sundays.\n\n- [Contact](https://example.com/contact)\n' +
  '<b onmouseover="window.pwned=1">hover</b> <script>window.pwned=2</script>' +
  '<form action="https://example.com/steal"><input name="card"></form>';

/** Asks the playground `question` in `mode` and waits for both panels. */
async function ask(page: Page, question: string, mode: 'hybrid' | 'lexical' = 'hybrid') {
  await page.getByLabel('Question', { exact: true }).fill(question);
  await page.getByLabel('Search mode', { exact: true }).selectOption(mode);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const reply = page.getByRole('region', { name: "The bot's reply" });
  await expect.poll(() => reply.getByText(/^(Answered|Not answered)$/).count()).toBe(1);
  await expect.poll(() => page.getByRole('button', { name: 'Search', exact: true }).isEnabled()).toBe(true);
  return reply;
}

describe.skipIf(!chromiumHere)('console playground in a browser', () => {
  const suite = useConsoleSuite({ workers: true });
  let botId: string;

  beforeAll(async () => {
    const { t } = suite;
    botId = t.botId;
    await uploadIndexed(t, 'handbook.md', HANDBOOK);
    const entry = await t.asOwner('POST', `/v1/admin/bots/${botId}/qa`, {
      questions: ['What are your opening hours?'],
      answer: MARKUP_ANSWER,
    });
    expect(entry.statusCode, entry.body).toBe(201);
  });

  it('renders the reply as the webchat does, ranks passages and explains the choice in a table', async () => {
    const { page, problems } = await suite.signedInPage(1280, 'light');
    await page.goto(`${suite.origin}/console/bots/${botId}/playground`);
    await page.getByRole('heading', { name: 'Search playground' }).waitFor();

    const reply = await ask(page, 'How long do I have to ask for a refund?');
    const text = reply.locator('.playground-reply');
    // The quoted passage is a quote, not a line starting with ">".
    await expect.poll(() => text.locator('blockquote').count()).toBeGreaterThan(0);
    expect(await text.locator('blockquote').textContent()).toContain('within 30 days');
    expect(await text.textContent()).not.toMatch(/(^|\n)\s*>/);
    expect(await reply.getByText("Quoted word for word from the bot's documents").isVisible()).toBe(true);
    expect(await reply.textContent()).not.toContain('Quoted from the knowledge');

    // Passages: a rank and a bar, no score figure.
    const results = page.getByRole('list', { name: 'Passages found' });
    await expect.poll(() => results.getByText('#1', { exact: true }).count()).toBe(1);
    expect(await results.textContent()).not.toMatch(/Score|-\d+\.\d/);
    // "how long" makes the question's form: it is not marked.
    const marked = (await results.locator('mark').allTextContents()).map((m) => m.toLowerCase());
    expect(marked).toContain('refund');
    expect(marked).not.toContain('long');

    // How the bot chose: a table whose marked words are the words its reason names.
    await reply.getByText('How the bot chose').click();
    const table = reply.getByRole('table', { name: 'Passages the bot weighed, best first' });
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Rank',
      'Passage',
      'Document',
      'Page',
      'Why chosen',
    ]);
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    let quoted = 0;
    for (const row of await rows.all()) {
      const cells = row.getByRole('cell');
      const marks = await cells.nth(1).locator('mark').allTextContents();
      const why = (await cells.nth(4).textContent()) ?? '';
      if (why.startsWith('Quoted')) quoted += 1;
      if (marks.length === 0) expect(why).toMatch(/no word of the question|close in meaning/);
      else for (const word of marks) expect(why).toContain(`“${word}”`);
      expect(await cells.nth(2).getByRole('link', { name: 'handbook.md' }).count()).toBe(1);
      expect(await cells.nth(0).textContent()).toMatch(/^#\d+/);
    }
    expect(quoted).toBeGreaterThan(0);
    expect(await reply.textContent()).not.toMatch(/score -?\d/);
    expect(await axe(page), 'playground, details open').toEqual([]);

    // Lexical scores are negative BM25 figures: still ranks and bars.
    await ask(page, 'refund card', 'lexical');
    await expect.poll(() => results.getByText('#1', { exact: true }).count()).toBe(1);
    expect(await results.textContent()).not.toMatch(/-\d/);
    const widths = await results
      .locator('.rank-fill')
      .evaluateAll((bars) =>
        bars.map((b) => Number.parseFloat((b as unknown as { style: { width: string } }).style.width)),
      );
    expect(widths[0]).toBe(100);
    for (const w of widths) expect(w).toBeGreaterThan(0);

    // A Q&A entry's Markdown, rendered and sanitised as the webchat does.
    await ask(page, 'What are your opening hours?');
    await expect.poll(() => text.locator('strong').textContent()).toBe('opening hours');
    expect(await text.locator('blockquote').textContent()).toContain('Closed on Sundays.');
    const link = text.getByRole('link', { name: 'Contact' });
    expect(await link.getAttribute('href')).toBe('https://example.com/contact');
    expect(await link.getAttribute('rel')).toContain('noopener');
    await text.getByText('hover').hover();
    expect(await text.locator('script, form, input, [onmouseover]').count()).toBe(0);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    // Chromium reports the page's CSP refusing the handler while DOMPurify parses the text in an inert document
    // (DOMParser): a second wall, the only problem allowed.
    expect(problems.filter((p) => !/^Executing inline event handler violates/.test(p))).toEqual([]);
  });

  for (const [width, scheme] of OTHER_VIEWS) {
    it(`is axe clean with the details open at ${width} px, ${scheme}`, async () => {
      const { page } = await suite.signedInPage(width, scheme);
      await page.goto(`${suite.origin}/console/bots/${botId}/playground`);
      await page.getByRole('heading', { name: 'Search playground' }).waitFor();
      const reply = await ask(page, 'How long do I have to ask for a refund?');
      await reply.getByText('How the bot chose').click();
      await reply.getByRole('table').waitFor();
      expect(await overflows(page)).toBe(false);
      expect(await axe(page)).toEqual([]);
    });
  }
});
