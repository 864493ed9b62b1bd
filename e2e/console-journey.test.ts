// The whole path a bot's owner takes in the Console, in a real browser (Debian Chromium), on an in-process Parley
// with its workers (indexing, the bot's replies): sign in → create a bot → create a knowledge base → drop a PDF,
// a DOCX and a Markdown file → watch them become indexed → search in the playground → change the webchat colour
// and see the preview change, save → visitors open the hosted chat and ask a question the documents answer and
// one they do not → both conversations appear in the open inbox without a reload → the unanswered question is
// listed in insights → a viewer is invited, joins through the link and is not offered deleting the bot → the
// audit records show the steps. Then the same pages at phone size (390 px, dark): the layout holds and axe finds
// nothing. And from the keyboard alone (Tab and Enter): sign in, create a bot, open it and a knowledge base,
// reach the file picker, sign out. Screenshots of each step are kept in e2e/artifacts/ (docs/console/ takes its
// pictures from there).
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium } from '../packages/testkit/src/e2e/browser.js';
import { axe, overflows, useConsoleSuite } from '../packages/testkit/src/e2e/console.js';
import { DOCX_TYPE, docxOf, pdfOf } from '../packages/testkit/src/e2e/documents.js';
import { inWebchat, sendFromComposer, webchatColour } from '../packages/testkit/src/e2e/webchat.js';

const chromiumHere = haveChromium('console journey browser tests');
const LONG = { timeout: 90_000, interval: 250 };
const LIVE = { timeout: 20_000, interval: 200 };
const NOT_FOUND = "I couldn't find anything about that in my knowledge base.";
const ANSWERED = 'How many days do I have to ask for a refund?';
const UNANSWERED = 'Is the Lyon office open on Sundays?';

const REFUNDS = `# Refunds

Refunds are accepted within 30 days of purchase, with the receipt. The money is returned to the card used.
`;

/** Where a screenshot is kept (e2e/artifacts/, a test artifact). */
const artifact = (name: string) =>
  fileURLToPath(new URL(`./artifacts/console-journey/${name}`, import.meta.url));
const shot = (page: Page, name: string) => page.screenshot({ path: artifact(name), fullPage: true });

