// Hostile callers against a real process: what once killed it (streams that are never read while large
// messages are posted, decompression bombs and pathological documents sent for indexing) runs at once,
// while the process's health, memory and other users' requests are watched throughout.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { strToU8, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, useFirstRun } from '../packages/testkit/src/e2e/server.js';
import { xlsxBomb } from '../packages/testkit/src/shared/office-bombs.js';

/** Most resident memory the server may reach under the attack (it idles near 150–250 MB). */
const RSS_BOUND_MB = 900;
/**
 * Longest a health check may take under the attack before it counts as a failure: what once killed the process
 * stalled its event loop for tens of seconds. How fast it answers under attack is measured by bench/abuse.ts, not
 * here: a 1 s bound failed on a loaded CI machine (1.2–1.4 s) with the test's own process and others sharing 2 cores.
 */
const HEALTH_BOUND_MS = 5000;

/** The bootstrap owner's password (the first-start banner does not print one given by the environment). */
const OWNER_PASSWORD = 'abuse-test-owner-password';

/** Resident memory of a process, in MB (Linux). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

/** Polls /healthz and the process's RSS every 100 ms until stopped; records the worst of each. */
function watch(server: ServerProcess) {
  const seen = { checks: 0, failures: [] as string[], slowestMs: 0, peakRssMb: 0 };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const res = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(HEALTH_BOUND_MS) });
        if (res.status !== 200) seen.failures.push(`status ${res.status}`);
        await res.arrayBuffer();
      } catch (error) {
        seen.failures.push(String(error));
      }
      seen.checks += 1;
      seen.slowestMs = Math.max(seen.slowestMs, performance.now() - started);
      if (server.child.pid) seen.peakRssMb = Math.max(seen.peakRssMb, rssMb(server.child.pid));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    seen,
    async stop() {
      stopped = true;
      await loop;
      return seen;
    },
  };
}

