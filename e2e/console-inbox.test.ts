// The Console's conversations inbox in a real browser (Debian Chromium, under the strict CSP), with a bot that
// answers from an indexed document: conversations started through the Chat API appear while the page is open
// (no reload); a visitor's markup stays text; negative feedback with its comment shows and its filter keeps only
// that conversation; an unanswered question shows under "Not answered"; the transcript shows the reply's
// sources and its retrieval details; axe finds nothing; 390 px (dark) holds.
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { browserFor, haveChromium } from '../packages/testkit/src/e2e/browser.js';
import {
  axe,
  consolePage,
  consoleViewport,
  overflows,
  useConsoleSuite,
} from '../packages/testkit/src/e2e/console.js';
import { botApi, indexInKnowledgeBase } from '../packages/testkit/src/e2e/knowledge.js';
import {
  inWebchat,
  sendFromComposer,
  withWebchatConfiguration,
} from '../packages/testkit/src/e2e/webchat.js';
import { chatClient } from '../packages/testkit/src/server/chat.js';

const chromiumHere = haveChromium('console inbox browser tests');

const HANDBOOK = `# Acme employee handbook

## Vacation

Every employee receives 25 days of paid vacation per calendar year. Unused vacation days carry over
until March 31 of the following year and are then lost.
`;
const XSS = '<img src=x onerror=window.pwned=1>';
const LIVE = { timeout: 20_000, interval: 250 };

