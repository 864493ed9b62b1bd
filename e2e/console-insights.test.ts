// The Console's Insights and Operations in a real browser (Debian Chromium, under the strict CSP): seeded
// conversations of the bootstrap bot (visitors' questions through the Chat API, the bot's replies as the chat
// reply job posts them, one the knowledge bot's "I couldn't find anything…") show as figures, uPlot charts with
// their text alternative and the top unanswered questions (markup stays text); the period switch asks again;
// the audit page filters by action and actor; the logs page shows lines, filters by level and adds a new line
// under live tail without a reload; the usage page shows bars in words; axe finds nothing; 390 px holds.
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { NOT_FOUND_TEXT } from '../packages/server/src/modules/answers/format.js';
import { chatRepo } from '../packages/server/src/modules/chat/repo.js';
import { haveChromium } from '../packages/testkit/src/e2e/browser.js';
import { axe, overflows, useConsoleSuite } from '../packages/testkit/src/e2e/console.js';
import { askAndReply, chatClient, type TestChatUser } from '../packages/testkit/src/server/chat.js';

const chromiumHere = haveChromium('console insights browser tests');
/** Where a screenshot is kept (e2e/artifacts/, a test artifact). */
const artifact = (name: string) => fileURLToPath(new URL(`./artifacts/${name}`, import.meta.url));

const XSS = '<img src=x onerror=window.pwned=1> do you ship to Mars';

