// Chat live stream benchmark: delivery latency (POST /messages sent → frame read on each listener, p50/p95/max)
// and throughput of `GET /v1/chat/{botId}/conversations/{id}/listen` with 1, 10 and 100 listeners, on one
// SQLite server process and on two processes sharing a PostgreSQL database (sender on A, listeners on B), each
// printed beside a minimal raw Node http server doing the same fan-out in memory, measured in the same run.
// See docs/benchmarks/chat-stream.md.
//
//   npm run -w @parley/bench chat-stream
//   npm run -w @parley/bench chat-stream -- --listeners 1,10,100,500 --messages 500 --bursts 20
//
// Options (flags win over environment): --listeners / BENCH_LISTENERS (default 1,10,100), --messages /
// BENCH_MESSAGES (sequential messages per system and listener count, default 200), --bursts / BENCH_BURSTS
// (default 10), --burst-size / BENCH_BURST_SIZE (messages sent at once, default 20), --rounds / BENCH_ROUNDS
// (the sequential messages are cut into this many rounds, the systems taking turns, default 5),
// --database-url / BENCH_DATABASE_URL (a PostgreSQL server, default postgres://postgres@127.0.0.1:5432/test;
// `none` skips PostgreSQL), --dir / BENCH_DIR (work folder; default the OS temp folder), --parley-main /
// BENCH_PARLEY_MAIN (the server entry point to run, default this checkout's packages/server/dist/main.js: another
// build's, to measure before and after a change).
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Agent, createServer, request, type ServerResponse } from 'node:http';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onMaintenanceDb, withDatabase } from '@parley/server/dist/db/postgres-maintenance.js';
import { createParser } from 'eventsource-parser';
import { intOption, makeWorkFolder, option } from './lib/args.js';
import { megabytes, ratio, table } from './lib/format.js';
import { cpuSeconds, loadAverage, procMemory } from './lib/machine.js';
import { runMain, sleep } from './lib/run.js';
import {
  type Bootstrap,
  type CallOptions,
  callJson as callJsonOn,
  childEnv,
  freePort,
  httpCall,
  type NodeProcess,
  readBody,
  readBootstrap,
  running,
  spawnNode,
  startParley,
  withCleanup,
} from './lib/server.js';
import { msSince, now, summarize } from './lib/stats.js';

const DELIVERY_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------------------------------------------------
// Options

function listOption(name: string, env: string, fallback: number[]): number[] {
  const raw = option(name, env);
  if (raw === undefined) return fallback;
  const list = raw.split(',').map((s) => Number(s.trim()));
  if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n < 1 || n > 10_000))
    throw new Error(`--${name} must be listener counts from 1 to 10000, comma-separated, got "${raw}"`);
  return list;
}

// ---------------------------------------------------------------------------------------------------------
// The baseline: a raw Node http server doing the same fan-out in memory (run as a child process of this file)

/** `<prefix>_` and `length` random base-32 digits: ids as long as Parley's (a message's 16, a ULID's 26). */
function baselineId(prefix: string, length: number): string {
  const digits = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let id = `${prefix}_`;
  for (const byte of randomBytes(length)) id += digits[byte % 32];
  return id;
}

/**
 * `GET /conversations/{id}/listen` keeps the response open as an SSE stream; `POST /messages` parses the JSON
 * body, makes a message, writes one frame shaped like Parley's to every open stream of the conversation, then
 * answers 201 `{message}`. No storage, no auth, no validation: the floor of this work in Node. Its ids are as
 * long as Parley's (a message's, its author's, the conversation's), so its frames are Parley's size: the
 * readers parse the same bytes from both.
 */