/** A DOCX whose document.xml unpacks to about `mb` MB. */
function docxBomb(mb: number): Buffer {
  const paragraph = '<w:p><w:r><w:t>boom</w:t></w:r></w:p>';
  const body = paragraph.repeat(Math.ceil((mb * 1024 * 1024) / paragraph.length));
  return Buffer.from(
    zipSync(
      {
        '[Content_Types].xml': strToU8(
          '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
        ),
        '_rels/.rels': strToU8(
          '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
        ),
        'word/document.xml': strToU8(
          `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
        ),
      },
      { level: 9 },
    ),
  );
}

/**
 * POSTs `body` and answers the status and body of the answer as soon as it comes, whether or not the server
 * read the whole body (an answer before the body is read may close the socket under the upload).
 */
function post(url: string, headers: Record<string, string>, body: Buffer) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(body.length) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: text });
        req.destroy();
      });
    });
    req.on('error', (error) => {
      if (!req.writableFinished || error.message.includes('EPIPE')) return; // answered while uploading
      reject(error);
    });
    // A server that answers a body it refuses before the body is all sent closes the connection; the client's
    // kernel may then get a reset with the answer still unread (a loaded machine reads late). Such a request
    // ends with status 0, not never.
    req.on('close', () => resolve({ status: 0, body: '' }));
    req.end(body);
  });
}

/** `[[[…]]]` nested `bytes / 2` levels deep (made by filling, in milliseconds). */
function nestedArrays(bytes: number): Buffer {
  const body = Buffer.alloc(bytes, ']');
  body.fill('[', 0, bytes / 2);
  return body;
}

/** `[{},{},…]`: about `bytes / 3` empty objects. */
function wideObjects(bytes: number): Buffer {
  const n = Math.floor((bytes - 4) / 3);
  const body = Buffer.alloc(3 * n + 4);
  body.write('[', 0);
  body.fill('{},', 1, 1 + 3 * n);
  body.write('{}]', 1 + 3 * n);
  return body;
}

/** The parts of Chat API answers this test reads. */
interface ChatAnswer {
  key?: string;
  user?: { id: string };
  conversation?: { id: string };
  message?: { id: string };
}

describe('a hostile caller cannot take the process down', () => {
  const run = useFirstRun(
    {
      env: {
        PARLEY_RATE_LIMIT_MAX: '0',
        PARLEY_EMBEDDER: 'none',
        PARLEY_EXTRACTION_MEMORY_MB: '256',
        PARLEY_EXTRACTION_TIMEOUT_SECONDS: '10',
        PARLEY_CHAT_STREAM_STALL_MS: '5000',
        PARLEY_ADMIN_PASSWORD: OWNER_PASSWORD,
      },
    },
    60_000,
  );
  let chatBase: string;

  beforeAll(() => {
    chatBase = `${run.server.url}/v1/chat/${run.boot.botId}`;
  });

  const chat = async (path: string, init: { key?: string; body?: unknown; method?: string } = {}) => {
    const res = await fetch(`${chatBase}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.key ? { 'x-user-key': init.key } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    return { status: res.status, body: (await res.json()) as ChatAnswer };
  };
  const newUser = async () => {
    const res = await chat('/users', { body: {} });
    expect(res.status).toBe(201);
    return { id: String(res.body.user?.id), key: String(res.body.key) };
  };
  const newConversation = async (key: string) => {
    const res = await chat('/conversations', { key, body: {} });
    expect(res.status).toBe(201);
    return String(res.body.conversation?.id);
  };

  /** Upserts a file with index: true and uploads its bytes as the bot. */
  async function uploadForIndexing(key: string, data: Buffer): Promise<string> {
    const headers = { authorization: `Bearer ${run.boot.botAccessKey}`, 'x-bot-id': run.boot.botId };
    const upsert = await fetch(`${run.server.url}/v1/files`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ key, size: data.length, index: true }),
    });
    expect(upsert.status).toBe(200);
    const file = ((await upsert.json()) as { file: { id: string; uploadUrl: string; contentType: string } })
      .file;
    const put = await fetch(file.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': file.contentType },
      body: data,
    });
    expect(put.status).toBe(200);
    return file.id;
  }

  async function fileStatus(id: string): Promise<{ status: string; failedStatusReason?: string }> {
    const res = await fetch(`${run.server.url}/v1/files/${id}`, {
      headers: { authorization: `Bearer ${run.boot.botAccessKey}`, 'x-bot-id': run.boot.botId },
    });
    return ((await res.json()) as { file: { status: string; failedStatusReason?: string } }).file;
  }

  async function settled(id: string, timeoutMs: number) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const file = await fileStatus(id);
      if (file.status !== 'indexing_pending' && file.status !== 'upload_pending') return file;
      if (Date.now() > until) throw new Error(`file ${id} still ${file.status} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('stays healthy, within its memory bound, and serves others through stream floods, bombs and deep documents', async () => {
    // Made before the watch starts: compressing the bombs blocks this process for seconds, and a health check in
    // flight meanwhile would be timed with this process's stall. 96 MiB each: past the 64 MiB of XML a document
    // may unpack to (the extraction's maxXmlBytes), so the server refuses them as it does larger ones
    // (bench/abuse.ts's XLSX bomb is 190 MiB), for about half the work of the 190 + 150 MiB made before.
    const documents = {
      xlsx: xlsxBomb(96).bytes,
      docx: docxBomb(96),
      deep: Buffer.from(
        Array.from({ length: 4000 }, (_, i) => `${'>'.repeat(i % 2500)} line ${i}`).join('\n'),
      ),
    };
    const watcher = watch(run.server);
    const sockets: AbortController[] = [];
    try {
      // 1. Six anonymous users open 10 live streams each (the most allowed) and never read them.
      const attackers = await Promise.all(Array.from({ length: 6 }, newUser));
      const floods: Array<{ key: string; conversation: string }> = [];
      for (const attacker of attackers) {
        const conversation = await newConversation(attacker.key);
        floods.push({ key: attacker.key, conversation });
        for (let i = 0; i < 10; i++) {
          const controller = new AbortController();
          sockets.push(controller);
          const res = await fetch(`${chatBase}/conversations/${conversation}/listen`, {
            headers: { 'x-user-key': attacker.key },
            signal: controller.signal,
          });
          expect(res.status).toBe(200);
          // The body is never read: the client leaves every byte in the socket.
        }
        // An eleventh stream of the same user is refused.
        const extra = await fetch(`${chatBase}/conversations/${conversation}/listen`, {
          headers: { 'x-user-key': attacker.key },
        });
        expect(extra.status).toBe(429);
        await extra.body?.cancel();
      }

      // 2. Bombs and pathological documents are sent for indexing while the streams fill up.
      const hostile = await Promise.all([
        uploadForIndexing('bomb.xlsx', documents.xlsx),
        uploadForIndexing('bomb.docx', documents.docx),
        uploadForIndexing('deep.md', documents.deep),
      ]);

      // 3. The attackers post 127 KB messages into the conversations their unread streams listen to.
      const text = 'x'.repeat(127 * 1024 - 64);
      let posted = 0;
      for (let round = 0; round < 50; round++) {
        await Promise.all(
          floods.map(async ({ key, conversation }) => {
            const res = await chat('/messages', {
              key,
              body: { conversationId: conversation, payload: { type: 'text', text: `${round} ${text}` } },
            });
            expect(res.status).toBe(201);
            posted += 1;
          }),
        );
      }
      expect(posted).toBe(300);

      // 4. Meanwhile another visitor chats normally and hears its own message on its stream.
      const visitor = await newUser();
      const conversation = await newConversation(visitor.key);
      const controller = new AbortController();
      const stream = await fetch(`${chatBase}/conversations/${conversation}/listen`, {
        headers: { 'x-user-key': visitor.key },
        signal: controller.signal,
      });
      expect(stream.status).toBe(200);
      const sent = await chat('/messages', {
        key: visitor.key,
        body: { conversationId: conversation, payload: { type: 'text', text: 'Hello, is anyone there?' } },
      });
      expect(sent.status).toBe(201);
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
      let received = '';
      while (!received.includes(String(sent.body.message?.id))) {
        const { value, done } = await reader.read();
        if (done) break;
        received += new TextDecoder().decode(value);
      }
      expect(received).toContain(String(sent.body.message?.id));
      controller.abort();

      // 5. Every hostile document ends indexing_failed with a reason; an ordinary one still indexes.
      const ordinary = await uploadForIndexing(
        'faq.md',
        Buffer.from('# Returns\n\nItems can be returned within 30 days for a full refund.\n'),
      );
      for (const id of hostile) {
        const file = await settled(id, 90_000);
        expect(file.status).toBe('indexing_failed');
        expect(file.failedStatusReason).toMatch(/^too_large: /);
      }
      expect((await settled(ordinary, 30_000)).status).toBe('indexing_completed');
    } finally {
      for (const controller of sockets) controller.abort();
      const seen = await watcher.stop();
      console.log(
        `abuse: ${seen.checks} health checks, slowest ${seen.slowestMs.toFixed(0)} ms, peak RSS ${seen.peakRssMb.toFixed(0)} MB`,
      );
    }
    const seen = watcher.seen;
    expect(seen.failures).toEqual([]);
    expect(seen.slowestMs).toBeLessThan(HEALTH_BOUND_MS);
    expect(seen.peakRssMb).toBeLessThan(RSS_BOUND_MB);
    expect(run.server.child.exitCode).toBeNull();
  }, 180_000);

  it('answers huge and deep JSON bodies at once, authenticated or not, and stays healthy', async () => {
    // Made before the watch starts (filled buffers: milliseconds).
    const MB = 1024 * 1024;
    const deep = nestedArrays(48 * MB);
    const wide = wideObjects(48 * MB);
    expect(JSON.parse(wideObjects(1000).toString())).toHaveLength(333);
    const tenMb = Buffer.from(`{"data":{"x":"${'x'.repeat(10 * MB)}"}}`);
    const deepMb = Buffer.from(`{"name":"x","data":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`);
    const url = run.server.url;
    const owner = { authorization: `Bearer ${run.boot.token}`, 'x-workspace-id': run.boot.workspaceId };
    const watcher = watch(run.server);
    const answers: Array<[string, number, string]> = [];
    try {
      const expectAnswer = async (
        what: string,
        res: Promise<{ status: number; body: string }>,
        status: number,
        type: string,
      ) => {
        const { status: got, body } = await res;
        answers.push([what, got, body.slice(0, 120)]);
        if (got === 0) return; // closed with the answer unread (see post): each kind must be answered in some round
        expect(got, `${what}: ${body.slice(0, 200)}`).toBe(status);
        expect(JSON.parse(body)).toMatchObject({ code: status, type });
      };
      // Three rounds of every attack at once.
      for (let round = 0; round < 3; round++) {
        await Promise.all([
          // Anonymous: refused before the body is read.
          expectAnswer('deep, no token', post(`${url}/v1/admin/bots`, {}, deep), 401, 'Unauthorized'),
          expectAnswer(
            'deep, no token (sessions)',
            post(`${url}/v1/admin/account/sessions`, {}, deep),
            413,
            'PayloadTooLarge',
          ),
          expectAnswer('wide, no token', post(`${url}/v1/admin/bots`, {}, wide), 401, 'Unauthorized'),
          expectAnswer(
            '10 MB, chat user',
            post(`${url}/v1/chat/${run.boot.botId}/users`, {}, tenMb),
            413,
            'PayloadTooLarge',
          ),
          expectAnswer(
            '10 MB, chat, no key',
            post(`${url}/v1/chat/${run.boot.botId}/conversations`, {}, tenMb),
            401,
            'Unauthorized',
          ),
          // Authenticated (the spec's 50 MB): refused from the scan as the bytes arrive, never parsed —
          // too deep (400 naming the field), too many values (413).
          expectAnswer('deep, owner', post(`${url}/v1/admin/bots`, owner, deep), 400, 'InvalidPayload'),
          expectAnswer('wide, owner', post(`${url}/v1/admin/bots`, owner, wide), 413, 'PayloadTooLarge'),
          // Deep within the limit: refused from the scan, never parsed.
          expectAnswer(
            'deep 200 kB, chat user',
            post(`${url}/v1/chat/${run.boot.botId}/users`, {}, deepMb),
            400,
            'InvalidPayload',
          ),
        ]);
      }
    } finally {
      const seen = await watcher.stop();
      console.log(
        `abuse (bodies): ${seen.checks} health checks, slowest ${seen.slowestMs.toFixed(0)} ms, peak RSS ${seen.peakRssMb.toFixed(0)} MB; ${answers.length} answers`,
      );
    }
    const kinds = new Set(answers.map(([what]) => what));
    const answered = new Set(answers.filter(([, got]) => got !== 0).map(([what]) => what));
    expect([...kinds].filter((what) => !answered.has(what))).toEqual([]);
    const seen = watcher.seen;
    expect(seen.failures).toEqual([]);
    expect(seen.checks).toBeGreaterThan(0);
    expect(seen.slowestMs).toBeLessThan(HEALTH_BOUND_MS);
    expect(seen.peakRssMb).toBeLessThan(RSS_BOUND_MB);
    expect(run.server.child.exitCode).toBeNull();
  }, 120_000);

  it('refuses prototype keys (tag filters, bodies) with 400s and keeps serving everyone, healthy', async () => {
    const { server, boot } = run;
    const asBot = { authorization: `Bearer ${boot.botAccessKey}`, 'x-bot-id': boot.botId };
    const asOwner = { authorization: `Bearer ${boot.token}`, 'x-workspace-id': boot.workspaceId };
    const json = { 'content-type': 'application/json' };
    const polluting: Array<[string, string, Record<string, string>, string?]> = [
      ['GET', '/v1/admin/bots?tags.__proto__=x', asOwner],
      ['GET', '/v1/admin/bots?tags[constructor][exists]=true', asOwner],
      ['GET', '/v1/files?tags[__proto__]=x', asBot],
      ['GET', '/v1/files/search?query=a&tags.__proto__.not=x', asBot],
      [
        'PUT',
        `/v1/admin/bots/${boot.botId}/webchat`,
        { ...asOwner, ...json },
        '{"configuration":{"constructor":{"prototype":{"anyOf":[1]}}}}',
      ],
      [
        'PUT',
        '/v1/files',
        { ...asBot, ...json },
        '{"key":"p.txt","size":1,"metadata":{"__proto__":{"anyOf":[1]}}}',
      ],
      ['POST', `/v1/chat/${boot.botId}/users`, json, '{"data":{"__proto__":{"anyOf":[1]}}}'],
    ];
    for (const [method, path, headers, body] of polluting) {
      const res = await fetch(`${server.url}${path}`, { method, headers, ...(body ? { body } : {}) });
      const answer = (await res.json()) as { code?: number; type?: string };
      expect([path, res.status, answer.type]).toEqual([
        path,
        400,
        expect.stringMatching(/^Invalid(Query|Payload)$/),
      ]);
    }
    // Everything the polluted prototype once broke still works: chat users and messages, file upserts, the
    // webchat configuration, sign-in; and the health check answers promptly.
    const user = await newUser();
    const conversation = await newConversation(user.key);
    const sent = await chat('/messages', {
      key: user.key,
      body: { conversationId: conversation, payload: { type: 'text', text: 'still here?' } },
    });
    expect(sent.status).toBe(201);
    const upsert = await fetch(`${server.url}/v1/files`, {
      method: 'PUT',
      headers: { ...asBot, ...json },
      body: JSON.stringify({ key: 'after.txt', size: 1, tags: { team: 'a' }, metadata: { a: 1 } }),
    });
    expect(upsert.status).toBe(200);
    const webchat = await fetch(`${server.url}/webchat/v1/bots/${boot.botId}/config`);
    expect(webchat.status).toBe(200);
    await webchat.arrayBuffer();
    const signIn = await fetch(`${server.url}/v1/admin/account/sessions`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: boot.email, password: OWNER_PASSWORD }),
    });
    expect(signIn.status).toBe(201);
    await signIn.arrayBuffer();
    const started = performance.now();
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    await health.arrayBuffer();
    expect(performance.now() - started).toBeLessThan(HEALTH_BOUND_MS);
  }, 60_000);

  it('checks at most 5 of 200 concurrent wrong passwords for one e-mail (the rest 429), healthy throughout', async () => {
    const { server, boot } = run;
    const watching = watch(server);
    // An e-mail without an account is throttled exactly as one with (its failures would lock only this address).
    const email = `nobody-${Date.now()}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const res = await fetch(`${server.url}/v1/admin/account/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: `wrong password ${i}` }),
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    const seen = await watching.stop();
    const checked = answers.filter((status) => status === 401).length;
    expect(answers.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(5);
    expect(seen.failures).toEqual([]);
    expect(seen.slowestMs).toBeLessThan(HEALTH_BOUND_MS);
    // The owner, from the same address, is not locked out by them.
    const owner = await fetch(`${server.url}/v1/admin/account/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: boot.email, password: OWNER_PASSWORD }),
    });
    expect(owner.status).toBe(201);
    await owner.arrayBuffer();
  }, 60_000);
});

