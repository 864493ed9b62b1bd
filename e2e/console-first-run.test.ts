// The Console's first run and its phone layout (issue #37, items 2 and 9, and the sign-in page's hint of item 6),
// in a real browser (Debian Chromium) against an in-process Parley. An empty workspace shows a "Get started"
// checklist whose steps tick themselves from what is there (a bot, a document, a question in the Playground, a
// webchat field saved, a second member), which a member can hide (remembered on that browser for that member);
// the sign-in page names where the first owner's password is only on a browser nobody signed in on. At 390 px
// the top bar folds into a Menu button (aria-expanded, Escape closes it) and a bot's current tab stays in view
// in a tab strip showing no scrollbar. axe finds nothing in light and dark at 1280 and 390 px.
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { haveChromium } from '../packages/testkit/src/e2e/browser.js';
import { axe, OTHER_VIEWS, overflows, useConsoleSuite } from '../packages/testkit/src/e2e/console.js';

const chromiumHere = haveChromium('console first-run browser tests');
const LONG = { timeout: 90_000, interval: 250 };

/** The checklist's steps as a person hears them: "label (done)" or "label (to do)". */
async function steps(page: Page): Promise<string[]> {
  const list = page.getByRole('region', { name: 'Get started' }).getByRole('listitem');
  return (await list.evaluateAll((items) =>
    items.map((li) => {
      const what = li.querySelector('.first-run-what');
      const label = what?.firstElementChild?.textContent ?? '';
      return `${label}${what?.querySelector('.visually-hidden')?.textContent ?? ''}`;
    }),
  )) as string[];
}

/** Opens the Playground from the "Get started" checklist, asks `question`, and waits for the bot's reply. */
async function askInPlayground(page: Page, question: string): Promise<void> {
  await page
    .getByRole('region', { name: 'Get started' })
    .getByRole('link', { name: 'Try it in the Playground' })
    .click();
  await page.getByLabel('Question', { exact: true }).fill(question);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page
    .getByRole('region', { name: "The bot's reply" })
    .getByText(/^(Answered|Not answered)$/)
    .waitFor();
}