function runBaselineServer(port: number): void {
  const streams = new Map<string, Set<ServerResponse>>();
  const botUserId = baselineId('user', 26);
  let cursor = 0;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const listen = path.match(/^\/conversations\/([^/]+)\/listen$/);
    if (req.method === 'GET' && listen?.[1]) {
      const id = listen[1];
      let set = streams.get(id);
      if (!set) {
        set = new Set();
        streams.set(id, set);
      }
      const open = set;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
      });
      res.write('retry: 3000\n: connected\n\n');
      open.add(res);
      res.on('close', () => open.delete(res));
      return;
    }
    if (req.method === 'POST' && path === '/messages') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        body += chunk;
      });
      req.on('end', () => {
        const input = JSON.parse(body) as { conversationId: string; payload: unknown; metadata?: unknown };
        cursor += 1;
        const message = {
          id: baselineId('msg', 16),
          conversationId: input.conversationId,
          userId: botUserId,
          isBot: true,
          payload: input.payload,
          metadata: input.metadata ?? {},
          createdAt: new Date().toISOString(),
        };
        const frame = `id: ${cursor}\nevent: message\ndata: {"type":"message_created","data":${JSON.stringify(message)}}\n\n`;
        for (const stream of streams.get(input.conversationId) ?? []) stream.write(frame);
        const answer = JSON.stringify({ message });
        res.writeHead(201, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(answer),
        });
        res.end(answer);
      });
      return;
    }
    res.writeHead(404).end();
  });
  server.keepAliveTimeout = 120_000;
  server.listen(port, '127.0.0.1', () => console.log(`baseline listening on ${port}`));
  process.on('SIGTERM', () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------------------
// Processes

/** The baseline server: this file run with `--baseline-server <port>`. */
async function startBaseline(): Promise<NodeProcess> {
  const port = await freePort();
  return spawnNode({
    name: 'raw Node http',
    args: [fileURLToPath(import.meta.url), '--baseline-server', String(port)],
    env: childEnv({}),
    url: `http://127.0.0.1:${port}`,
    ready: async (out) => out.includes('baseline listening'),
  });
}

/** Parley with no embedder (no knowledge replies), on SQLite in `dataDir` or on the PostgreSQL `databaseUrl`. */
function startChatServer(name: string, dataDir: string, databaseUrl?: string): Promise<NodeProcess> {
  return startParley(
    name,
    dataDir,
    {
      PARLEY_EMBEDDER: 'none',
      ...(databaseUrl ? { PARLEY_DATABASE_URL: databaseUrl } : {}),
    },
    parleyMain,
  );
}

/** The server entry point to run (`--parley-main`; default this checkout's build), to measure another build. */
const parleyMain = option('parley-main', 'BENCH_PARLEY_MAIN');

/** VmRSS of a process in bytes (0 when unknown). */
const rss = (pid: number): number => procMemory(pid, 'VmRSS') ?? 0;

// ---------------------------------------------------------------------------------------------------------
// HTTP client: POSTs on a keep-alive agent, each listener on its own connection

const postAgent = new Agent({ keepAlive: true, maxSockets: 256 });
const listenAgent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

const posting: CallOptions = { agent: postAgent };

/** A JSON API call on the posting agent. */
const callJson = <T = unknown>(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
) => callJsonOn<T>(url, method, headers, body, posting);

interface Listener {
  close(): void;
  frames(): number;
}

/**
 * Opens an SSE stream; resolves once its headers arrived (Parley subscribes before it answers them). Each
 * frame's `data` goes to `onData` with the time its chunk was read off the socket.
 */
function openListener(
  url: string,
  headers: Record<string, string>,
  onData: (data: string, id: string | undefined, at: bigint) => void,
  onEnd: (why: string) => void,
): Promise<Listener> {
  return new Promise((resolve, reject) => {
    let frames = 0;
    let closing = false;
    let at = 0n;
    const parser = createParser({
      onEvent(event) {
        frames += 1;
        onData(event.data, event.id, at);
      },
    });
    const req = request(url, {
      method: 'GET',
      agent: listenAgent,
      headers: { ...headers, accept: 'text/event-stream' },
    });
    req.once('response', (res) => {
      if (res.statusCode !== 200) {
        readBody(res).then(
          (text) => reject(new Error(`GET ${url} answered ${res.statusCode}: ${text}`)),
          reject,
        );
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        at = now();
        parser.feed(chunk);
      });
      res.on('end', () => {
        if (!closing) onEnd(`stream ${url} ended`);
      });
      res.on('error', () => undefined);
      resolve({
        close() {
          closing = true;
          req.destroy();
        },
        frames: () => frames,
      });
    });
    req.once('error', (error) => {
      if (closing) return;
      reject(error);
      onEnd(`stream ${url} failed: ${error.message}`);
    });
    req.end();
  });
}

// ---------------------------------------------------------------------------------------------------------
// Systems under test and delivery tracking

/** One way of sending a message and listening to its conversation. */
interface System {
  key: string;
  label: string;
  /** NodeProcessesses whose RSS is reported (the listeners' first). */
  procs: NodeProcess[];
  /** A fresh conversation with `n` listeners' credentials. */
  prepare(n: number): Promise<{ post: Endpoint; listen: Endpoint[] }>;
}

interface Endpoint {
  url: string;
  headers: Record<string, string>;
  conversationId: string;
}