describe('visitors cannot squat the File Storage quota with uploads they never send', () => {
  const MB = 1024 * 1024;
  const run = useFirstRun(
    {
      env: {
        PARLEY_RATE_LIMIT_MAX: '0',
        PARLEY_EMBEDDER: 'none',
        PARLEY_QUOTA_FILE_STORAGE_BYTES: String(50 * MB),
        PARLEY_UPLOAD_URL_TTL_SECONDS: '20',
      },
    },
    60_000,
  );

  it("keeps the owner's uploads working after five 10 MB chat uploads that send nothing, and logs a dropped upload below error", async () => {
    const { server, boot } = run;
    const json = { 'content-type': 'application/json' };
    const allow = await fetch(`${server.url}/v1/admin/bots/${boot.botId}/webchat`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${boot.token}`, 'x-workspace-id': boot.workspaceId, ...json },
      body: JSON.stringify({ configuration: { allowFileUpload: true } }),
    });
    expect(allow.status).toBe(200);
    const chatBase = `${server.url}/v1/chat/${boot.botId}`;
    const user = (await (
      await fetch(`${chatBase}/users`, { method: 'POST', headers: json, body: '{}' })
    ).json()) as {
      key: string;
    };
    const asUser = { 'x-user-key': user.key, ...json };
    const conversation = (await (
      await fetch(`${chatBase}/conversations`, { method: 'POST', headers: asUser, body: '{}' })
    ).json()) as { conversation: { id: string } };
    const uploads: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${chatBase}/files`, {
        method: 'POST',
        headers: asUser,
        body: JSON.stringify({
          name: `big-${i}.bin`,
          size: 10 * MB,
          conversationId: conversation.conversation.id,
        }),
      });
      expect(res.status).toBe(201);
      uploads.push(((await res.json()) as { file: { uploadUrl: string } }).file.uploadUrl);
    }
    // The team's quota is the team's: the owner's 1 MB upload goes through.
    const asBot = { authorization: `Bearer ${boot.botAccessKey}`, 'x-bot-id': boot.botId };
    const upsert = await fetch(`${server.url}/v1/files`, {
      method: 'PUT',
      headers: { ...asBot, ...json },
      body: JSON.stringify({ key: 'owner.bin', size: MB }),
    });
    expect(upsert.status).toBe(200);
    const target = ((await upsert.json()) as { file: { uploadUrl: string } }).file.uploadUrl;
    const put = await fetch(target, { method: 'PUT', body: Buffer.alloc(MB, 1) });
    expect(put.status).toBe(200);
    await put.arrayBuffer();
    // A visitor's upload dropped mid-body: the URL is free again at once, and nothing is logged as an error.
    const dropped = uploads[0] ?? '';
    await new Promise<void>((resolve) => {
      const req = request(dropped, {
        method: 'PUT',
        headers: { 'content-length': String(10 * MB) },
        agent: false,
      });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(64 * 1024), () => setImmediate(() => req.destroy()));
    });
    for (let i = 0; ; i++) {
      const probe = await fetch(dropped, { method: 'PUT', body: Buffer.alloc(1) });
      await probe.arrayBuffer();
      if (probe.status !== 409) {
        // One byte of the declared 10 MB: refused as incomplete (the slot was free).
        expect(probe.status).toBe(400);
        break;
      }
      expect(i).toBeLessThan(200);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(
      server
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"level":50')),
    ).toEqual([]);
  }, 60_000);
});