describe.skipIf(!chromiumHere)('console conversations inbox in a browser', () => {
  // The run's browser (the headless shell) for every page but the hand-off desk's, whose notification needs the
  // permission granted as a person's browser has it: the full Chromium, launched by that test (the headless shell
  // reports Notification.permission as "denied" even once granted). The headless shell takes about a fifth of the
  // full one's CPU time for a new page, and less than half for a Console page load (browser.ts).
  const suite = useConsoleSuite({ workers: true });
  let fullChromium: Browser | undefined;
  afterAll(() => fullChromium?.close());

  /** A visitor's conversation with one question, once the bot has replied; answers its id and the reply's id. */
  async function converse(text: string) {
    const chat = chatClient(suite.t);
    const visitor = await chat.user({ name: 'Visitor' });
    const id = await chat.conversation(visitor);
    await chat.message(visitor, id, text);
    let replyId = '';
    await expect
      .poll(async () => {
        const res = await chat.call('GET', `/conversations/${id}/messages`, { key: visitor.key });
        const reply = (res.json() as { messages: Array<{ id: string; isBot: boolean }> }).messages.find(
          (m) => m.isBot,
        );
        replyId = reply?.id ?? '';
        return replyId !== '';
      }, LIVE)
      .toBe(true);
    return { chat, visitor, id, replyId };
  }

  it('lists conversations live, filters them, and shows a transcript with sources, details and feedback', async () => {
    const { t, origin } = suite;
    const fileId = await indexInKnowledgeBase(botApi(suite.origin, suite.t), {
      key: 'handbook/acme.md',
      text: HANDBOOK,
      knowledgeBase: 'Handbook',
    });
    await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, { configuration: { feedbackEnabled: true } });
    const { page, problems } = await suite.signedInPage(1280, 'light');
    const inbox = `${origin}/console/bots/${t.botId}/conversations`;
    await page.goto(inbox);
    await page.getByText('No conversations yet.').waitFor();
    expect(await axe(page), 'empty inbox').toEqual([]);

    // Conversations started while the page is open appear without a reload.
    const rows = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
    const xss = await converse(XSS);
    await expect.poll(() => rows.count(), LIVE).toBe(1);
    // What the visitor asked is the row's link, as text.
    await expect.poll(() => page.getByRole('link', { name: XSS, exact: true }).count(), LIVE).toBe(1);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    const answered = await converse('How many days of paid leave do I get each year?');
    const unanswered = await converse('What is the capital of Mongolia?');
    await expect.poll(() => rows.count(), LIVE).toBe(3);
    const comment = 'Wrong <b>page</b>, I asked about leave';
    const rated = await answered.chat.call('PUT', `/messages/${answered.replyId}/feedback`, {
      key: answered.visitor.key,
      body: { value: 'negative', comment },
    });
    expect(rated.statusCode, rated.body).toBe(200);
    // The rated conversation's row says so (the filter's checkbox is named the same).
    const ratedRow = page
      .getByRole('list', { name: 'Conversations' })
      .getByText('Negative feedback', { exact: true });
    await expect.poll(() => ratedRow.count(), LIVE).toBe(1);
    expect(await axe(page), 'inbox').toEqual([]);

    // The filters: negative feedback keeps only the rated conversation; "Not answered" the Mongolia question.
    const link = (id: string) => page.locator(`a[href$="/conversations/${id}"]`);
    await page.getByRole('checkbox', { name: 'Negative feedback' }).check();
    await expect.poll(() => rows.count(), LIVE).toBe(1);
    expect(await link(answered.id).count()).toBe(1);
    // The filter is in the address: a reload (or a shared link) keeps it.
    expect(new URL(page.url()).searchParams.get('feedback')).toBe('negative');
    await page.reload();
    await expect.poll(() => link(answered.id).count(), LIVE).toBe(1);
    expect(await rows.count()).toBe(1);
    expect(await page.getByRole('checkbox', { name: 'Negative feedback' }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: 'Negative feedback' }).uncheck();
    await page.getByRole('checkbox', { name: 'Not answered' }).check();
    await expect.poll(() => link(unanswered.id).count(), LIVE).toBe(1);
    expect(await link(answered.id).count()).toBe(0);
    await page.getByRole('checkbox', { name: 'Not answered' }).uncheck();
    await expect.poll(() => rows.count(), LIVE).toBe(3);
    await page.screenshot({ path: 'e2e/artifacts/console-inbox-1280.png', fullPage: true });

    // A visitor's markup is text, in the transcript as everywhere.
    await link(xss.id).click();
    await page.getByRole('heading', { name: 'Conversation' }).waitFor();
    await expect.poll(() => page.locator('.msg-visitor .msg-text').first().textContent(), LIVE).toBe(XSS);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.locator('main img, .thread img').count()).toBe(0);

    // The answered question's transcript: the reply's sources, its retrieval details, the feedback.
    await page.goto(`${inbox}/${answered.id}`);
    const thread = page.getByRole('list', { name: 'Messages' });
    await expect.poll(() => thread.getByRole('listitem').count(), LIVE).toBeGreaterThanOrEqual(2);
    const source = page.getByRole('link', { name: 'handbook/acme.md' });
    expect(await source.getAttribute('href')).toBe(`/console/bots/${t.botId}/files/${fileId}`);
    expect(await page.getByText('Thumbs down').count()).toBe(1);
    expect(await page.getByText(comment, { exact: true }).count()).toBe(1);
    expect(await page.locator('b').count()).toBe(0);
    // The retrieval details as the Playground shows them: a table of rank, passage (the question's words
    // marked), document (a link to the file), page and why chosen, in words; no JSON dump.
    await page.getByText('How the bot chose').first().click();
    const passages = page.getByRole('table', { name: 'Passages the bot weighed, best first' });
    await passages.waitFor();
    const headers = await passages.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(['Rank', 'Passage', 'Document', 'Page', 'Why chosen']);
    const weighed = passages.getByRole('link', { name: 'handbook/acme.md' }).first();
    expect(await weighed.getAttribute('href')).toBe(`/console/bots/${t.botId}/files/${fileId}`);
    expect(await passages.locator('mark').count()).toBeGreaterThan(0);
    expect(await passages.getByText(/^Quoted: /).count()).toBeGreaterThan(0);
    expect(await page.locator('.thread pre').count()).toBe(0);
    expect(await axe(page), 'transcript with details open').toEqual([]);
    await page.screenshot({ path: 'e2e/artifacts/console-inbox-transcript-1280.png', fullPage: true });

    // A new message shows in the open transcript without a reload.
    await answered.chat.message(answered.visitor, answered.id, 'And when do unused days expire?');
    const asked = page.locator('.msg-visitor .msg-text', { hasText: 'And when do unused days expire?' });
    await expect.poll(() => asked.count(), LIVE).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('hands a conversation to a person: asked for in the webchat, taken and answered from the inbox, the bot silent, then back', async () => {
    const { t, origin } = suite;
    const dana = await suite.joinAs('developer', 'Dana');
    const viewer = await suite.joinAs('viewer');
    await withWebchatConfiguration(t, { handoffButton: true }, async () => {
      // The visitor on the hosted webchat; every `handoff` event of every load of the page is recorded
      // (window.parley is hooked as the loader installs it, so an event fired while loading is not missed).
      const visitor = await suite.newPage(1280, 'light');
      const v = visitor.page;
      await v.addInitScript(`(() => {
        const seen = JSON.parse(sessionStorage.getItem('handoffs') || '[]');
        let api;
        Object.defineProperty(window, 'parley', {
          configurable: true,
          get: () => api,
          set: (value) => {
            api = value;
            value.on('handoff', (e) => {
              seen.push(e);
              sessionStorage.setItem('handoffs', JSON.stringify(seen));
            });
          },
        });
      })()`);
      const handoffs = async () =>
        JSON.parse(String(await v.evaluate(`sessionStorage.getItem('handoffs') || '[]'`)));

      // Dana, a developer, in the Console on the inbox's Waiting tab, alerts on, before anybody asks.
      fullChromium = await browserFor({ fullChromium: true });
      const desk = await consolePage(await fullChromium.newContext(consoleViewport(1280, 'light')));
      const a = desk.page;
      // The browser lets the Console notify; each notification shown is recorded.
      await a.context().grantPermissions(['notifications'], { origin });
      await a.addInitScript(`(() => {
        const Real = window.Notification;
        window.notified = [];
        function Recorded(title) { window.notified.push(title); }
        Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
        Recorded.requestPermission = () => Real.requestPermission();
        window.Notification = Recorded;
      })()`);
      await a.goto(`${origin}/console/`);
      await suite.signIn(a, dana.password, dana.email);
      await a.getByRole('heading', { name: 'Bots' }).waitFor();
      await a.goto(`${origin}/console/bots/${t.botId}/conversations`);
      await a.getByRole('link', { name: /^Waiting/ }).click();
      await a.getByText('Nobody is waiting for a person.').waitFor();
      await a.getByLabel('Alert me of waiting visitors').check();
      const waitingCount = a.locator('.desk-count[data-tab="waiting"]');
      await expect.poll(() => waitingCount.textContent(), LIVE).toBe(' 0');
      // A mark on the page's window: a reload would take it away.
      await a.evaluate('window.sameLoad = true');

      await v.goto(`${origin}/webchat/${t.botId}`);
      const said = (from: string) => inWebchat(v, `.pw-msg[data-from="${from}"][data-message-id]`);
      const button = inWebchat(v, 'button.pw-handoff');
      expect(await button.textContent()).toBe('Talk to a person');
      await button.click();
      const asked = Date.now();
      // The conversation appears under Waiting within 2 s, without a reload (the desk's live stream).
      const waitingRows = a.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
      await expect.poll(() => waitingRows.count(), { timeout: 2_000, interval: 50 }).toBe(1);
      const appearedMs = Date.now() - asked;
      console.log(
        `handoff: the waiting conversation appeared in the Console ${appearedMs} ms after the click`,
      );
      expect(await a.evaluate('window.sameLoad')).toBe(true);
      expect(await waitingRows.first().textContent()).toContain('Waiting for a person');
      await expect.poll(() => waitingCount.textContent(), LIVE).toBe(' 1');
      // The tab title counts the waiting conversation, and the browser notified once (the alerts are on).
      await expect.poll(() => a.title(), LIVE).toMatch(/^\(1\) /);
      expect(await a.evaluate('window.notified')).toEqual(['A visitor is waiting for a person']);
      await expect.poll(handoffs, LIVE).toEqual([{ state: 'pending' }]);
      await expect.poll(() => button.count(), LIVE).toBe(0);
      const conversationId = JSON.parse(
        String(await v.evaluate(`localStorage.getItem('parley:webchat:${t.botId}')`)),
      ).conversationId as string;

      // She opens it from the list: it waits for a person; she takes it and replies.
      await waitingRows.first().getByRole('link').click();
      await a.waitForURL(`**/conversations/${conversationId}`);
      const state = a.locator('.handoff-state');
      await expect.poll(() => state.textContent(), LIVE).toContain('Waiting for a person');
      expect(await a.getByRole('button', { name: 'Resolve' }).count()).toBe(1);
      await a.getByRole('button', { name: 'Take over' }).click();
      await expect.poll(() => state.textContent(), LIVE).toContain('Answered by Dana');
      await expect
        .poll(handoffs, LIVE)
        .toEqual([{ state: 'pending' }, { state: 'assigned', agentName: 'Dana' }]);
      await expect
        .poll(() => said('bot').allTextContents(), LIVE)
        .toContainEqual(expect.stringContaining("You're now talking to Dana."));
      // While she types, the visitor sees her name, written and announced; the bot's messages keep its name.
      const typist = inWebchat(v, '.pw-typist');
      await a.getByLabel('Reply').fill('Hi, Dana here. How can I help?');
      await expect.poll(() => typist.textContent(), LIVE).toBe('Dana is typing');
      expect(await inWebchat(v, '.pw-typing').getAttribute('aria-label')).toBe('Dana is typing');
      const botName = String(await inWebchat(v, '#pw-title').textContent());
      expect(await said('bot').first().locator('.pw-sr').textContent()).toBe(`${botName} said:`);
      expect(await inWebchat(v, '.pw-msg[data-from="bot"] .pw-agent').count()).toBe(0);
      await a.getByRole('button', { name: 'Send' }).click();
      await expect
        .poll(() => said('agent').allTextContents(), LIVE)
        .toEqual([expect.stringContaining('Hi, Dana here. How can I help?')]);
      // Her message carries her name and her initials (she has no picture); nobody types any more.
      expect(await said('agent').locator('.pw-agent').textContent()).toContain('Dana');
      expect(await said('agent').locator('.pw-initials').textContent()).toBe('D');
      await expect.poll(() => inWebchat(v, '.pw-typing').count(), LIVE).toBe(0);
      // The transcript names her too (a person's message, not the visitor's).
      await expect
        .poll(() => a.locator('[data-author="agent"] .msg-head strong').allTextContents(), LIVE)
        .toEqual(['Dana (person)']);
      // The visitor's details: the page the webchat is on and the browser's language.
      const details = a.getByRole('region', { name: 'Visitor' });
      await expect.poll(() => details.textContent(), LIVE).toContain(`${origin}/webchat/${t.botId}`);
      expect(await details.textContent()).toContain(String(await v.evaluate('navigator.language')));
      // "Assign to…" offers the members who may answer (the owner), not the viewer.
      const assignees = await a.getByLabel('Assign to…').locator('option').allTextContents();
      expect(assignees).toContainEqual(expect.stringContaining(t.owner.email));
      expect(assignees).not.toContainEqual(expect.stringContaining(viewer.email));

      // Markdown and a file: the visitor sees the bold words, and a link that opens the file attached.
      await a.getByLabel('Reply').fill('Here is **the form** to fill in.');
      await a.getByLabel('Attach files').setInputFiles({
        name: 'form.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('Name: ____\n'),
      });
      await a.getByRole('button', { name: 'Send' }).click();
      await expect.poll(() => said('agent').count(), LIVE).toBe(2);
      const withFile = said('agent').nth(1);
      await expect.poll(() => withFile.locator('strong').textContent(), LIVE).toBe('the form');
      const href = String(await withFile.locator('a[download]').getAttribute('href'));
      const opened = await fetch(href);
      expect(opened.status).toBe(200);
      expect(await opened.text()).toBe('Name: ____\n');
      // The link's signature names that file: the same link to another file is refused.
      const elsewhere = new URL(href);
      elsewhere.pathname = elsewhere.pathname.replace(/file_[0-9A-Za-z]+/, 'file_01K00000000000000000000000');
      expect((await fetch(elsewhere)).status).toBe(403);
      // The transcript shows it as the visitor saw it.
      await expect
        .poll(() => a.locator('[data-author="agent"] strong', { hasText: 'the form' }).count(), LIVE)
        .toBe(1);
      expect(await a.getByRole('list', { name: 'Attached files' }).getByRole('link').textContent()).toBe(
        'form.txt',
      );

      // An internal note: the team reads it, the visitor never does.
      await a.getByLabel('New note').fill('VIP customer: refund without asking');
      await a.getByRole('button', { name: 'Add note' }).click();
      await expect
        .poll(() => a.getByRole('list', { name: 'Notes' }).textContent(), LIVE)
        .toContain('VIP customer: refund without asking');
      expect(await v.locator('[data-parley-webchat]').textContent()).not.toContain('VIP customer');
      // Export: this conversation as CSV, downloaded from the page; the note is not part of it.
      await a.getByText('Export this conversation').click();
      await a.getByLabel('Format').selectOption('csv');
      const [download] = await Promise.all([
        a.waitForEvent('download'),
        a.getByRole('button', { name: 'Export', exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      const chunks: Buffer[] = [];
      for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
      const csv = Buffer.concat(chunks).toString('utf8');
      expect(csv.split('\n')[0]).toContain('conversation_id');
      expect(csv).toContain('Hi, Dana here. How can I help?');
      expect(csv).not.toContain('VIP customer');
      // Her Mine tab holds the conversation, counted; back to it from there.
      await a.getByRole('link', { name: '← All conversations' }).click();
      await a.getByRole('link', { name: /^Mine/ }).click();
      await expect.poll(() => a.locator('.desk-count[data-tab="mine"]').textContent(), LIVE).toBe(' 1');
      await expect.poll(() => waitingRows.count(), LIVE).toBe(1);
      expect(await waitingRows.first().textContent()).toContain('Answered by Dana');
      await waitingRows.first().getByRole('link').click();
      await a.waitForURL(`**/conversations/${conversationId}`);
      expect(await axe(a), 'desk').toEqual([]);

      // A reload keeps who answers: the event comes again from the conversation, no button.
      await v.reload();
      const afterReload = [
        { state: 'pending' },
        { state: 'assigned', agentName: 'Dana' },
        { state: 'assigned', agentName: 'Dana' },
      ];
      await expect.poll(handoffs, LIVE).toEqual(afterReload);
      await expect.poll(() => said('agent').count(), LIVE).toBe(2);
      expect(await button.count()).toBe(0);
      expect(await said('agent').first().locator('.pw-initials').textContent()).toBe('D');

      // Three visitor messages while Dana has it; she sees them, then hands back; the bot answers the next one.
      for (const text of [
        'Are you there?',
        'What are your opening hours?',
        'How many vacation days do I get?',
      ]) {
        await sendFromComposer(v, text);
        await expect.poll(() => a.locator('.msg-visitor .msg-text', { hasText: text }).count(), LIVE).toBe(1);
      }
      await a.getByRole('button', { name: 'Hand back' }).click();
      await expect.poll(() => state.textContent(), LIVE).toContain('The bot answers');
      await expect.poll(handoffs, LIVE).toEqual([...afterReload, { state: 'bot' }]);
      await expect.poll(() => button.count(), LIVE).toBe(1);
      await sendFromComposer(v, 'How many days of paid leave do I get each year?');

      // The whole conversation as the Chat API holds it (oldest first): the bot said nothing while Dana had it.
      type Said = { isBot: boolean; payload: { text?: string }; metadata?: Record<string, unknown> };
      const kinds = async () => {
        const res = await fetch(`${origin}/v1/chat/${t.botId}/conversations/${conversationId}/messages`, {
          headers: {
            'x-user-key': String(
              await v.evaluate(`JSON.parse(localStorage.getItem('parley:webchat:${t.botId}')).userKey`),
            ),
          },
        });
        const { messages } = (await res.json()) as { messages: Said[] };
        return messages
          .reverse()
          .map((m) =>
            !m.isBot ? 'visitor' : m.metadata?.agent ? 'agent' : m.metadata?.handoff ? 'handoff' : 'bot',
          );
      };
      await expect
        .poll(kinds, LIVE)
        .toEqual([
          'visitor',
          'handoff',
          'handoff',
          'agent',
          'agent',
          'visitor',
          'visitor',
          'visitor',
          'handoff',
          'visitor',
          'bot',
        ]);
      expect(desk.problems).toEqual([]);
      expect(visitor.problems).toEqual([]);
      await v.context().close();
      await a.context().close();

      // A viewer reads the conversation but has no desk.
      const reader = await suite.newPage(1280, 'light');
      await reader.page.goto(`${origin}/console/`);
      await suite.signIn(reader.page, viewer.password, viewer.email);
      await reader.page.getByRole('heading', { name: 'Bots' }).waitFor();
      await reader.page.goto(`${origin}/console/bots/${t.botId}/conversations/${conversationId}`);
      await expect
        .poll(() => reader.page.locator('.msg-agent, .msg .msg-text').count(), LIVE)
        .toBeGreaterThan(0);
      expect(await reader.page.getByLabel('Reply').count()).toBe(0);
      expect(await reader.page.getByRole('button', { name: 'Take over' }).count()).toBe(0);
      await reader.page.context().close();
    });
  }, 120_000);

  it('holds at 390 px in the dark theme, inbox and transcript', async () => {
    const { t, origin } = suite;
    const { page, problems } = await suite.signedInPage(390, 'dark');
    const inbox = `${origin}/console/bots/${t.botId}/conversations`;
    await page.goto(inbox);
    const rows = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
    await expect.poll(() => rows.count(), LIVE).toBeGreaterThan(0);
    expect(await overflows(page), 'inbox at 390 px').toBe(false);
    expect(await axe(page), 'inbox at 390 px').toEqual([]);
    await page.screenshot({ path: 'e2e/artifacts/console-inbox-390.png', fullPage: true });
    await rows.first().getByRole('link').click();
    await page.getByRole('list', { name: 'Messages' }).waitFor();
    for (const summary of await page.getByText('How the bot chose').all()) await summary.click();
    expect(await overflows(page), 'transcript at 390 px').toBe(false);
    expect(await axe(page), 'transcript at 390 px').toEqual([]);
    await page.screenshot({ path: 'e2e/artifacts/console-inbox-transcript-390.png', fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);
});
