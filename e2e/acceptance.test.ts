// The acceptance suite: one body of tests run against a deployment through its one base URL, never against an
// app instance. It runs against (a) one `parley serve` process on SQLite and its data folder, and (b) three
// processes on one PostgreSQL database and one S3-compatible store (s3rver) behind nginx, round-robin, no sticky
// sessions (packages/testkit/src/e2e/deployment.ts). Same tests, same assertions, through plain HTTP, `@parley/client`, the
// public service's npm client (@botpress/client) and Chromium: admin, members, tokens, files up and down with
// Range, public URLs, indexing and search, knowledge bases, chat with its SSE stream, the webchat on another
// origin, and a bot reply from knowledge.
import { createHash, randomBytes } from 'node:crypto';
import { Client as BotpressClient, ResourceNotFoundError as BotpressNotFound } from '@botpress/client';
import { ChatClient, Client, ResourceNotFoundError, UnauthorizedError } from '@parley/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, launchChromium } from '../packages/testkit/src/e2e/browser.js';
import {
  type Deployment,
  type DeploymentKind,
  haveCluster,
  startDeployment,
} from '../packages/testkit/src/e2e/deployment.js';
import { HANDBOOK } from '../packages/testkit/src/e2e/handbook.js';
import { requireBuild } from '../packages/testkit/src/e2e/server.js';
import { openSse, type SseFrame } from '../packages/testkit/src/e2e/sse.js';
import { askOnPage, embeddingPage, serveCustomerSite } from '../packages/testkit/src/e2e/webchat.js';
import { asBot } from '../packages/testkit/src/shared/bot-request.js';
import { signInCookie } from '../packages/testkit/src/shared/sessions.js';

requireBuild();

const chromiumHere = haveChromium('acceptance suite webchat test');
const kinds: DeploymentKind[] = haveCluster('acceptance suite on a cluster')
  ? ['single', 'cluster']
  : ['single'];

const QUESTION = 'How many days of paid leave do I get each year?';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** One Chromium for the whole file, launched on first use. */
let browser: Promise<Browser> | undefined;
afterAll(async () => {
  await (await browser?.catch(() => undefined))?.close();
});

/** A chat signal as the stream's frames carry it. */
interface Signal {
  type: string;
  data: { isBot?: boolean; payload?: { type: string; text?: string; markdown?: string } };
}

const signalOf = (frame: SseFrame) => frame.data as Signal;
const botReply = (frames: SseFrame[]) =>
  frames.map(signalOf).find((s) => s.type === 'message_created' && s.data.isBot);