interface Bucket {
  delivery: number[];
  post: number[];
  elapsedMs: number;
  messages: number;
  /** CPU seconds the system's server processes used during its phase (user + system, from /proc). */
  cpuSeconds: number;
}

const emptyBucket = (): Bucket => ({ delivery: [], post: [], elapsedMs: 0, messages: 0, cpuSeconds: 0 });

/** CPU seconds the server processes of `open`'s system have used so far. */
const systemCpu = (open: Open): number => open.system.procs.reduce((sum, p) => sum + cpuSeconds(p.pid), 0);

interface Pending {
  sentAt: bigint;
  left: number;
  bucket: Bucket | undefined;
  done: () => void;
}

/** Matches frames to the messages sent, by the `seq` in their metadata. */
class Tracker {
  readonly tag = randomBytes(4).toString('hex');
  private readonly pending = new Map<number, Pending>();
  /** Per listener: the messages it got and the last frame id (cursor); duplicates and ids going back are counted. */
  private seen = new Map<number, { seqs: Set<number>; cursor: number }>();
  duplicates = 0;
  outOfOrder = 0;
  delivered = 0;
  private nextSeq = 0;

  seq(): number {
    this.nextSeq += 1;
    return this.nextSeq;
  }

  expect(seq: number, listeners: number, bucket: Bucket | undefined): Pending & { delivered: Promise<void> } {
    let done = () => {};
    const delivered = new Promise<void>((resolve) => {
      done = resolve;
    });
    const entry: Pending = { sentAt: 0n, left: listeners, bucket, done };
    this.pending.set(seq, entry);
    return Object.assign(entry, { delivered });
  }

  forget(seq: number): void {
    this.pending.delete(seq);
  }

  frame(listener: number, data: string, id: string | undefined, at: bigint): void {
    const signal = JSON.parse(data) as {
      type: string;
      data: { metadata?: { bench?: string; seq?: number } };
    };
    if (signal.type !== 'message_created') return;
    const meta = signal.data.metadata;
    if (meta?.bench !== this.tag || typeof meta.seq !== 'number') return;
    let seen = this.seen.get(listener);
    if (!seen) {
      seen = { seqs: new Set(), cursor: 0 };
      this.seen.set(listener, seen);
    }
    const cursor = Number(id);
    if (!(cursor > seen.cursor)) this.outOfOrder += 1;
    seen.cursor = Math.max(seen.cursor, cursor);
    if (seen.seqs.has(meta.seq)) {
      this.duplicates += 1;
      return;
    }
    seen.seqs.add(meta.seq);
    const entry = this.pending.get(meta.seq);
    if (!entry) return;
    this.delivered += 1;
    entry.bucket?.delivery.push(Number(at - entry.sentAt) / 1e6);
    entry.left -= 1;
    if (entry.left === 0) {
      this.pending.delete(meta.seq);
      entry.done();
    }
  }

  resetListeners(): void {
    this.seen = new Map();
  }
}

const tracker = new Tracker();
let listenerIds = 0;

interface Open {
  system: System;
  post: Endpoint;
  listeners: Listener[];
}

async function openSystem(system: System, n: number, failures: string[]): Promise<Open> {
  const { post, listen } = await system.prepare(n);
  const listeners: Listener[] = [];
  // 20 at a time: a browser-like arrival, not 100 handshakes in one tick.
  for (let i = 0; i < listen.length; i += 20) {
    const batch = listen.slice(i, i + 20);
    listeners.push(
      ...(await Promise.all(
        batch.map((endpoint) => {
          const id = ++listenerIds;
          return openListener(
            endpoint.url,
            endpoint.headers,
            (data, cursor, at) => tracker.frame(id, data, cursor, at),
            (why) => failures.push(why),
          );
        }),
      )),
    );
  }
  return { system, post, listeners };
}

/** Sends one message and resolves once every listener has its frame; records the POST and each delivery. */
async function sendOne(open: Open, bucket: Bucket | undefined): Promise<void> {
  const seq = tracker.seq();
  const body = JSON.stringify({
    conversationId: open.post.conversationId,
    payload: { type: 'text', text: `benchmark message ${seq}` },
    metadata: { bench: tracker.tag, seq },
  });
  const entry = tracker.expect(seq, open.listeners.length, bucket);
  entry.sentAt = now();
  const res = await httpCall(open.post.url, 'POST', open.post.headers, body, posting);
  const answered = now();
  if (res.status !== 201) throw new Error(`POST ${open.post.url} answered ${res.status}: ${res.text}`);
  bucket?.post.push(Number(answered - entry.sentAt) / 1e6);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      entry.delivered,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(
                `${open.system.label}: message ${seq} reached ${open.listeners.length - entry.left} of ${open.listeners.length} listeners in ${DELIVERY_TIMEOUT_MS / 1000} s`,
              ),
            ),
          DELIVERY_TIMEOUT_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
    tracker.forget(seq);
  }
}

