// Cross-process behaviour of a cluster (three `parley serve` processes on one PostgreSQL database and one S3 store
// behind nginx, e2e/support/deployment.ts), addressing each process directly where it matters: live streams,
// files, indexing spread, shared secrets and sessions, and `kill -9` of a process in the middle of an indexing
// job and of a bot reply. The model services the processes call out to (embeddings, chat model) are a stand-in
// (e2e/support/stand-in-models.ts) with one URL per process, so a test knows which process did a job, and can
// keep a process busy with one until it kills it.
import { createHash, randomBytes } from 'node:crypto';
import { ChatClient, Client, signUserKey, UnauthorizedError } from '@parley/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Deployment, haveCluster } from '../packages/testkit/src/e2e/deployment.js';
import { metric, useModelCluster } from '../packages/testkit/src/e2e/model-cluster.js';
import { requireBuild, type ServerProcess } from '../packages/testkit/src/e2e/server.js';
import { openSse, type SseFrame } from '../packages/testkit/src/e2e/sse.js';
import {
  type StandInModels,
  type StandInRequest,
  standInAnswer,
} from '../packages/testkit/src/e2e/stand-in-models.js';
import { signInCookie } from '../packages/testkit/src/shared/sessions.js';

requireBuild();

const clusterHere = haveCluster('cluster tests');

const PASSWORD = 'cluster-owner-password-1';

const HANDBOOK = `# Acme handbook

## Vacation

Every employee receives 25 days of paid vacation per calendar year.

## Office

The Lyon office opens at 8:30 and closes at 18:00.
`;

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** The same URL on another origin (a process addressed directly instead of the proxy). */
const on = (proc: ServerProcess, url: string) => {
  const u = new URL(url);
  return `${proc.url}${u.pathname}${u.search}`;
};