describe.skipIf(!chromiumHere)('console insights and operations in a browser', () => {
  const suite = useConsoleSuite({
    env: {
      PARLEY_QUOTA_BOTS_PER_WORKSPACE: '10',
      PARLEY_QUOTA_FILE_STORAGE_BYTES: '10000000000',
      PARLEY_QUOTA_BOT_FILE_STORAGE_BYTES: '1000000000',
    },
  });
  let user: TestChatUser;
  let seeded = false;

  /** Two visitors' conversations: three questions not found (two about refunds), one answered with a thumbs up. */
  async function seed(): Promise<void> {
    if (seeded) return;
    seeded = true;
    const { t } = suite;
    const api = chatClient(t);
    const chat = t.app.services.chat;
    const bot = await chat.bot(t.botId);
    const ask = (visitor: TestChatUser, conversationId: string, question: string, reply: string) =>
      askAndReply({ api, chat, bot }, visitor, conversationId, question, reply);
    user = await api.user();
    const first = await api.conversation(user);
    await ask(user, first, 'How do I get a refund?', NOT_FOUND_TEXT);
    const answered = await ask(user, first, 'What are your opening hours?', 'We open at 9.');
    await chatRepo(t.db.kysely).setFeedback(t.botId, answered, JSON.stringify({ value: 'positive' }));
    const other = await api.user();
    const second = await api.conversation(other);
    await ask(other, second, XSS, NOT_FOUND_TEXT);
    await ask(other, second, 'Refunds?', NOT_FOUND_TEXT);
  }

  /** The insights requests the page makes, by their period. */
  function insightsRequests(page: Page): string[] {
    const periods: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/v1/admin/') && url.pathname.endsWith('/insights'))
        periods.push(url.searchParams.get('period') ?? '');
    });
    return periods;
  }

  const tile = (page: Page, name: string) => page.locator('.tile', { hasText: name }).locator('.tile-value');

  it('insights: figures, charts with their numbers in words, the unanswered questions as text, the period switch', async () => {
    await seed();
    const { page, problems } = await suite.signedInPage(1280, 'light');
    const periods = insightsRequests(page);
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/insights`);
    await expect.poll(() => tile(page, 'Conversations').textContent()).toBe('2');
    expect(await tile(page, 'Messages').textContent()).toBe('8');
    expect(await tile(page, 'Answered').textContent()).toBe('25%');
    expect(await tile(page, 'Not found').textContent()).toBe('75%');
    expect(await tile(page, 'Positive feedback').textContent()).toBe('100%');

    // The charts: uPlot's canvas, and their text alternative (a name in words, the numbers as a table).
    await expect.poll(() => page.locator('.chart-canvas canvas').count()).toBe(2);
    const chart = page.getByRole('img', { name: /Replies answered and not found/ });
    expect(await chart.getAttribute('aria-label')).toContain('1 answered and 3 not found (75% not found)');
    expect(
      await page.locator('table caption', { hasText: 'Conversations and visitor messages, per day' }).count(),
    ).toBe(1);

    // The unanswered questions, most asked first; the markup a visitor typed stays text.
    const list = page.getByRole('list', { name: 'Unanswered questions' });
    const rows = list.getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).locator('.list-title').textContent()).toBe('Refunds?');
    expect(await rows.nth(0).textContent()).toContain('Asked 2 times');
    expect(await rows.nth(0).textContent()).toContain('Also asked as: How do I get a refund?');
    expect(await rows.nth(1).locator('.list-title').textContent()).toBe(XSS);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.locator('main img, section img').count()).toBe(0);
    const knowledge = page
      .locator('.unanswered')
      .locator('xpath=..')
      .getByRole('link', { name: 'Knowledge' });
    expect(await knowledge.getAttribute('href')).toBe(`/console/bots/${suite.t.botId}/knowledge`);
    expect(await axe(page), 'insights').toEqual([]);
    await page.screenshot({ path: artifact('console-insights-1280.png'), fullPage: true });

    await page.getByLabel('Period').selectOption('30d');
    await expect.poll(() => periods.includes('30d')).toBe(true);
    await expect.poll(() => page.locator('.chart-canvas canvas').count()).toBe(2);
    expect(periods[0]).toBe('7d');
    // The period is kept in the address: a reload shows the same period.
    expect(new URL(page.url()).searchParams.get('period')).toBe('30d');
    await page.reload();
    await expect.poll(() => page.getByLabel('Period').inputValue()).toBe('30d');
    await expect.poll(() => tile(page, 'Conversations').textContent()).toBe('2');
    expect(periods.at(-1)).toBe('30d');
    expect(problems).toEqual([]);
  });

  it("operations: audit filtered by action and actor, logs by level with a live tail, usage bars and this month's chat in words", async () => {
    await seed();
    const { t } = suite;
    await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, { configuration: { botName: 'Audited' } });
    const { page, problems } = await suite.signedInPage(1280, 'light');

    await page.getByRole('link', { name: 'Audit' }).click();
    const records = page.getByRole('list', { name: 'Audit records' }).getByRole('listitem');
    await expect.poll(() => records.count()).toBeGreaterThan(1);
    await page.getByLabel('Action').selectOption('UPDATE_BOT_WEBCHAT');
    await expect.poll(() => records.count()).toBe(1);
    expect(await records.first().textContent()).toContain('Webchat changed');
    await page.getByLabel('Actor').selectOption(t.owner.accountId);
    expect(await page.locator('#audit-actor option:checked').textContent()).toContain(t.owner.email);
    await expect.poll(() => records.count()).toBe(1);
    await page.getByLabel('Action').selectOption('DELETE_BOT');
    await expect.poll(() => page.getByText('No records match these filters').isVisible()).toBe(true);
    expect(await axe(page), 'audit').toEqual([]);

    await page.goto(`${suite.origin}/console/bots/${t.botId}/logs`);
    const lines = page.getByRole('list', { name: 'Log lines' }).getByRole('listitem');
    await expect.poll(() => lines.count()).toBeGreaterThan(0);
    await page.getByLabel('Live tail').check();
    const api = chatClient(t);
    const missing = await api.call('GET', '/conversations/tail-check', { key: user.key });
    expect(missing.statusCode).toBe(404);
    const tailed = page.getByText(`GET /v1/chat/${t.botId}/conversations/tail-check 404`);
    await expect.poll(() => tailed.isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByLabel('Live tail').uncheck();
    await page.getByLabel('Level').selectOption('warn');
    await expect.poll(() => page.locator('.log-level').allTextContents()).toContain('warn');
    expect(new Set(await page.locator('.log-level').allTextContents())).toEqual(new Set(['warn']));
    expect(await axe(page), 'logs').toEqual([]);

    await page.getByRole('link', { name: 'Usage' }).click();
    const storage = page.getByRole('progressbar', { name: 'File storage', exact: true });
    await expect.poll(() => storage.count()).toBe(1);
    expect(await storage.getAttribute('aria-valuetext')).toBe('0 bytes of 10 GB');
    expect(
      await page.getByRole('progressbar', { name: 'Bots', exact: true }).getAttribute('aria-valuetext'),
    ).toBe('1 of 10');
    expect(await page.getByText('Vector storage').count()).toBe(1);
    // This month's chat: the two seeded conversations, their four questions and four replies.
    const figure = (label: string) => page.locator('.usage', { hasText: label }).locator('.usage-text');
    expect(await figure('Conversations this month').textContent()).toBe('2');
    expect(await figure('Messages this month').textContent()).toBe('8');
    const perBot = page.getByRole('progressbar', { name: /^File storage of / });
    await expect.poll(() => perBot.count()).toBe(1);
    expect(await perBot.getAttribute('aria-valuetext')).toBe('0 bytes of 1 GB');
    expect(await axe(page), 'usage').toEqual([]);
    await page.screenshot({ path: artifact('console-usage-1280.png'), fullPage: true });
    expect(problems).toEqual([]);
  }, 60_000);

  it('at 390 px, dark: insights, logs and usage hold and axe finds nothing', async () => {
    await seed();
    const { page, problems } = await suite.signedInPage(390, 'dark');
    for (const path of [
      `/console/bots/${suite.t.botId}/insights`,
      `/console/bots/${suite.t.botId}/logs`,
      '/console/usage',
      '/console/audit',
    ]) {
      await page.goto(`${suite.origin}${path}`);
      await expect.poll(() => page.locator('.list-row, .usage, .tile').count()).toBeGreaterThan(0);
      expect(await overflows(page), path).toBe(false);
      expect(await axe(page), path).toEqual([]);
      const name = path.split('/').filter(Boolean).at(-1) ?? 'page';
      await page.screenshot({ path: artifact(`console-${name}-390-dark.png`), fullPage: true });
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('audit: who did what in names and words, never ids or JSON; knowledge and file changes listed', async () => {
    const { t } = suite;
    const files = (method: 'POST' | 'PUT', url: string, body: unknown) =>
      t.call({ method, url, token: t.owner.token, headers: { 'x-bot-id': t.botId }, body });
    const created = await files('POST', '/v1/files/knowledge-bases', { name: 'Manuals' });
    expect(created.statusCode, created.body).toBe(201);
    const kbId = (created.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    expect(
      (await files('PUT', `/v1/files/knowledge-bases/${kbId}`, { name: 'Product manuals' })).statusCode,
    ).toBe(200);
    const upserted = await files('PUT', '/v1/files', { key: 'guides/setup.md', size: 12 });
    const fileId = (upserted.json() as { file: { id: string } }).file.id;
    expect((await files('PUT', `/v1/files/${fileId}`, { tags: { topic: 'setup' } })).statusCode).toBe(200);
    const member = await t.addMember('developer', 'dev-audit@example.com');
    const changed = await t.asOwner('PUT', `/v1/admin/workspace-members/${member.memberId}`, {
      role: 'viewer',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const bot = ((await t.asOwner('GET', `/v1/admin/bots/${t.botId}`)).json() as { bot: { name: string } })
      .bot;

    const { page, problems } = await suite.signedInPage(1280, 'light');
    await page.getByRole('link', { name: 'Audit' }).click();
    const records = page.getByRole('list', { name: 'Audit records' }).getByRole('listitem');
    const row = (label: string) => records.filter({ hasText: label }).first();
    await expect.poll(() => row('File changed').count(), { timeout: 15_000 }).toBe(1);
    expect(await row('Member role changed').textContent()).toContain(
      'On dev-audit@example.com: changed role from developer to viewer',
    );
    expect(await row('Member invited').textContent()).toContain('On dev-audit@example.com: role developer');
    expect(await row('Knowledge base created').textContent()).toContain(`On Manuals: in ${bot.name}`);
    expect(await row('Knowledge base changed').textContent()).toContain(
      `On Product manuals: renamed from “Manuals”, in ${bot.name}`,
    );
    expect(await row('File uploaded').textContent()).toContain(
      `On guides/setup.md: 12 bytes, in ${bot.name}`,
    );
    expect(await row('File changed').textContent()).toContain(
      `On guides/setup.md: tags topic=setup, in ${bot.name}`,
    );
    expect(await row('File changed').textContent()).toMatch(new RegExp(`by .*${t.owner.email}`));
    const all = (await records.allTextContents()).join('\n');
    expect(all).not.toMatch(/[{}"]/);
    expect(all).not.toMatch(/\b[a-z]+_[A-Za-z0-9]{10,}/);

    await page.getByLabel('Action').selectOption({ label: 'File uploaded' });
    await expect.poll(() => records.count()).toBe(1);
    expect(await axe(page), 'audit in words').toEqual([]);
    await page.screenshot({ path: artifact('console-audit-words-1280.png'), fullPage: true });
    expect(problems).toEqual([]);
  }, 60_000);
});