async function sequential(open: Open, count: number, bucket: Bucket | undefined): Promise<void> {
  const cpu = systemCpu(open);
  const start = now();
  for (let i = 0; i < count; i++) await sendOne(open, bucket);
  if (bucket) {
    bucket.elapsedMs += msSince(start);
    bucket.messages += count;
    bucket.cpuSeconds += systemCpu(open) - cpu;
  }
}

async function burst(open: Open, size: number, bucket: Bucket | undefined): Promise<void> {
  const cpu = systemCpu(open);
  const start = now();
  await Promise.all(Array.from({ length: size }, () => sendOne(open, bucket)));
  if (bucket) {
    bucket.elapsedMs += msSince(start);
    bucket.messages += size;
    bucket.cpuSeconds += systemCpu(open) - cpu;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Parley systems

/** Chat users of one Parley database, created once through `via` and reused by every listener count. */
function parleySystem(
  key: string,
  label: string,
  sender: NodeProcess,
  listenOn: NodeProcess,
  boot: Bootstrap,
  procs: NodeProcess[],
): System {
  const chat = (proc: NodeProcess) => `${proc.url}/v1/chat/${boot.botId}`;
  const botHeaders = { authorization: `Bearer ${boot.botAccessKey}` };
  const users: Array<{ id: string; key: string }> = [];
  return {
    key,
    label,
    procs,
    async prepare(n) {
      while (users.length < n) {
        const made = await Promise.all(
          Array.from({ length: Math.min(20, n - users.length) }, () =>
            callJson<{ user: { id: string }; key: string }>(`${chat(sender)}/users`, 'POST', {}, {}),
          ),
        );
        users.push(...made.map((m) => ({ id: m.user.id, key: m.key })));
      }
      const { conversation } = await callJson<{ conversation: { id: string } }>(
        `${chat(sender)}/conversations`,
        'POST',
        botHeaders,
        {},
      );
      const listeners = users.slice(0, n);
      for (let i = 0; i < listeners.length; i += 20)
        await Promise.all(
          listeners.slice(i, i + 20).map((u) =>
            callJson(`${chat(sender)}/conversations/${conversation.id}/participants`, 'POST', botHeaders, {
              userId: u.id,
            }),
          ),
        );
      return {
        post: { url: `${chat(sender)}/messages`, headers: botHeaders, conversationId: conversation.id },
        listen: listeners.map((u) => ({
          url: `${chat(listenOn)}/conversations/${conversation.id}/listen`,
          headers: { 'x-user-key': u.key },
          conversationId: conversation.id,
        })),
      };
    },
  };
}

function baselineSystem(proc: NodeProcess): System {
  return {
    key: 'raw',
    label: 'raw Node http (baseline)',
    procs: [proc],
    async prepare(n) {
      const conversationId = baselineId('conv', 26);
      return {
        post: { url: `${proc.url}/messages`, headers: {}, conversationId },
        listen: Array.from({ length: n }, () => ({
          url: `${proc.url}/conversations/${conversationId}/listen`,
          headers: {},
          conversationId,
        })),
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Report

function fmt(v: number): string {
  if (!Number.isFinite(v)) return '–';
  if (v < 10) return v.toFixed(2);
  if (v < 100) return v.toFixed(1);
  return v.toFixed(0);
}

const load = () => `load average ${loadAverage()}`;

function resultTable(systems: System[], buckets: Map<string, Bucket>, listeners: number): string {
  const raw = buckets.get('raw') ?? emptyBucket();
  const rawDelivery = summarize(raw.delivery);
  const rawPost = summarize(raw.post);
  const rawRate = raw.messages / (raw.elapsedMs / 1000);
  const cpuPerMessage = (b: Bucket) => (1000 * b.cpuSeconds) / b.messages;
  const rows = [
    [
      'system',
      'deliveries',
      'p50 ms',
      'p95 ms',
      'max ms',
      'msg/s',
      'frames/s',
      'POST p50',
      'POST p95',
      'p50 ÷ raw',
      'p95 ÷ raw',
      'msg/s ÷ raw',
      'POST p50 ÷ raw',
      'server CPU ms/msg',
      'raw CPU ÷ CPU',
    ],
  ];
  for (const system of systems) {
    const b = buckets.get(system.key) ?? emptyBucket();
    const d = summarize(b.delivery);
    const p = summarize(b.post);
    const rate = b.messages / (b.elapsedMs / 1000);
    const isRaw = system.key === 'raw';
    rows.push([
      system.label,
      String(d.n),
      fmt(d.p50),
      fmt(d.p95),
      fmt(d.max),
      fmt(rate),
      fmt(rate * listeners),
      fmt(p.p50),
      fmt(p.p95),
      isRaw ? '' : ratio(d.p50, rawDelivery.p50),
      isRaw ? '' : ratio(d.p95, rawDelivery.p95),
      isRaw ? '' : ratio(rate, rawRate),
      isRaw ? '' : ratio(p.p50, rawPost.p50),
      fmt(cpuPerMessage(b)),
      isRaw ? '' : ratio(cpuPerMessage(raw), cpuPerMessage(b)),
    ]);
  }
  return table(rows);
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const counts = listOption('listeners', 'BENCH_LISTENERS', [1, 10, 100]);
  const messages = intOption('messages', 'BENCH_MESSAGES', 200, 1, 1_000_000);
  const bursts = intOption('bursts', 'BENCH_BURSTS', 10, 0, 100_000);
  const burstSize = intOption('burst-size', 'BENCH_BURST_SIZE', 20, 1, 10_000);
  const rounds = Math.min(messages, intOption('rounds', 'BENCH_ROUNDS', 5, 1, 1000));
  const pgOption = option('database-url', 'BENCH_DATABASE_URL') ?? 'postgres://postgres@127.0.0.1:5432/test';
  const pgUrl = pgOption === 'none' ? undefined : pgOption;
  const work = await makeWorkFolder('parley-chat-bench-');
  const database = `parley_bench_${randomBytes(6).toString('hex')}`;
  let databaseMade = false;
  const opened: Open[] = [];
  const cleanupAll = async () => {
    for (const o of opened.splice(0)) for (const l of o.listeners) l.close();
    await Promise.all([...running].map((p) => p.stop()));
    if (pgUrl && databaseMade)
      await onMaintenanceDb(pgUrl, `drop database if exists "${database}" with (force)`).catch((e: unknown) =>
        console.error(`could not drop database ${database}: ${e instanceof Error ? e.message : e}`),
      );
    await rm(work, { recursive: true, force: true });
  };
  const started = Date.now();

  await withCleanup(cleanupAll, async () => {
    console.log(
      `Chat live stream benchmark: listeners ${counts.join(', ')}; per system and listener count ${messages} sequential messages (${rounds} rounds) and ${bursts} bursts of ${burstSize}`,
    );
    console.log(
      `Node ${process.version}; ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? '?'}); ${load()}; work folder ${work}`,
    );

    const baseline = await startBaseline();
    const sqlite = await startChatServer('Parley on SQLite', join(work, 'sqlite'));
    const sqliteBoot = await readBootstrap(join(work, 'sqlite'));
    const systems: System[] = [
      baselineSystem(baseline),
      parleySystem('sqlite', 'Parley, SQLite, 1 process', sqlite, sqlite, sqliteBoot, [sqlite]),
    ];
    if (pgUrl) {
      await onMaintenanceDb(pgUrl, `create database "${database}"`);
      databaseMade = true;
      const url = withDatabase(pgUrl, database);
      // A first, alone: it bootstraps and writes bootstrap.json; B then starts on the same database.
      const a = await startChatServer('Parley on PostgreSQL, process A', join(work, 'pg-a'), url);
      const b = await startChatServer('Parley on PostgreSQL, process B', join(work, 'pg-b'), url);
      const pgBoot = await readBootstrap(join(work, 'pg-a'));
      systems.push(
        parleySystem('pg-cross', 'Parley, PostgreSQL, POST to A, listen on B', a, b, pgBoot, [b, a]),
        parleySystem('pg-local', 'Parley, PostgreSQL, POST and listen on B', b, b, pgBoot, [b]),
      );
      console.log(
        `PostgreSQL: database ${database} on ${new URL(pgUrl).host} (made for this run, dropped at the end)`,
      );
    }
    const procs = [...new Set(systems.flatMap((s) => s.procs))];
    console.log(
      `processes: ${procs.map((p) => `${p.name} pid ${p.pid}`).join('; ')}. Messages are posted by the bot itself (bot access key): no knowledge reply is started`,
    );

    // Warm-up of every process, not counted: one listener, 20 messages and a burst each, so that code loaded
    // and compiled on first use is in the memory figures taken before the first listener count.
    {
      const failures: string[] = [];
      const warm: Open[] = [];
      for (const system of systems) warm.push(await openSystem(system, 1, failures));
      for (const o of warm) {
        await sequential(o, 20, undefined);
        await burst(o, burstSize, undefined);
        for (const l of o.listeners) l.close();
      }
      if (failures.length > 0) throw new Error(`streams ended early:\n${failures.join('\n')}`);
      await sleep(500);
    }

    const memory: string[][] = [
      [
        'process',
        'listeners',
        'RSS before',
        'listeners open',
        'after messages',
        'open − before',
        'per listener',
      ],
    ];
    for (const n of counts) {
      console.log('');
      console.log(`## ${n} listener${n === 1 ? '' : 's'} on one conversation`);
      const failures: string[] = [];
      tracker.resetListeners();
      const before = new Map(procs.map((p) => [p, rss(p.pid)]));
      const open: Open[] = [];
      for (const system of systems) {
        const o = await openSystem(system, n, failures);
        open.push(o);
        opened.push(o);
      }
      await sleep(300);
      const afterOpen = new Map(procs.map((p) => [p, rss(p.pid)]));
      // Warm-up, not counted: a few messages and a burst on every system.
      for (const o of open) {
        await sequential(o, 5, undefined);
        await burst(o, Math.min(burstSize, 10), undefined);
      }
      const seqBuckets = new Map(systems.map((s) => [s.key, emptyBucket()]));
      const burstBuckets = new Map(systems.map((s) => [s.key, emptyBucket()]));
      const t0 = Date.now();
      for (let r = 0; r < rounds; r++) {
        const count = Math.floor(((r + 1) * messages) / rounds) - Math.floor((r * messages) / rounds);
        for (let k = 0; k < open.length; k++) {
          const o = open[(r + k) % open.length] as Open;
          await sequential(o, count, seqBuckets.get(o.system.key));
        }
      }
      const seqSeconds = (Date.now() - t0) / 1000;
      const t1 = Date.now();
      for (let r = 0; r < bursts; r++) {
        for (let k = 0; k < open.length; k++) {
          const o = open[(r + k) % open.length] as Open;
          await burst(o, burstSize, burstBuckets.get(o.system.key));
        }
      }
      const burstSeconds = (Date.now() - t1) / 1000;
      const afterMessages = new Map(procs.map((p) => [p, rss(p.pid)]));
      if (failures.length > 0) throw new Error(`streams ended early:\n${failures.join('\n')}`);

      console.log('');
      console.log(
        `Sequential: one message at a time, the next once every listener has the previous (${seqSeconds.toFixed(1)} s, ${load()})`,
      );
      console.log(resultTable(systems, seqBuckets, n));
      if (bursts > 0) {
        console.log('');
        console.log(
          `Bursts: ${burstSize} POSTs at once, the next burst once every listener has them all (${burstSeconds.toFixed(1)} s, ${load()})`,
        );
        console.log(resultTable(systems, burstBuckets, n));
      }
      for (const p of procs) {
        const b = before.get(p) ?? 0;
        const o = afterOpen.get(p) ?? 0;
        memory.push([
          p.name,
          String(n),
          megabytes(b),
          megabytes(o),
          megabytes(afterMessages.get(p) ?? 0),
          megabytes(o - b),
          `${((o - b) / n / 1024).toFixed(0)} KiB`,
        ]);
      }
      for (const o of open) for (const l of o.listeners) l.close();
      opened.splice(0);
      await sleep(300);
    }

    console.log('');
    console.log(
      'Server memory (VmRSS from /proc, after a warm-up): before the listeners of a count open, 300 ms after they are all open, after their messages (listeners still open):',
    );
    console.log(table(memory));
    console.log(
      `checks: ${tracker.delivered} deliveries matched to their POST (none missing), ${tracker.duplicates} duplicate frames, ${tracker.outOfOrder} frame ids not increasing; whole benchmark ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    if (tracker.duplicates + tracker.outOfOrder > 0) process.exitCode = 1;
  });
}

if (process.argv[2] === '--baseline-server') {
  runBaselineServer(Number(process.argv[3]));
} else {
  runMain(main);
}