describe.skipIf(!clusterHere)('three processes behind nginx on PostgreSQL and S3', () => {
  const cluster = useModelCluster({
    PARLEY_ADMIN_PASSWORD: PASSWORD,
    // One file at a time per process: a process busy with a held file takes no other (the spread test).
    PARLEY_INDEXING_CONCURRENCY: '1',
    // A killed process's jobs are taken over 5 s after its last heartbeat (the default is 60 s; 5 s is the least
    // allowed): the kill test waits that long. A live job's heartbeat renews it every third of it (1.7 s).
    PARLEY_JOB_LEASE_SECONDS: '5',
  });
  let d: Deployment;
  let models: StandInModels;
  let files: Client;
  let admin: Client;
  let bot: { id: string; key: string };
  let handbookId: string;

  const proc = (i: number) => d.processes[i] as ServerProcess;

  beforeAll(async () => {
    ({ d, models } = cluster);
    admin = new Client({ apiUrl: d.url, token: d.owner.token, workspaceId: d.owner.workspaceId });
    const { bot: made } = await admin.createBot({ name: 'Cluster' });
    const { key } = await admin.createBotAccessKey({ id: made.id });
    bot = { id: made.id, key: key.value };
    files = new Client({ apiUrl: d.url, token: bot.key, botId: bot.id });
    const handbook = await files.uploadFile({ key: 'handbook.md', content: HANDBOOK, index: true });
    handbookId = handbook.id;
    await files.waitForIndexing(handbookId, { timeoutMs: 60_000, intervalMs: 200 });
  }, 120_000);

  /** Headers of a Files API call as the bot. */
  const asBot = () => ({ authorization: `Bearer ${bot.key}`, 'x-bot-id': bot.id });

  it('nginx spreads requests over the three processes (no stickiness)', async () => {
    const count = () =>
      Promise.all(
        [0, 1, 2].map((i) => metric(proc(i), 'parley_http_requests_total', { operation: 'files.listFiles' })),
      );
    const before = await count();
    for (let i = 0; i < 9; i++)
      expect((await fetch(`${d.url}/v1/files`, { headers: asBot() })).status).toBe(200);
    const after = await count();
    expect(after.map((n, i) => n - (before[i] as number))).toEqual([3, 3, 3]);
  });

  it('a listener connected to process A hears every message posted through B and C, in order, none twice', async () => {
    const anon = new ChatClient({ apiUrl: d.url, botId: bot.id });
    const { key } = await anon.createUser({ name: 'Listener' });
    const { conversation } = await anon.with({ userKey: key }).createConversation();
    const stream = await openSse(`${proc(0).url}/v1/chat/${bot.id}/conversations/${conversation.id}/listen`, {
      'x-user-key': key,
    });
    try {
      expect(stream.status).toBe(200);
      const post = async (through: ServerProcess, text: string) => {
        const res = await fetch(`${through.url}/v1/chat/${bot.id}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bot.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ conversationId: conversation.id, payload: { type: 'text', text } }),
        });
        expect(res.status).toBe(201);
      };
      // One after another through B, then two chains at once through B and C.
      for (let i = 0; i < 20; i++) await post(proc(1), `b-${i}`);
      await Promise.all([
        (async () => {
          for (let i = 20; i < 40; i++) await post(proc(1), `b-${i}`);
        })(),
        (async () => {
          for (let i = 0; i < 20; i++) await post(proc(2), `c-${i}`);
        })(),
      ]);
      const texts = () =>
        stream.frames
          .map((f) => f.data as { type: string; data: { payload?: { text?: string } } })
          .filter((s) => s.type === 'message_created')
          .map((s) => String(s.data.payload?.text));
      await stream.until(() => texts().length >= 60, 30_000);
      const heard = texts();
      expect(heard).toHaveLength(60);
      expect(new Set(heard).size).toBe(60);
      const b = heard.filter((t) => t.startsWith('b-'));
      const c = heard.filter((t) => t.startsWith('c-'));
      expect(b).toEqual(Array.from({ length: 40 }, (_, i) => `b-${i}`));
      expect(c).toEqual(Array.from({ length: 20 }, (_, i) => `c-${i}`));
      const ids = stream.frames.map((f) => Number(f.id));
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    } finally {
      stream.close();
    }
  });

  it('a listener through the proxy outlives the death of its process: it reconnects through nginx to another and misses nothing', async () => {
    const anon = new ChatClient({ apiUrl: d.url, botId: bot.id });
    const { key } = await anon.createUser({ name: 'Survivor' });
    const chat = anon.with({ userKey: key, retry: { attempts: 10, baseDelayMs: 100, maxDelayMs: 500 } });
    const { conversation } = await chat.createConversation();
    const heard: string[] = [];
    let opens = 0;
    const controller = new AbortController();
    const listening = (async () => {
      for await (const s of chat.listen(conversation.id, {
        signal: controller.signal,
        onOpen: () => opens++,
      })) {
        if (s.type === 'message_created') heard.push(String((s.data.payload as { text?: string }).text));
      }
    })();
    try {
      await expect.poll(() => opens).toBe(1);
      const streamsOpen = () =>
        Promise.all([0, 1, 2].map((i) => metric(proc(i), 'parley_chat_streams_open')));
      const open = await streamsOpen();
      const holder = open.indexOf(1);
      expect(open.filter((n) => n === 1)).toHaveLength(1);
      const post = async (text: string) => {
        const res = await fetch(`${d.url}/v1/chat/${bot.id}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bot.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ conversationId: conversation.id, payload: { type: 'text', text } }),
        });
        expect(res.status).toBe(201);
      };
      for (let i = 0; i < 5; i++) await post(`before-${i}`);
      await expect.poll(() => heard.length).toBe(5);
      await d.kill(holder);
      // Posted while the listener has no connection: through nginx, to the processes still alive.
      for (let i = 0; i < 5; i++) await post(`after-${i}`);
      await expect.poll(() => heard.length, { timeout: 30_000 }).toBe(10);
      expect(heard).toEqual([
        ...[0, 1, 2, 3, 4].map((i) => `before-${i}`),
        ...[0, 1, 2, 3, 4].map((i) => `after-${i}`),
      ]);
      expect(opens).toBeGreaterThanOrEqual(2);
      await d.restart(holder);
    } finally {
      controller.abort();
      await listening.catch(() => undefined);
    }
  });

  it('a file uploaded through A downloads through B and C at once, with the same bytes and ranges', async () => {
    const data = randomBytes(8 * 1024 * 1024 + 11);
    const upsert = await fetch(`${proc(0).url}/v1/files`, {
      method: 'PUT',
      headers: { ...asBot(), 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'cross/big.bin', size: data.length }),
    });
    expect(upsert.status).toBe(200);
    const { file } = (await upsert.json()) as { file: { id: string; uploadUrl: string } };
    // The uploadUrl names the public URL (the proxy); the bytes go to A itself.
    expect(file.uploadUrl.startsWith(`${d.url}/`)).toBe(true);
    const put = await fetch(on(proc(0), file.uploadUrl), { method: 'PUT', body: data });
    expect(put.status, await put.clone().text()).toBe(200);
    const got = await fetch(`${proc(0).url}/v1/files/${file.id}`, { headers: asBot() });
    const { url } = ((await got.json()) as { file: { url: string } }).file;
    const [fromB, fromC, rangeC] = await Promise.all([
      fetch(on(proc(1), url)).then(async (r) => ({
        status: r.status,
        body: new Uint8Array(await r.arrayBuffer()),
      })),
      fetch(on(proc(2), url)).then(async (r) => ({
        status: r.status,
        body: new Uint8Array(await r.arrayBuffer()),
      })),
      fetch(on(proc(2), url), { headers: { range: 'bytes=5-14' } }).then(async (r) => ({
        status: r.status,
        body: new Uint8Array(await r.arrayBuffer()),
      })),
    ]);
    expect(fromB.status).toBe(200);
    expect(fromC.status).toBe(200);
    expect(sha256(fromB.body)).toBe(sha256(data));
    expect(sha256(fromC.body)).toBe(sha256(data));
    expect(rangeC.status).toBe(206);
    expect(Buffer.from(rangeC.body).equals(data.subarray(5, 15))).toBe(true);
  });

  it('shares the signing secret, sessions and chat secrets: what one process mints, the others accept', async () => {
    // An uploadUrl minted by B works on C.
    const upsert = await fetch(`${proc(1).url}/v1/files`, {
      method: 'PUT',
      headers: { ...asBot(), 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'cross/minted-on-b.txt', size: 5 }),
    });
    const { file } = (await upsert.json()) as { file: { id: string; uploadUrl: string } };
    expect((await fetch(on(proc(2), file.uploadUrl), { method: 'PUT', body: 'hello' })).status).toBe(200);

    // A session signed in on A is known to B and C; signed out on C, A refuses it.
    const cookie = await signInCookie(proc(0).url, d.owner.email, PASSWORD);
    for (const i of [1, 2]) {
      const me = await fetch(`${proc(i).url}/v1/admin/account/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { account: { email: string } }).account.email).toBe(d.owner.email);
    }
    const signOut = await fetch(`${proc(2).url}/v1/admin/account/sessions/current`, {
      method: 'DELETE',
      headers: { cookie, origin: new URL(d.url).origin },
    });
    expect(signOut.status).toBeLessThan(300);
    expect((await fetch(`${proc(0).url}/v1/admin/account/me`, { headers: { cookie } })).status).toBe(401);

    // A user key signed with the chat secret read on A works on B; rotated on C, the old key fails on A.
    const { chat: secrets } = await admin.with({ apiUrl: proc(0).url }).getBotChat({ id: bot.id });
    const userKey = await signUserKey(secrets.userKeySecret, 'customer-42', { expiresInSeconds: 600 });
    const onB = new ChatClient({ apiUrl: proc(1).url, botId: bot.id, userKey });
    expect((await onB.getOrCreateUser({ name: 'Customer 42' })).user.id).toBeTruthy();
    await admin.with({ apiUrl: proc(2).url }).rotateBotChatSecrets({ id: bot.id });
    const onA = new ChatClient({ apiUrl: proc(0).url, botId: bot.id, userKey, retry: { attempts: 1 } });
    await expect(onA.getUser()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('a bot reply written by one process streams to listeners on every process: deltas in order, then the message', async () => {
    const anon = new ChatClient({ apiUrl: d.url, botId: bot.id });
    const { key } = await anon.createUser({ name: 'Streams' });
    const chat = anon.with({ userKey: key });
    const { conversation } = await chat.createConversation();
    const streams = await Promise.all(
      [0, 1, 2].map((i) =>
        openSse(`${proc(i).url}/v1/chat/${bot.id}/conversations/${conversation.id}/listen`, {
          'x-user-key': key,
        }),
      ),
    );
    try {
      const asked = models.requests.length;
      await chat.createMessage({
        conversationId: conversation.id,
        payload: { type: 'text', text: 'How many days of paid vacation do I get?' },
      });
      const signals = (frames: SseFrame[]) =>
        frames.map(
          (f) =>
            f.data as {
              type: string;
              data: { isBot?: boolean; delta?: string; payload?: { markdown?: string } };
            },
        );
      // The reply's message and then its stream's end (stored after it, in the same transaction): both may not
      // come in one read.
      const replied = (frames: SseFrame[]) =>
        signals(frames).some((s) => s.type === 'message_created' && s.data.isBot) &&
        signals(frames).some((s) => s.type === 'message_stream_complete');
      await Promise.all(streams.map((s) => s.until(replied, 30_000)));
      const writer = models.requests.slice(asked).find((r) => r.kind === 'chat')?.process as number;
      expect([0, 1, 2]).toContain(writer);
      for (const stream of streams) {
        const heard = signals(stream.frames);
        const deltas = heard
          .filter((s) => s.type === 'message_stream_delta')
          .map((s) => s.data.delta)
          .join('');
        expect(deltas).toBe(standInAnswer(writer));
        const complete = heard.findIndex((s) => s.type === 'message_stream_complete');
        const message = heard.findIndex((s) => s.type === 'message_created' && s.data.isBot);
        expect(complete).toBeGreaterThan(heard.findLastIndex((s) => s.type === 'message_stream_delta'));
        expect(heard[message]?.data.payload?.markdown).toContain(standInAnswer(writer));
      }
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('spreads indexing jobs over the three processes', async () => {
    // Each process indexes one file at a time: the stand-in holds every marked file's embeddings until all three
    // processes are waiting on one, so the three files are indexed by three processes, whatever the timing.
    const processesWaiting = () => new Set(models.held().map((r) => r.process)).size;
    models.holdWhen((r) => r.kind === 'embeddings' && r.texts.some((t) => t.includes('spreadmarker')));
    const before = await Promise.all(
      [0, 1, 2].map((i) => metric(proc(i), 'parley_indexing_duration_seconds_count', { outcome: 'ok' })),
    );
    const uploaded = await Promise.all(
      [0, 1, 2].map((i) =>
        files.uploadFile({
          key: `spread/${i}.txt`,
          content: `spreadmarker file ${i} about parcels`,
          index: true,
        }),
      ),
    );
    await models.until(() => processesWaiting() === 3, 20_000).finally(() => models.release());
    for (const f of uploaded) await files.waitForIndexing(f.id, { timeoutMs: 30_000, intervalMs: 200 });
    const after = await Promise.all(
      [0, 1, 2].map((i) => metric(proc(i), 'parley_indexing_duration_seconds_count', { outcome: 'ok' })),
    );
    expect(after.map((n, i) => n - (before[i] as number))).toEqual([1, 1, 1]);
  }, 60_000);

  it('kill -9 of the processes busy with an indexing job and a bot reply: another process finishes both once the lease runs out, and nothing stays stuck', async () => {
    // The document's embeddings and the chat model's call for the question are held (not the question's embedding).
    models.release();
    const marked = (r: StandInRequest) =>
      r.texts.some((t) => t.includes(r.kind === 'embeddings' ? 'indexmarker' : 'replymarker'));
    models.holdWhen(marked);
    const doc = await files.uploadFile({
      key: 'crash/berlin.txt',
      content: 'indexmarker The Berlin office opens at nine and closes at five.',
      index: true,
    });
    await models.until(() => models.held().some((r) => r.kind === 'embeddings'));
    const indexer = models.held().find((r) => r.kind === 'embeddings')?.process as number;

    const anon = new ChatClient({ apiUrl: d.url, botId: bot.id });
    const { key } = await anon.createUser({ name: 'Crash' });
    const chat = anon.with({ userKey: key });
    const { conversation } = await chat.createConversation();
    const question = 'replymarker How many days of paid vacation do I get?';
    await chat.createMessage({ conversationId: conversation.id, payload: { type: 'text', text: question } });
    await models.until(() => models.held().some((r) => r.kind === 'chat'));
    const replier = models.held().find((r) => r.kind === 'chat')?.process as number;

    // Both processes die at once, mid-job; the held calls go with them, and from now on the stand-in answers.
    const killed = [...new Set([indexer, replier])];
    const asked = models.requests.length;
    const exits = await Promise.all(killed.map((i) => d.kill(i)));
    for (const exit of exits) expect(exit.signal).toBe('SIGKILL');
    models.release();

    // Another process takes both jobs once their lease (5 s without a heartbeat) has run out.
    const alive = [0, 1, 2].filter((i) => !killed.includes(i));
    const survivor = new Client({ apiUrl: proc(alive[0] as number).url, token: bot.key, botId: bot.id });
    const indexed = await survivor.waitForIndexing(doc.id, { timeoutMs: 150_000, intervalMs: 500 });
    expect(indexed.status).toBe('indexing_completed');
    const reread = models.requests.slice(asked).filter((r) => r.kind === 'embeddings' && marked(r));
    expect(reread.length).toBeGreaterThan(0);
    for (const r of reread) expect(killed).not.toContain(r.process);

    const onSurvivor = chat.with({ apiUrl: proc(alive[0] as number).url });
    const botMessages = async () =>
      (await onSurvivor.listMessages({ conversationId: conversation.id })).messages.filter((m) => m.isBot);
    await expect.poll(async () => (await botMessages()).length, { timeout: 150_000, interval: 500 }).toBe(1);
    const answeredBy = models.requests.slice(asked).find((r) => r.kind === 'chat' && marked(r))?.process;
    expect(answeredBy).toBeDefined();
    expect(answeredBy).not.toBe(replier);
    const [reply] = await botMessages();
    expect((reply?.payload as { markdown?: string } | undefined)?.markdown).toContain(
      standInAnswer(answeredBy as number),
    );

    // The killed processes start again; the queue is empty, the new document is found, the answer is not repeated.
    for (const i of killed) await d.restart(i);
    for (const i of [0, 1, 2]) expect((await fetch(`${proc(i).url}/readyz`)).status).toBe(200);
    expect(await metric(proc(0), 'parley_job_queue_depth')).toBe(0);
    const { passages } = await files.searchFiles({ query: 'when does the Berlin office open', limit: 3 });
    expect(passages.map((p) => p.file.key)).toContain('crash/berlin.txt');
    const messages = (await chat.listMessages({ conversationId: conversation.id })).messages;
    expect(messages.map((m) => m.isBot).sort()).toEqual([false, true]);
  }, 240_000);
});