describe.skipIf(!chromiumHere)('the Console, the whole path of an owner', () => {
  const suite = useConsoleSuite({ workers: true });
  let botPath = '';
  let botId = '';

  /** A visitor on the bot's hosted chat page asks `question`; answers the bot's reply as the visitor reads it. */
  async function visitorAsks(question: string): Promise<string> {
    const { page } = await suite.newPage(390, 'light');
    await page.goto(`${suite.origin}/webchat/${botId}`);
    await expect.poll(() => inWebchat(page, '.pw-window').isVisible(), LIVE).toBe(true);
    await sendFromComposer(page, question);
    const reply = inWebchat(page, '.pw-msg[data-from="bot"]');
    await expect.poll(() => reply.count(), LONG).toBeGreaterThan(0);
    return (await reply.last().textContent()) ?? '';
  }

  it('at 1280 px: from an empty workspace to a bot that answers, what visitors asked, and who did what', async () => {
    const { page, problems } = await suite.signedInPage(1280, 'light');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.origin });

    // A bot.
    await page.getByLabel('Bot name').fill('Acme help');
    await page.getByRole('button', { name: 'Create bot' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme help' }).waitFor();
    botPath = new URL(page.url()).pathname;
    botId = botPath.split('/').pop() ?? '';
    expect(botId).not.toBe('');
    await shot(page, '01-bot-1280.png');

    // A knowledge base, three documents dropped at once, indexed while we watch.
    await page.getByRole('link', { name: 'Knowledge', exact: true }).click();
    await page.getByLabel('Knowledge base name').fill('Support');
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.getByRole('heading', { name: 'Drop PDFs, Word or Markdown files here' }).waitFor();
    await page.getByLabel('Choose files').setInputFiles([
      { name: 'refunds.md', mimeType: 'text/markdown', buffer: Buffer.from(REFUNDS) },
      {
        name: 'shipping.pdf',
        mimeType: 'application/pdf',
        buffer: await pdfOf(['Parcels to Canada arrive within 5 business days.']),
      },
      {
        name: 'leave.docx',
        mimeType: DOCX_TYPE,
        buffer: await docxOf('Leave policy', ['Employees get 25 days of paid leave each year.']),
      },
    ]);
    const files = page.getByRole('list', { name: 'Files in this knowledge base' });
    for (const key of ['refunds.md', 'shipping.pdf', 'leave.docx']) {
      const row = files
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: key, exact: true }) });
      await expect.poll(() => row.textContent(), LONG).toContain('Indexed');
    }
    expect(await axe(page), 'knowledge base').toEqual([]);
    await shot(page, '02-knowledge-base-1280.png');

    // The playground: the passages and the reply the bot would give.
    await page.getByRole('link', { name: 'Playground', exact: true }).click();
    await page.getByLabel('Question', { exact: true }).fill(ANSWERED);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const results = page.getByRole('list', { name: 'Passages found' });
    await expect
      .poll(() => results.getByRole('link', { name: 'refunds.md' }).first().isVisible(), LIVE)
      .toBe(true);
    const preview = page.getByRole('region', { name: "The bot's reply" });
    await expect.poll(() => preview.textContent(), LIVE).toContain('30 days');
    expect(await axe(page), 'playground').toEqual([]);
    await shot(page, '03-playground-1280.png');

    // The webchat designer: the preview takes the colour before it is saved; Save keeps it.
    await page.getByRole('link', { name: 'Webchat', exact: true }).click();
    const colour = page.getByLabel('Main colour', { exact: true });
    await colour.waitFor();
    await expect
      .poll(() => page.frames().some((f) => f.url().endsWith(`/webchat/${botId}`)), LIVE)
      .toBe(true);
    const frame = page.frames().find((f) => f.url().endsWith(`/webchat/${botId}`)) as Frame;
    await expect.poll(() => webchatColour(frame), LIVE).toBe('#3276EA');
    await colour.fill('#B4235A');
    await expect.poll(() => webchatColour(frame), LIVE).toBe('#B4235A');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).isVisible()).toBe(true);
    const saved = await suite.t.asOwner('GET', `/v1/admin/bots/${botId}/webchat`);
    // A new bot's defaults (feedback thumbs, the "Talk to a person" button) stay beside the saved colour.
    expect(saved.json()).toEqual({
      configuration: { feedbackEnabled: true, handoffButton: true, color: '#B4235A' },
    });
    await shot(page, '04-webchat-designer-1280.png');

    // The inbox, open while visitors ask on the hosted chat page (another browser profile each).
    await page.getByRole('link', { name: 'Conversations', exact: true }).click();
    await page.getByText('No conversations yet.').waitFor();
    const answer = await visitorAsks(ANSWERED);
    expect(answer).toContain('30 days');
    expect(await visitorAsks(UNANSWERED)).toContain(NOT_FOUND);
    const conversations = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
    await expect.poll(() => conversations.count(), LIVE).toBe(2);
    await expect.poll(() => page.getByRole('link', { name: UNANSWERED, exact: true }).count(), LIVE).toBe(1);
    await page.getByRole('checkbox', { name: 'Not answered' }).check();
    await expect.poll(() => conversations.count(), LIVE).toBe(1);
    await page.getByRole('checkbox', { name: 'Not answered' }).uncheck();
    await expect.poll(() => conversations.count(), LIVE).toBe(2);
    expect(await axe(page), 'inbox').toEqual([]);
    await shot(page, '05-inbox-1280.png');

    // Insights: the question nobody answered, the list to add documents from.
    await page.getByRole('link', { name: 'Insights', exact: true }).click();
    const unanswered = page.getByRole('list', { name: 'Unanswered questions' });
    await expect.poll(() => unanswered.textContent(), LIVE).toContain(UNANSWERED);
    expect(await axe(page), 'insights').toEqual([]);
    await shot(page, '06-insights-1280.png');

    // A viewer, invited by link: joins, signs in, sees the bot but is not offered deleting it.
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    const viewer = { email: `viewer-${Date.now()}@example.com`, password: 'the viewer password 42' };
    await page.getByLabel('Email').fill(viewer.email);
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Viewer' });
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = await page.getByLabel('Invitation link').inputValue();
    const invitee = await suite.newPage(1280, 'light');
    await invitee.page.goto(link);
    await invitee.page.getByLabel('Name').fill('Vera Viewer');
    await invitee.page.getByLabel('Password').fill(viewer.password);
    await invitee.page.getByRole('button', { name: 'Join' }).click();
    await invitee.page.getByText(/Now sign in\.$/).waitFor();
    await invitee.page.getByLabel('Password').fill(viewer.password);
    await invitee.page.getByRole('button', { name: 'Sign in' }).click();
    await invitee.page.getByRole('link', { name: 'Acme help', exact: true }).click();
    await invitee.page.getByRole('heading', { level: 1, name: 'Acme help' }).waitFor();
    await invitee.page.getByRole('heading', { name: 'Access keys' }).waitFor();
    expect(await invitee.page.getByRole('button', { name: 'Delete bot' }).count()).toBe(0);
    // Asked anyway (with the viewer's own session), the Admin API refuses.
    const refused = await invitee.page.evaluate(
      ([id, workspace]) =>
        fetch(`/v1/admin/bots/${id}`, { method: 'DELETE', headers: { 'x-workspace-id': workspace } }).then(
          (r) => r.status,
        ),
      [botId, suite.t.workspaceId] as const,
    );
    expect(refused).toBe(403);
    expect(invitee.problems.filter((p) => !/status of 403/.test(p))).toEqual([]);

    // The audit records tell the story.
    await page.getByRole('link', { name: 'Audit', exact: true }).click();
    const records = page.getByRole('list', { name: 'Audit records' }).getByRole('listitem');
    await expect.poll(() => records.count(), LIVE).toBeGreaterThan(2);
    const story = (await records.allTextContents()).join('\n');
    for (const step of ['Bot created', 'Webchat changed', 'Member invited']) expect(story).toContain(step);
    expect(await axe(page), 'audit').toEqual([]);
    await shot(page, '07-audit-1280.png');
    expect(problems).toEqual([]);
  }, 300_000);

  it('at 390 px, dark: each page of that path holds on a phone', async () => {
    expect(botPath, 'the 1280-px path ran first').not.toBe('');
    const { page, problems } = await suite.signedInPage(390, 'dark');
    const pages = [
      ['bots', '/console/bots', 'Bots'],
      ['knowledge', `${botPath}/knowledge`, 'Knowledge bases'],
      ['playground', `${botPath}/playground`, 'Search playground'],
      ['webchat-designer', `${botPath}/webchat`, 'Webchat'],
      ['inbox', `${botPath}/conversations`, 'Conversations'],
      ['insights', `${botPath}/insights`, 'Insights'],
      ['audit', '/console/audit', 'Audit records'],
    ] as const;
    for (const [name, path, heading] of pages) {
      await page.goto(`${suite.origin}${path}`);
      await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
      await page
        .getByRole('status')
        .filter({ hasText: /^Loading/ })
        .first()
        .waitFor({ state: 'detached' });
      expect(await overflows(page), `${name} at 390 px`).toBe(false);
      expect(await axe(page), `${name} at 390 px dark`).toEqual([]);
      await shot(page, `${name}-390-dark.png`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('from the keyboard alone: sign in, create a bot, open it and a knowledge base, sign out', async () => {
    const { page, problems } = await suite.newPage(1280, 'light');
    await page.goto(`${suite.origin}/console/`);
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    /** Presses Tab until the focused element is `name` (its accessible name: label or text). */
    async function tabTo(name: string): Promise<void> {
      for (let presses = 0; presses < 80; presses += 1) {
        await page.keyboard.press('Tab');
        const focused = (await page.evaluate(`(() => {
          const e = document.activeElement;
          if (!e) return '';
          const label = e.id ? document.querySelector('label[for="' + e.id + '"]') : null;
          return (label ? label.textContent : e.getAttribute('aria-label') || e.textContent || '').trim();
        })()`)) as string;
        if (focused === name) return;
      }
      throw new Error(`Tab never reached "${name}"`);
    }
    await tabTo('Email');
    await page.keyboard.type(suite.t.owner.email);
    await tabTo('Password');
    await page.keyboard.type(suite.t.owner.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Bots' }).waitFor();
    await tabTo('Bot name');
    await page.keyboard.type('Keyboard bot');
    // Creating opens the new bot.
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Keyboard bot' }).waitFor();
    await tabTo('Knowledge');
    await page.keyboard.press('Enter');
    await tabTo('Knowledge base name');
    await page.keyboard.type('Typed');
    // Creating opens the new knowledge base.
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Drop PDFs, Word or Markdown files here' }).waitFor();
    // The drop zone's picker is a button the keyboard reaches (a file dialog would open on Enter).
    await tabTo('Choose files');
    await tabTo('Sign out');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    expect(problems).toEqual([]);
  });
});