describe.each(kinds)('the product through one deployment: %s', (kind) => {
  let d: Deployment;
  /** The owner, through @parley/client. */
  let admin: Client;
  /** A bot made for this suite, and its access key. */
  let bot: { id: string; key: string };
  /** The bot's Files API through @parley/client. */
  let files: Client;
  let handbookId: string;
  let knowledgeBaseId: string;

  /** A Files API call as the bot, with plain fetch (its answer read as `{file}`). */
  async function filesCall(method: string, path: string, body?: unknown) {
    const res = await fetch(`${d.url}${path}`, asBot({ accessKey: bot.key, id: bot.id }, method, body));
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: (text ? JSON.parse(text) : {}) as { file: { uploadUrl: string; url: string } },
    };
  }

  beforeAll(async () => {
    d = await startDeployment(kind);
    admin = new Client({ apiUrl: d.url, token: d.owner.token, workspaceId: d.owner.workspaceId });
    // Its answers link every source (sourceLinks all, opted in): the webchat test below opens the private
    // handbook through its source link (the default, public, would name it without a link).
    const { bot: made } = await admin.createBot({ name: `Acceptance ${kind}`, sourceLinks: 'all' });
    const { key } = await admin.createBotAccessKey({ id: made.id, note: 'acceptance' });
    bot = { id: made.id, key: key.value };
    files = new Client({ apiUrl: d.url, token: bot.key, botId: bot.id });
    // The handbook, indexed in a knowledge base: the bot answers from it (a test below checks each step).
    const handbook = await files.uploadFile({
      key: 'handbook/acme.md',
      content: HANDBOOK,
      contentType: 'text/markdown',
    });
    handbookId = handbook.id;
    const { knowledgeBase } = await files.createKnowledgeBase({ name: 'Handbook' });
    knowledgeBaseId = knowledgeBase.id;
    await files.linkKnowledgeBaseFile({ id: knowledgeBaseId, fileId: handbookId });
  }, 120_000);

  afterAll(async () => {
    await d?.stop();
  }, 60_000);

  it('serves its base URL: /healthz and /readyz on the expected database', async () => {
    const ready = await fetch(`${d.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      database: kind === 'cluster' ? 'postgres' : 'sqlite',
    });
  });

  it('admin: workspaces, bots, members invited and accepted, personal access tokens made and revoked', async () => {
    const workspace = await admin.createWorkspace({ name: `Second ${kind}` });
    expect((await admin.listWorkspaces()).workspaces.map((w) => w.id)).toEqual(
      expect.arrayContaining([d.owner.workspaceId, workspace.id]),
    );
    expect((await admin.getBot({ id: bot.id })).bot).toMatchObject({
      id: bot.id,
      name: `Acceptance ${kind}`,
    });
    await admin.updateBot({ id: bot.id, tags: { suite: 'acceptance' } });
    const tagged = await admin.listBots({ tags: { suite: 'acceptance' } });
    expect(tagged.bots.map((b) => b.id)).toEqual([bot.id]);

    const member = await admin.addWorkspaceMember({ email: `ana-${kind}@example.com`, role: 'developer' });
    const code = member.invitation?.code ?? '';
    expect(code).not.toBe('');
    const email = `ana-${kind}@example.com`;
    const password = 'ana chose this password';
    const accepted = await new Client({ apiUrl: d.url }).acceptInvitation({
      code,
      displayName: 'Ana',
      password,
    });
    expect(accepted).toEqual({ email, workspaceId: d.owner.workspaceId });
    // No token in the answer: Ana signs in, and makes one with her session (any process of the cluster).
    const cookie = await signInCookie(d.url, email, password);
    const session = new Client({ apiUrl: d.url, headers: { cookie, origin: new URL(d.url).origin } });
    const { pat: anaPat } = await session.createPersonalAccessToken({ note: 'acceptance' });
    const ana = new Client({ apiUrl: d.url, token: anaPat.value, workspaceId: accepted.workspaceId });
    expect(await ana.getWorkspaceMember()).toMatchObject({ role: 'developer', status: 'active' });
    expect((await ana.listBots()).bots.map((b) => b.id)).toContain(bot.id);
    const members = await admin.listWorkspaceMembers();
    expect(members.members.map((m) => m.email)).toContain(`ana-${kind}@example.com`);

    const { pat } = await admin.createPersonalAccessToken({ note: 'short-lived' });
    const short = new Client({ apiUrl: d.url, token: pat.value, retry: { attempts: 1 } });
    expect((await short.getAccount()).account.email).toBe(d.owner.email);
    await admin.deletePersonalAccessToken({ id: pat.id });
    // Refused at once, whichever process answers.
    for (let i = 0; i < 3; i++) {
      await expect(short.getAccount()).rejects.toBeInstanceOf(UnauthorizedError);
    }
  });

  it('files over plain HTTP: upsert, PUT to the uploadUrl, the same bytes back, byte ranges, 416 past the end', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 5);
    const upsert = await filesCall('PUT', '/v1/files', { key: 'plain/blob.bin', size: data.length });
    expect(upsert.status).toBe(200);
    expect(upsert.body.file.uploadUrl.startsWith(`${d.url}/`)).toBe(true);
    const put = await fetch(upsert.body.file.uploadUrl, { method: 'PUT', body: data });
    expect(put.status, await put.clone().text()).toBe(200);
    expect(((await put.json()) as { file: unknown }).file).toMatchObject({
      status: 'upload_completed',
      checksum: sha256(data),
    });

    const { body } = await filesCall('GET', '/v1/files/plain%2Fblob.bin');
    const url = body.file.url;
    expect(url.startsWith(`${d.url}/`)).toBe(true);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(data));

    const middle = await fetch(url, { headers: { range: 'bytes=1000-1999' } });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes 1000-1999/${data.length}`);
    expect(Buffer.from(await middle.arrayBuffer()).equals(data.subarray(1000, 2000))).toBe(true);
    const suffix = await fetch(url, { headers: { range: 'bytes=-10' } });
    expect(suffix.status).toBe(206);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(data.subarray(data.length - 10))).toBe(true);
    const beyond = await fetch(url, { headers: { range: `bytes=${data.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${data.length}`);
  });

  it('files through @parley/client: uploadFile, downloadFile with a range, and the errors of a missing file', async () => {
    const content = randomBytes(200_000);
    const uploaded = await files.uploadFile({ key: 'client/data.bin', content, tags: { via: 'client' } });
    expect(uploaded).toMatchObject({ status: 'upload_completed', size: content.length });
    const whole = await files.downloadFile(uploaded.id);
    expect(sha256(new Uint8Array(await new Response(whole.stream).arrayBuffer()))).toBe(sha256(content));
    const head = await files.downloadFile('client/data.bin', { range: { start: 10, end: 19 } });
    expect(head.range).toEqual({ start: 10, end: 19, total: content.length });
    expect(Buffer.from(await new Response(head.stream).arrayBuffer()).equals(content.subarray(10, 20))).toBe(
      true,
    );
    expect((await files.listFiles({ tags: { via: 'client' } })).files.map((f) => f.id)).toEqual([
      uploaded.id,
    ]);
    await expect(files.getFile({ id: 'client/missing.bin' })).rejects.toBeInstanceOf(ResourceNotFoundError);
  });

  it('files through @botpress/client: uploadFile, getFile by key, the url, listFiles by tag, deleteFile', async () => {
    const bp = new BotpressClient({ apiUrl: d.url, token: bot.key, botId: bot.id, timeout: 20_000 });
    const { file } = await bp.uploadFile({
      key: 'bp/hello.txt',
      content: 'hello from botpress',
      tags: { bp: 'yes' },
    });
    const { file: got } = await bp.getFile({ id: 'bp/hello.txt' });
    expect(got).toMatchObject({ id: file.id, status: 'upload_completed', size: 19 });
    expect(await (await fetch(got.url)).text()).toBe('hello from botpress');
    expect((await bp.listFiles({ tags: { bp: 'yes' } })).files.map((f) => f.id)).toEqual([file.id]);
    expect(await bp.deleteFile({ id: file.id })).toEqual({});
    await expect(bp.getFile({ id: file.id })).rejects.toBeInstanceOf(BotpressNotFound);
    // The admin side too: the owner's token lists the bot.
    const admin = new BotpressClient({
      apiUrl: d.url,
      token: d.owner.token,
      workspaceId: d.owner.workspaceId,
    });
    expect((await admin.listBots({})).bots.map((b) => b.id)).toContain(bot.id);
  });

  it('public and private URLs: a public file has one permanent URL any process serves without a token; signatures are checked', async () => {
    const pub = await files.uploadFile({
      key: 'public/notice.txt',
      content: 'public notice',
      accessPolicies: ['public_content'],
    });
    const urls = new Set<string>();
    for (let i = 0; i < 3; i++) urls.add((await files.getFile({ id: pub.id })).file.url);
    expect(urls.size).toBe(1);
    const [publicUrl] = [...urls] as [string];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(publicUrl);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('public notice');
    }
    const privateUrl = new URL((await files.getFile({ id: 'client/data.bin' })).file.url);
    const signature = privateUrl.searchParams.get('signature') ?? '';
    expect(signature.length).toBeGreaterThan(10);
    privateUrl.searchParams.set(
      'signature',
      `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`,
    );
    const refused = await fetch(privateUrl);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 403, type: 'Forbidden' });
  });

  it('indexing, search and knowledge bases: the linked handbook is indexed and found by a question worded otherwise', async () => {
    const ready = await files.waitForIndexing(handbookId, { timeoutMs: 60_000, intervalMs: 200 });
    expect(ready.status).toBe('indexing_completed');
    const linked = await files.listKnowledgeBaseFiles({ id: knowledgeBaseId });
    expect(linked.files).toEqual([
      expect.objectContaining({ fileId: handbookId, status: 'indexing_completed' }),
    ]);
    expect((await files.getKnowledgeBase({ id: knowledgeBaseId })).knowledgeBase.files).toMatchObject({
      indexed: 1,
    });
    const { passages } = await files.searchFiles({
      query: 'how much paid leave per year',
      knowledgeBaseIds: [knowledgeBaseId],
      limit: 3,
    });
    expect(passages[0]?.content).toContain('25 days of paid vacation');
    expect(passages[0]?.file.key).toBe('handbook/acme.md');
  });

  it('chat over plain HTTP: the SSE stream carries the question and the bot answers it from knowledge', async () => {
    await files.waitForIndexing(handbookId, { timeoutMs: 60_000, intervalMs: 200 });
    const chat = (path: string, userKey: string, body?: unknown) =>
      fetch(`${d.url}/v1/chat/${bot.id}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'x-user-key': userKey, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
    const user = await fetch(`${d.url}/v1/chat/${bot.id}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(user.status).toBe(201);
    const { key } = (await user.json()) as { key: string };
    const created = await chat('/conversations', key, {});
    expect(created.status).toBe(201);
    const { conversation } = (await created.json()) as { conversation: { id: string } };

    const stream = await openSse(`${d.url}/v1/chat/${bot.id}/conversations/${conversation.id}/listen`, {
      'x-user-key': key,
    });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const sent = await chat('/messages', key, {
        conversationId: conversation.id,
        payload: { type: 'text', text: QUESTION },
      });
      expect(sent.status).toBe(201);
      const frames = await stream.until((f) => botReply(f) !== undefined, 60_000);
      const signals = frames.map(signalOf);
      const question = signals.findIndex((s) => s.type === 'message_created' && !s.data.isBot);
      expect(signals[question]?.data.payload).toEqual({ type: 'text', text: QUESTION });
      const reply = signals.findIndex((s) => s.type === 'message_created' && s.data.isBot);
      expect(reply).toBeGreaterThan(question);
      expect(signals[reply]?.data.payload?.markdown).toContain('25 days of paid vacation');
      // Frame ids only grow: the stream is in order.
      const ids = frames.map((f) => Number(f.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    } finally {
      stream.close();
    }
  });

  it('chat through @parley/client: listen() hears the bot answer from knowledge; a made-up question gets the honest not-found', async () => {
    await files.waitForIndexing(handbookId, { timeoutMs: 60_000, intervalMs: 200 });
    const anon = new ChatClient({ apiUrl: d.url, botId: bot.id });
    const { key } = await anon.createUser({ name: 'Ben' });
    const chat = anon.with({ userKey: key });
    const { conversation } = await chat.createConversation();
    const controller = new AbortController();
    const replies: Array<{ type: string; text?: string; markdown?: string }> = [];
    let opened: () => void = () => undefined;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const listening = (async () => {
      for await (const s of chat.listen(conversation.id, {
        signal: controller.signal,
        onOpen: () => opened(),
      })) {
        if (s.type === 'message_created' && s.data.isBot) {
          replies.push(s.data.payload as { type: string });
          if (replies.length === 2) controller.abort();
        }
      }
    })();
    await open;
    await chat.createMessage({ conversationId: conversation.id, payload: { type: 'text', text: QUESTION } });
    await expect.poll(() => replies.length, { timeout: 60_000 }).toBe(1);
    await chat.createMessage({
      conversationId: conversation.id,
      payload: { type: 'text', text: 'What is the capital of Mongolia?' },
    });
    await listening;
    expect(replies[0]?.markdown).toContain('25 days of paid vacation');
    expect(replies[1]).toMatchObject({ type: 'text' });
    expect(replies[1]?.text).toMatch(/couldn't find anything/i);
    const { messages } = await chat.listMessages({ conversationId: conversation.id });
    expect(messages).toHaveLength(4);
  });

  it.skipIf(!chromiumHere)(
    'the webchat on another origin talks to the base URL, answers from knowledge and its source link opens the document',
    async () => {
      await files.waitForIndexing(handbookId, { timeoutMs: 60_000, intervalMs: 200 });
      const site = await serveCustomerSite(() => embeddingPage(d.url, bot.id));
      browser ??= launchChromium();
      const context = await (await browser).newContext();
      try {
        const page = await context.newPage();
        const requested = new Set<string>();
        page.on('request', (request) => requested.add(new URL(request.url()).origin));
        await page.goto(`${site.origin}/`);
        await page.evaluate('window.parley.open()');
        const answer = await askOnPage(page, QUESTION, 1, 60_000);
        expect(answer.payload.markdown).toContain('25 days of paid vacation');
        expect(answer.metadata?.sources?.[0]?.key).toBe('handbook/acme.md');
        const bubble = page.locator('[data-parley-webchat] .pw-msg[data-from="bot"]').first();
        await expect.poll(() => bubble.textContent()).toContain('25 days of paid vacation');
        const href = String(await bubble.locator('a').first().getAttribute('href'));
        expect(href.startsWith(`${d.url}/v1/chat/${bot.id}/messages/`)).toBe(true);
        const source = await fetch(href);
        expect(source.status).toBe(200);
        expect(await source.text()).toBe(HANDBOOK);
        // The page spoke to the deployment's base URL only (and its own origin).
        expect([...requested].sort()).toEqual([new URL(d.url).origin, site.origin].sort());
      } finally {
        await context.close();
        await site.close();
      }
    },
    90_000,
  );
});