describe.skipIf(!chromiumHere)('console first run and phone layout in a browser', () => {
  const suite = useConsoleSuite({ workers: true });

  beforeAll(async () => {
    // An empty workspace: the harness's bot goes.
    const gone = await suite.t.asOwner('DELETE', `/v1/admin/bots/${suite.t.botId}`);
    expect(gone.statusCode, gone.body).toBeLessThan(300);
  });

  it('an empty workspace gets a checklist that ticks itself, and hides when dismissed', async () => {
    const { page, problems } = await suite.newPage(1280, 'light');
    await page.goto(`${suite.origin}/console/`);
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    // Nobody signed in on this browser yet: where the first owner's password is.
    expect(await page.getByText(/first owner's password was printed/).isVisible()).toBe(true);
    await suite.signIn(page);
    const checklist = page.getByRole('region', { name: 'Get started' });
    await expect.poll(() => checklist.isVisible()).toBe(true);
    expect(await steps(page)).toEqual([
      'Create a bot (to do)',
      'Add knowledge (to do)',
      'Try it in the Playground (to do)',
      'Shape and embed the webchat (to do)',
      'Invite your team (to do)',
    ]);
    expect(await checklist.getByText('0 of 5 done').isVisible()).toBe(true);
    expect(await axe(page), 'checklist, 1280 light').toEqual([]);

    // A bot (creating opens it), a document on its knowledge base.
    await page.getByLabel('Bot name').fill('Acme help');
    await page.getByRole('button', { name: 'Create bot' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme help' }).waitFor();
    const botId = new URL(page.url()).pathname.split('/').pop() ?? '';
    await page.getByRole('link', { name: 'Bots', exact: true }).click();
    await expect.poll(() => checklist.getByText('1 of 5 done').isVisible()).toBe(true);
    await checklist.getByRole('link', { name: 'Add knowledge' }).click();
    await page.getByLabel('Knowledge base name').fill('Support');
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.getByLabel('Choose files').setInputFiles([
      {
        name: 'refunds.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from('# Refunds\n\nWithin 30 days.\n'),
      },
    ]);
    const files = page.getByRole('list', { name: 'Files in this knowledge base' });
    await expect.poll(() => files.textContent(), LONG).toContain('Indexed');

    // The Playground, asked once.
    await page.getByRole('link', { name: 'Bots', exact: true }).click();
    await askInPlayground(page, 'How long for a refund?');

    // The webchat: a field beyond a new bot's, saved.
    const saved = await suite.t.asOwner('PUT', `/v1/admin/bots/${botId}/webchat`, {
      configuration: { feedbackEnabled: true, handoffButton: true, color: '#0b5fcc' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await page.getByRole('link', { name: 'Bots', exact: true }).click();
    await expect.poll(() => checklist.getByText('4 of 5 done').isVisible()).toBe(true);
    expect(await steps(page)).toEqual([
      'Create a bot (done)',
      'Add knowledge (done)',
      'Try it in the Playground (done)',
      'Shape and embed the webchat (done)',
      'Invite your team (to do)',
    ]);
    expect(await checklist.getByRole('link', { name: 'Invite your team' }).getAttribute('href')).toBe(
      '/console/team',
    );
    // docs/console/first-run.png is taken from here.
    await page.screenshot({
      path: fileURLToPath(new URL('./artifacts/console-first-run.png', import.meta.url)),
    });

    // Hidden, and still hidden after a reload (this browser remembers it for this member).
    await checklist.getByRole('button', { name: 'Hide this checklist' }).click();
    expect(await checklist.count()).toBe(0);
    await page.reload();
    await page.getByRole('link', { name: 'Acme help', exact: true }).waitFor();
    expect(await checklist.count()).toBe(0);

    // Signed out, this browser does not show the first owner's password hint any more.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    expect(await page.getByText(/first owner's password/).count()).toBe(0);
    expect(problems).toEqual([]);
  }, 180_000);

  it('another browser shows the checklist until every step is done; axe clean in dark and at 390 px', async () => {
    for (const [width, scheme] of OTHER_VIEWS) {
      const { page, problems } = await suite.signedInPage(width, scheme);
      const checklist = page.getByRole('region', { name: 'Get started' });
      // The Playground was asked on the first browser only (remembered there), and the bot had no conversation.
      await expect.poll(() => checklist.getByText('3 of 5 done').isVisible()).toBe(true);
      expect(await overflows(page), `${width} ${scheme}`).toBe(false);
      expect(await axe(page), `checklist, ${width} ${scheme}`).toEqual([]);
      expect(problems).toEqual([]);
    }
    // A second member (an invitation is enough): every step done, the checklist goes.
    const invited = await suite.t.asOwner('POST', '/v1/admin/workspace-members', {
      email: `someone-${Date.now()}@example.com`,
      role: 'developer',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const { page } = await suite.signedInPage(1280, 'light');
    const checklist = page.getByRole('region', { name: 'Get started' });
    await expect.poll(() => checklist.getByText('4 of 5 done').isVisible()).toBe(true);
    await askInPlayground(page, 'Refunds?');
    await page.getByRole('link', { name: 'Bots', exact: true }).click();
    await page.getByRole('link', { name: 'Acme help', exact: true }).waitFor();
    // Once what it reads has come (it shows nothing before), it is gone.
    await page.waitForLoadState('networkidle');
    expect(await checklist.count()).toBe(0);
  }, 180_000);

  it('at 390 px: the top bar folds into a menu, the current bot tab stays in view without a scrollbar', async () => {
    const made = await suite.t.asOwner('POST', '/v1/admin/bots', { name: 'Phone bot' });
    expect(made.statusCode, made.body).toBe(201);
    const botId = (made.json() as { bot: { id: string } }).bot.id;
    for (const scheme of ['light', 'dark'] as const) {
      const { page, problems } = await suite.signedInPage(390, scheme);
      const menu = page.getByRole('button', { name: 'Menu' });
      const sections = page.getByRole('navigation', { name: 'Sections' });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await sections.isVisible()).toBe(false);
      const bar = await page.locator('header.topbar').boundingBox();
      expect(bar?.height).toBeLessThan(70);
      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      expect(await sections.getByRole('link', { name: 'Team' }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Sign out', exact: true }).isVisible()).toBe(true);
      expect(await axe(page), `menu open, 390 ${scheme}`).toEqual([]);
      await page.keyboard.press('Escape');
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await sections.isVisible()).toBe(false);
      expect(await page.evaluate('document.activeElement?.textContent')).toBe('Menu');
      // Going to a page closes it.
      await menu.click();
      await sections.getByRole('link', { name: 'Team' }).click();
      await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
      expect(await menu.getAttribute('aria-expanded')).toBe('false');

      // The last tab of a bot, opened by its address: in view in the strip, and the strip shows no scrollbar.
      await page.goto(`${suite.origin}/console/bots/${botId}/logs`);
      const strip = page.getByRole('navigation', { name: 'Bot sections' });
      const current = strip.getByRole('link', { name: 'Logs' });
      await current.waitFor();
      await expect
        .poll(async () => {
          const [s, c] = [await strip.boundingBox(), await current.boundingBox()];
          // Within the strip's box (a pixel's fraction aside).
          return !!s && !!c && c.x >= s.x - 1 && c.x + c.width <= s.x + s.width + 1;
        })
        .toBe(true);
      expect(await current.getAttribute('aria-current')).toBe('page');
      expect(
        await strip.evaluate(
          (e) => (globalThis as unknown as StyleReader).getComputedStyle(e).scrollbarWidth,
        ),
      ).toBe('none');
      expect(await strip.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
      expect(await overflows(page)).toBe(false);
      expect(await axe(page), `logs tab, 390 ${scheme}`).toEqual([]);
      expect(problems).toEqual([]);
    }
    // On a wide screen there is no menu button: the sections are in the bar.
    const wide = await suite.signedInPage(1280, 'light');
    expect(await wide.page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    expect(await wide.page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true);
  }, 180_000);
});

/** The browser's getComputedStyle, typed here: the test project has no DOM library. */
interface StyleReader {
  getComputedStyle(e: unknown): { scrollbarWidth: string };
}
