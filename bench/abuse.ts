// Abuse benchmark: what ordinary users of a real `parley serve` process experience while hostile callers attack
// it. The same ordinary traffic (health checks, a chat user posting and reading its conversation, the bot
// listing its files) runs for a baseline phase, then for an attack phase that adds 50 live streams never read
// while their owners post 127 KB messages into them, and an XLSX decompression bomb always being indexed;
// latency per request kind (p50/p95/max, attack ÷ baseline), the server's RSS and CPU per phase, health check
// failures, attacker messages and the bombs' end status are printed. See docs/benchmarks/abuse.md.
//
//   npm run abuse -w bench
//   npm run abuse -w bench -- --seconds 30
//
// Options (flags win over environment): --seconds / BENCH_SECONDS (length of each phase, default 15),
// --bomb-mb / BENCH_BOMB_MB (what the bomb's sheet XML unpacks to, in MiB, default 190), --dir / BENCH_DIR
// (work folder; default the OS temp folder).
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { Agent, type ClientRequest, request } from 'node:http';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { xlsxBomb } from '../packages/testkit/src/shared/office-bombs.js';
import { intOption, makeWorkFolder } from './lib/args.js';
import { megabytes, ratio, table } from './lib/format.js';
import { loadAverage, procMemory } from './lib/machine.js';
import { runMain, sleep } from './lib/run.js';
import {
  type CallOptions,
  callJson as callJsonOn,
  childEnv,
  httpCall,
  type NodeProcess,
  running,
  spawnNode,
  startParleyWithBot,
  withCleanup,
} from './lib/server.js';
import { median, msSince, now, summarize } from './lib/stats.js';

/** Ordinary traffic: a health check every 100 ms, a chat round (POST + GET) and a file listing every 500 ms. */
const HEALTH_INTERVAL_MS = 100;
const CHAT_INTERVAL_MS = 500;
const FILES_INTERVAL_MS = 500;
/** An ordinary request slower than this counts as failed. */
const ORDINARY_TIMEOUT_MS = 10_000;
/** Warm-up of ordinary traffic before the baseline, not counted. */
const WARMUP_MS = 3000;
/** Attackers: users × streams each (the per-user cap is 10 by default; the 11th answers 429). */
const ATTACKERS = 5;
const STREAMS_PER_ATTACKER = 10;
/** An attacker's message: ~127 KB of text, under the 128 KB payload limit with its JSON around it. */
const ATTACK_TEXT = 'x'.repeat(127 * 1024 - 64);
const ATTACK_TIMEOUT_MS = 30_000;
/** The last bomb is waited for after the attack phase, at most this long from its upload. */
const BOMB_TIMEOUT_MS = 240_000;
const RSS_INTERVAL_MS = 100;

// ---------------------------------------------------------------------------------------------------------
// The bomb

// ---------------------------------------------------------------------------------------------------------
// HTTP client: ordinary requests and the attackers' POSTs on keep-alive agents, each stream on its own connection

const ordinaryAgent = new Agent({ keepAlive: true, maxSockets: 16 });
const attackAgent = new Agent({ keepAlive: true, maxSockets: 16 });
const streamAgent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

const ordinary: CallOptions = { agent: ordinaryAgent, timeoutMs: ORDINARY_TIMEOUT_MS };

/** A JSON API call of the setup, on the ordinary agent. */
const callJson = <T>(url: string, method: string, headers: Record<string, string>, body?: unknown) =>
  callJsonOn<T>(url, method, headers, body, ordinary);

/** The server and the bot the benchmark talks to (a ParleyServer of lib/server.ts is one). */
interface Target {
  url: string;
  botId: string;
  botAccessKey: string;
}

/** The headers of a call as the bot (its access key). */
const botHeaders = (target: Target) => ({
  authorization: `Bearer ${target.botAccessKey}`,
  'x-bot-id': target.botId,
});

/** A chat user of the bot and one conversation of its own. */
interface ChatUser {
  key: string;
  conversationId: string;
}

async function newChatUser(target: Target): Promise<ChatUser> {
  const chat = `${target.url}/v1/chat/${target.botId}`;
  const { key } = await callJson<{ key: string }>(`${chat}/users`, 'POST', {}, {});
  const { conversation } = await callJson<{ conversation: { id: string } }>(
    `${chat}/conversations`,
    'POST',
    { 'x-user-key': key },
    {},
  );
  return { key, conversationId: conversation.id };
}

/** Upserts `key` with index: true as the bot and PUTs `bytes` to its uploadUrl; answers the file id. */
async function uploadForIndexing(target: Target, key: string, bytes: Buffer): Promise<string> {
  const { file } = await callJson<{ file: { id: string; uploadUrl: string; contentType: string } }>(
    `${target.url}/v1/files`,
    'PUT',
    botHeaders(target),
    { key, size: bytes.length, index: true },
  );
  if (!file.uploadUrl.startsWith(`${target.url}/`))
    throw new Error(`uploadUrl ${file.uploadUrl} is not on the server's loopback address ${target.url}`);
  const res = await fetch(file.uploadUrl, {
    method: 'PUT',
    headers: { 'content-type': file.contentType },
    body: bytes,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`upload of ${key} answered ${res.status}: ${text.slice(0, 300)}`);
  return file.id;
}

// ---------------------------------------------------------------------------------------------------------
// Ordinary traffic

type Kind = 'health' | 'post' | 'list' | 'files';

const KINDS: Array<{ kind: Kind; label: string }> = [
  { kind: 'health', label: 'GET /healthz' },
  { kind: 'post', label: 'chat: POST /messages (short text)' },
  { kind: 'list', label: 'chat: GET /conversations/{id}/messages' },
  { kind: 'files', label: 'files: GET /v1/files (bot)' },
];

/** Latencies (ms) of the answers of one request kind in one phase, and its failures. */
interface KindRecord {
  latencies: number[];
  failures: number;
  /** The first few failures, to print. */
  notes: string[];
}

type PhaseRecord = Record<Kind, KindRecord>;

const emptyPhase = (): PhaseRecord => ({
  health: { latencies: [], failures: 0, notes: [] },
  post: { latencies: [], failures: 0, notes: [] },
  list: { latencies: [], failures: 0, notes: [] },
  files: { latencies: [], failures: 0, notes: [] },
});

/** Runs `call`, records its time when it answers 2xx, a failure otherwise (status, error or timeout). */
async function timed(record: KindRecord, call: () => Promise<{ status: number; text: string }>) {
  const start = now();
  try {
    const res = await call();
    if (res.status >= 200 && res.status <= 299) {
      record.latencies.push(msSince(start));
      return;
    }
    record.failures += 1;
    if (record.notes.length < 3) record.notes.push(`status ${res.status}: ${res.text.slice(0, 120)}`);
  } catch (error) {
    record.failures += 1;
    if (record.notes.length < 3)
      record.notes.push(
        `${error instanceof Error ? error.message : String(error)} after ${msSince(start).toFixed(0)} ms`,
      );
  }
}

/** Calls `step` every `intervalMs` until `endsAt` (performance.now()); a late step starts the next at once. */
async function paced(intervalMs: number, endsAt: number, step: () => Promise<void>): Promise<void> {
  let next = performance.now();
  while (performance.now() < endsAt) {
    await step();
    next += intervalMs;
    const wait = Math.min(next, endsAt) - performance.now();
    if (wait > 0) await sleep(wait);
    else next = performance.now();
  }
}

/** The ordinary users' traffic until `endsAt`, recorded in `record` (no record: warm-up). */
function ordinaryTraffic(server: Target, user: ChatUser, endsAt: number, record: PhaseRecord) {
  const chat = `${server.url}/v1/chat/${server.botId}`;
  const userHeaders = { 'x-user-key': user.key };
  const call = (url: string, method: string, headers: Record<string, string>, body?: string) => () =>
    httpCall(url, method, headers, body, ordinary);
  let n = 0;
  return Promise.all([
    paced(HEALTH_INTERVAL_MS, endsAt, () => timed(record.health, call(`${server.url}/healthz`, 'GET', {}))),
    paced(CHAT_INTERVAL_MS, endsAt, async () => {
      n += 1;
      const body = JSON.stringify({
        conversationId: user.conversationId,
        payload: { type: 'text', text: `Hello, a question about my order (${n})` },
      });
      await timed(record.post, call(`${chat}/messages`, 'POST', userHeaders, body));
      await timed(
        record.list,
        call(`${chat}/conversations/${user.conversationId}/messages`, 'GET', userHeaders),
      );
    }),
    paced(FILES_INTERVAL_MS, endsAt, () =>
      timed(record.files, call(`${server.url}/v1/files`, 'GET', botHeaders(server))),
    ),
  ]);
}

// ---------------------------------------------------------------------------------------------------------
// The server process: RSS every 100 ms, CPU time per phase

/** User + system CPU seconds of `pid` so far, from /proc/<pid>/stat (USER_HZ 100); NaN without /proc. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** What one phase saw of the server process, of this one and of the attackers' process. */
interface Watch {
  rss: number[];
  seconds: number;
  /** CPU time ÷ wall time of the server, of this process, of the attackers' process (NaN: none). */
  serverCores: number;
  clientCores: number;
  attackerCores: number;
  /** This process's event-loop delay p99 and max, ms: when high, the client itself adds latency. */
  clientDelayP99: number;
  clientDelayMax: number;
  load: string;
}

/**
 * Samples the server's VmRSS every 100 ms until stopped, and the CPU time of the server, of this process and
 * of the attackers' process (`attackerPid`), and this process's event-loop delay, over the same time.
 */
function watchServer(pid: number, attackerPid?: number) {
  const rss: number[] = [];
  const take = () => {
    const bytes = procMemory(pid, 'VmRSS');
    if (bytes !== undefined) rss.push(bytes);
  };
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const server0 = cpuSeconds(pid);
  const attacker0 = attackerPid === undefined ? Number.NaN : cpuSeconds(attackerPid);
  const client0 = process.cpuUsage();
  const t0 = now();
  take();
  const timer = setInterval(take, RSS_INTERVAL_MS);
  return {
    stop(): Watch {
      clearInterval(timer);
      take();
      delay.disable();
      const seconds = msSince(t0) / 1000;
      const client = process.cpuUsage(client0);
      return {
        rss,
        seconds,
        serverCores: (cpuSeconds(pid) - server0) / seconds,
        clientCores: (client.user + client.system) / 1e6 / seconds,
        attackerCores:
          attackerPid === undefined ? Number.NaN : (cpuSeconds(attackerPid) - attacker0) / seconds,
        clientDelayP99: delay.percentile(99) / 1e6,
        clientDelayMax: delay.max / 1e6,
        load: loadAverage(),
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The attack: a child process of this file (`--attacker`), so that the client measuring the ordinary traffic
// does nothing else. It opens the streams, prints `streams open {…}`, starts on SIGUSR2, runs for the phase,
// waits for the bomb in flight and prints `attack result {…}`.

/** What the attackers' process is told (environment variable ABUSE_ATTACK, JSON). */
interface AttackOrder extends Target {
  seconds: number;
  bombPath: string;
}

/** What it answers (`attack result {…}`). */
interface AttackResult {
  posted: number;
  bytes: number;
  postSeconds: number;
  failures: number;
  notes: string[];
  /** Streams the server closed during the phase, and when: seconds from the start of the attack. */
  dropped: number;
  droppedAt: number[];
  bombs: Bomb[];
  /** Why the bombing stopped early, if it did. */
  bombError?: string;
}

/** Live streams opened and never read; `droppedAt` holds when the server closed one (performance.now()). */
interface Streams {
  requests: ClientRequest[];
  opened: number;
  refused: number[];
  droppedAt: number[];
  closing: boolean;
}

/**
 * Opens a live stream and resolves with its status once the headers arrive. A 200 stream is never read: its
 * bytes stay in the socket (Node pauses the socket once the response's buffer is full).
 */
function openStream(url: string, key: string, streams: Streams): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      agent: streamAgent,
      headers: { 'x-user-key': key, accept: 'text/event-stream' },
    });
    req.once('response', (res) => {
      req.setTimeout(0); // the headers arrived: from now on the stream is idle by design
      const status = res.statusCode ?? 0;
      res.on('error', () => {});
      if (status !== 200) {
        res.resume();
        resolve(status);
        return;
      }
      streams.requests.push(req);
      streams.opened += 1;
      res.socket.once('close', () => {
        if (!streams.closing) streams.droppedAt.push(performance.now());
      });
      resolve(status);
    });
    req.once('error', (error) => {
      if (!streams.closing) reject(error);
    });
    req.setTimeout(ORDINARY_TIMEOUT_MS, () => req.destroy(new Error(`no answer from ${url}`)));
    req.end();
  });
}

/** Every attacker opens its 10 streams, then tries an 11th, which should answer 429. */
async function openAttackStreams(target: Target, attackers: ChatUser[], streams: Streams) {
  const chat = `${target.url}/v1/chat/${target.botId}`;
  for (const attacker of attackers) {
    const url = `${chat}/conversations/${attacker.conversationId}/listen`;
    for (let i = 0; i < STREAMS_PER_ATTACKER; i++) {
      const status = await openStream(url, attacker.key, streams);
      if (status !== 200) throw new Error(`stream ${i + 1} of an attacker answered ${status}, not 200`);
    }
    const extra = await openStream(url, attacker.key, streams);
    streams.refused.push(extra);
    if (extra === 200) streams.requests.at(-1)?.destroy();
  }
}

/** One attacker posting ~127 KB messages into its conversation, one after the other, until `endsAt`. */
async function postLoop(target: Target, attacker: ChatUser, endsAt: number, result: AttackResult) {
  const url = `${target.url}/v1/chat/${target.botId}/messages`;
  for (let n = 1; performance.now() < endsAt; n++) {
    const body = JSON.stringify({
      conversationId: attacker.conversationId,
      payload: { type: 'text', text: `${n} ${ATTACK_TEXT}` },
    });
    try {
      const res = await httpCall(url, 'POST', { 'x-user-key': attacker.key }, body, {
        agent: attackAgent,
        timeoutMs: ATTACK_TIMEOUT_MS,
      });
      if (res.status === 201) {
        result.posted += 1;
        result.bytes += Buffer.byteLength(body);
        continue;
      }
      result.failures += 1;
      if (result.notes.length < 3) result.notes.push(`status ${res.status}: ${res.text.slice(0, 120)}`);
    } catch (error) {
      result.failures += 1;
      if (result.notes.length < 3) result.notes.push(error instanceof Error ? error.message : String(error));
    }
    await sleep(100);
  }
}

/** One bomb sent for indexing and how it ended. */
interface Bomb {
  key: string;
  /** Seconds from the start of the attack to its upload. */
  uploadedAt: number;
  status: string;
  reason: string;
  /** Seconds from upload to its end status; null while it has none. */
  seconds: number | null;
  /** It ended after the attack phase (it was the one in flight then). */
  afterPhase: boolean;
}

const PENDING = new Set(['upload_pending', 'upload_completed', 'indexing_pending']);

/**
 * Keeps one bomb being indexed until `endsAt`: uploads one under a new key, polls it every 250 ms until it
 * leaves the pending states, then the next. The bomb in flight at `endsAt` is waited for (BOMB_TIMEOUT_MS
 * from its upload at most).
 */
async function bombLoop(target: Target, bytes: Buffer, startedAt: number, endsAt: number, bombs: Bomb[]) {
  const headers = botHeaders(target);
  for (let n = 1; performance.now() < endsAt; n++) {
    const uploadedAt = performance.now();
    const bomb: Bomb = {
      key: `abuse/bomb-${n}.xlsx`,
      uploadedAt: (uploadedAt - startedAt) / 1000,
      status: 'uploading',
      reason: '',
      seconds: null,
      afterPhase: false,
    };
    bombs.push(bomb);
    const id = await uploadForIndexing(target, bomb.key, bytes);
    for (;;) {
      const { file } = await callJson<{ file: { status: string; failedStatusReason?: string } }>(
        `${target.url}/v1/files/${id}`,
        'GET',
        headers,
      );
      bomb.status = file.status;
      bomb.reason = file.failedStatusReason ?? '';
      if (!PENDING.has(file.status)) {
        bomb.seconds = (performance.now() - uploadedAt) / 1000;
        bomb.afterPhase = performance.now() > endsAt;
        break;
      }
      if (performance.now() - uploadedAt > BOMB_TIMEOUT_MS) return;
      await sleep(250);
    }
  }
}

/** The attackers' process (`node dist/bench/abuse.js --attacker`, the order in ABUSE_ATTACK). */
async function attackerMain(): Promise<void> {
  const order = JSON.parse(process.env.ABUSE_ATTACK ?? '') as AttackOrder;
  const bytes = readFileSync(order.bombPath);
  const streams: Streams = { requests: [], opened: 0, refused: [], droppedAt: [], closing: false };
  const attackers: ChatUser[] = [];
  for (let i = 0; i < ATTACKERS; i++) attackers.push(await newChatUser(order));
  await openAttackStreams(order, attackers, streams);
  const go = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 120_000);
    process.once('SIGUSR2', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  console.log(`streams open ${JSON.stringify({ opened: streams.opened, refused: streams.refused })}`);
  if (!(await go)) throw new Error('no start signal in 120 s');
  const startedAt = performance.now();
  const endsAt = startedAt + order.seconds * 1000;
  const result: AttackResult = {
    posted: 0,
    bytes: 0,
    postSeconds: 0,
    failures: 0,
    notes: [],
    dropped: 0,
    droppedAt: [],
    bombs: [],
  };
  const bombing = bombLoop(order, bytes, startedAt, endsAt, result.bombs).catch((error: unknown) => {
    result.bombError = error instanceof Error ? error.message : String(error);
  });
  await Promise.all(attackers.map((attacker) => postLoop(order, attacker, endsAt, result)));
  result.postSeconds = (performance.now() - startedAt) / 1000;
  result.dropped = streams.droppedAt.length;
  result.droppedAt = streams.droppedAt.map((t) => (t - startedAt) / 1000);
  streams.closing = true;
  for (const req of streams.requests) req.destroy();
  await bombing;
  console.log(`attack result ${JSON.stringify(result)}`);
  ordinaryAgent.destroy();
  attackAgent.destroy();
}

/** Starts the attackers' process; resolves once its streams are open. */
function startAttackers(order: AttackOrder): Promise<NodeProcess> {
  return spawnNode({
    name: 'attackers',
    args: [fileURLToPath(import.meta.url), '--attacker'],
    env: childEnv({ ABUSE_ATTACK: JSON.stringify(order) }),
    url: order.url,
    ready: async (out) => out.includes('streams open '),
  });
}

/** The JSON after `marker` on a line of `output`. */
function lineJson<T>(output: string, marker: string): T {
  const line = output.split('\n').find((l) => l.startsWith(marker));
  if (!line) throw new Error(`no "${marker}" line in the attackers' output:\n${output.slice(-3000)}`);
  return JSON.parse(line.slice(marker.length)) as T;
}

/** Resolves once `proc` has exited, false if it has not in `ms`. */
function exited(proc: NodeProcess, ms: number): Promise<boolean> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    proc.child.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

// ---------------------------------------------------------------------------------------------------------
// Report

function fmt(v: number): string {
  if (!Number.isFinite(v)) return '–';
  if (v < 10) return v.toFixed(2);
  if (v < 100) return v.toFixed(1);
  return v.toFixed(0);
}

function latencyTable(baseline: PhaseRecord, attack: PhaseRecord): string {
  const rows = [
    [
      'request',
      'base n',
      'base p50',
      'base p95',
      'base max',
      'attack n',
      'attack p50',
      'attack p95',
      'attack max',
      'failed base/attack',
      'p50 ÷ base',
      'p95 ÷ base',
    ],
  ];
  for (const { kind, label } of KINDS) {
    const b = summarize(baseline[kind].latencies);
    const a = summarize(attack[kind].latencies);
    rows.push([
      label,
      String(b.n),
      fmt(b.p50),
      fmt(b.p95),
      fmt(b.max),
      String(a.n),
      fmt(a.p50),
      fmt(a.p95),
      fmt(a.max),
      `${baseline[kind].failures}/${attack[kind].failures}`,
      ratio(a.p50, b.p50),
      ratio(a.p95, b.p95),
    ]);
  }
  return table(rows);
}

function processTable(phases: Array<{ label: string; watch: Watch }>, baseline: Watch): string {
  const rows = [
    [
      'phase',
      'seconds',
      'RSS samples',
      'RSS median',
      'RSS peak',
      'peak ÷ base',
      'CPU server',
      'CPU client',
      'CPU attackers',
      'client loop delay p99/max ms',
      'load average',
    ],
  ];
  for (const { label, watch } of phases) {
    const peak = Math.max(0, ...watch.rss);
    rows.push([
      label,
      watch.seconds.toFixed(1),
      String(watch.rss.length),
      megabytes(median(watch.rss)),
      megabytes(peak),
      ratio(peak, Math.max(0, ...baseline.rss)),
      fmt(watch.serverCores),
      fmt(watch.clientCores),
      fmt(watch.attackerCores),
      `${fmt(watch.clientDelayP99)}/${fmt(watch.clientDelayMax)}`,
      watch.load,
    ]);
  }
  return table(rows);
}

function bombTable(bombs: Bomb[]): string {
  const rows = [['bomb', 'uploaded at s', 'ended after s', 'status', 'reason']];
  for (const bomb of bombs)
    rows.push([
      bomb.key,
      bomb.uploadedAt.toFixed(1),
      bomb.seconds === null
        ? `– (none in ${BOMB_TIMEOUT_MS / 1000})`
        : `${bomb.seconds.toFixed(1)}${bomb.afterPhase ? ' (after the phase)' : ''}`,
      bomb.status,
      bomb.reason.split(':')[0] ?? '',
    ]);
  return table(rows);
}

function failureNotes(label: string, record: PhaseRecord): string[] {
  return KINDS.flatMap(({ kind, label: kindLabel }) =>
    record[kind].notes.map((note) => `  ${label}, ${kindLabel}: ${note}`),
  );
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const seconds = intOption('seconds', 'BENCH_SECONDS', 15, 1, 3600);
  const bombMiB = intOption('bomb-mb', 'BENCH_BOMB_MB', 190, 1, 1024);
  const work = await makeWorkFolder('parley-abuse-bench-');
  const cleanupAll = async () => {
    await Promise.all([...running].map((p) => p.stop()));
    ordinaryAgent.destroy();
    await rm(work, { recursive: true, force: true });
  };
  const started = Date.now();

  await withCleanup(cleanupAll, async () => {
    console.log(
      `Abuse benchmark: ${seconds} s of ordinary traffic alone, then ${seconds} s of the same traffic under attack (${ATTACKERS * STREAMS_PER_ATTACKER} unread live streams fed 127 KB messages, an XLSX bomb of ${bombMiB} MiB always indexing)`,
    );
    console.log(
      `Node ${process.version}; ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? '?'}); load average ${loadAverage()}; work folder ${work}`,
    );

    // The bomb is built before the server starts, so that its CPU time is in neither phase.
    const t0 = now();
    const bomb = xlsxBomb(bombMiB);
    const bombPath = join(work, 'bomb.xlsx');
    await writeFile(bombPath, bomb.bytes);
    console.log(
      `bomb: ${bomb.bytes.length} bytes of XLSX whose sheet unpacks to ${megabytes(bomb.unpacked)} (${(bomb.unpacked / bomb.bytes.length).toFixed(0)}:1), built in ${(msSince(t0) / 1000).toFixed(1)} s`,
    );

    const server = await startParleyWithBot('Parley', join(work, 'data'), { PARLEY_EMBEDDER: 'none' });
    console.log(
      `server: pid ${server.pid} on ${server.url}, SQLite in the work folder, PARLEY_EMBEDDER=none, PARLEY_RATE_LIMIT_MAX=0, every other setting at its default`,
    );

    // Setup, not measured: the ordinary chat user, an ordinary file for the listing, a warm-up.
    const user = await newChatUser(server);
    const ordinaryFile = await uploadForIndexing(
      server,
      'faq.md',
      Buffer.from('# Returns\n\nItems can be returned within 30 days for a full refund.\n'),
    );
    await ordinaryTraffic(server, user, performance.now() + WARMUP_MS, emptyPhase());
    const faq = await callJson<{ file: { status: string } }>(
      `${server.url}/v1/files/${ordinaryFile}`,
      'GET',
      botHeaders(server),
    );

    // Baseline.
    console.log('');
    console.log(`baseline: ordinary traffic alone for ${seconds} s (load average ${loadAverage()})`);
    const baseline = emptyPhase();
    const baseWatch = watchServer(server.pid);
    await ordinaryTraffic(server, user, performance.now() + seconds * 1000, baseline);
    const baseSeen = baseWatch.stop();

    // Attack: the attackers' process opens its streams, then starts on SIGUSR2 with the ordinary traffic.
    const attackers = await startAttackers({
      url: server.url,
      botId: server.botId,
      botAccessKey: server.botAccessKey,
      seconds,
      bombPath,
    });
    const open = lineJson<{ opened: number; refused: number[] }>(attackers.output(), 'streams open ');
    console.log(
      `attack: ${open.opened} live streams open and never read (${ATTACKERS} users × ${STREAMS_PER_ATTACKER}; each user's 11th answered ${open.refused.join(', ')}); ${seconds} s of the same ordinary traffic while the ${ATTACKERS} owners post and one bomb is always indexing (load average ${loadAverage()})`,
    );
    const attack = emptyPhase();
    const attackWatch = watchServer(server.pid, attackers.pid);
    attackers.child.kill('SIGUSR2');
    await ordinaryTraffic(server, user, performance.now() + seconds * 1000, attack);
    const attackSeen = attackWatch.stop();

    // The attackers stop posting and close their streams; the bomb in flight is waited for, the server watched.
    const tailWatch = watchServer(server.pid, attackers.pid);
    const done = await exited(attackers, BOMB_TIMEOUT_MS + 30_000);
    const tailSeen = tailWatch.stop();
    if (!done)
      throw new Error(
        `the attackers' process has not ended ${BOMB_TIMEOUT_MS / 1000 + 30} s after the phase`,
      );
    const result = lineJson<AttackResult>(attackers.output(), 'attack result ');
    await attackers.stop();
    const health = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.status,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    const hwm = procMemory(server.pid, 'VmHWM');
    const alive = server.child.exitCode === null && server.child.signalCode === null;

    console.log('');
    console.log(
      `Ordinary requests, latency in ms (answered 2xx; a failure is another status, an error or no answer in ${ORDINARY_TIMEOUT_MS / 1000} s); a health check every ${HEALTH_INTERVAL_MS} ms, a chat POST + GET and a file listing every ${CHAT_INTERVAL_MS} ms:`,
    );
    console.log(latencyTable(baseline, attack));
    const notes = [...failureNotes('baseline', baseline), ...failureNotes('attack', attack)];
    if (notes.length > 0) console.log(`first failures:\n${notes.join('\n')}`);

    console.log('');
    console.log(
      `Processes: the server's VmRSS from /proc every ${RSS_INTERVAL_MS} ms (pid ${server.pid}); CPU = (user + system time) ÷ wall time, in cores, of the server, of this benchmark (the client of the ordinary traffic) and of the attackers' process; client loop delay = this benchmark's event-loop delay:`,
    );
    console.log(
      processTable(
        [
          { label: 'baseline', watch: baseSeen },
          { label: 'attack', watch: attackSeen },
          { label: 'after the attack, until the last bomb ended', watch: tailSeen },
        ],
        baseSeen,
      ),
    );
    console.log(`kernel high-water mark of the server (VmHWM): ${hwm === undefined ? '?' : megabytes(hwm)}`);

    console.log('');
    const count = (r: KindRecord) => r.latencies.length + r.failures;
    console.log(
      `health checks: baseline ${count(baseline.health)} (${baseline.health.failures} failed), attack ${count(attack.health)} (${attack.health.failures} failed, slowest ${fmt(summarize(attack.health.latencies).max)} ms); after the attack /healthz answered ${health}; server process ${alive ? 'alive' : 'GONE'}`,
    );
    console.log(
      `attackers: ${result.posted} messages of ~127 KB posted (${megabytes(result.bytes)}, ${(result.posted / result.postSeconds).toFixed(1)}/s, ${result.failures} failed${result.notes.length ? `: ${result.notes.join('; ')}` : ''}) into the conversations of ${open.opened} unread streams; streams the server dropped during the phase: ${result.dropped}${result.dropped ? ` (${Math.min(...result.droppedAt).toFixed(1)}–${Math.max(...result.droppedAt).toFixed(1)} s into it)` : ''}`,
    );
    const ended = result.bombs.filter((b) => b.seconds !== null);
    const statuses = new Map<string, number>();
    for (const b of ended) {
      const label = `${b.status}${b.reason ? ` ${b.reason.split(':')[0]}` : ''}`;
      statuses.set(label, (statuses.get(label) ?? 0) + 1);
    }
    console.log(
      `bombs: ${result.bombs.length} uploaded, ${ended.length} ended (${[...statuses].map(([s, c]) => `${c} ${s}`).join(', ') || 'none'}); the ordinary file faq.md: ${faq.file.status}`,
    );
    console.log(bombTable(result.bombs));
    if (result.bombError) console.log(`the bombing stopped early: ${result.bombError}`);
    const reasons = ended.map((b) => b.reason.replace(/"abuse\/bomb-\d+\.xlsx"/, '"abuse/bomb-N.xlsx"'));
    for (const reason of new Set(reasons.filter(Boolean))) console.log(`reason: ${reason}`);
    console.log(`whole benchmark ${((Date.now() - started) / 1000).toFixed(0)} s`);

    const bad =
      !alive ||
      health !== 200 ||
      ended.length !== result.bombs.length ||
      result.bombError !== undefined ||
      ended.some((b) => b.status !== 'indexing_failed' || !b.reason.startsWith('too_large')) ||
      open.refused.some((status) => status !== 429);
    if (bad) {
      console.log(
        'check failed: the server must stay up, every bomb end indexing_failed too_large and every 11th stream answer 429',
      );
      process.exitCode = 1;
    }
  });
}

if (process.argv[2] === '--attacker') {
  runMain(attackerMain);
} else {
  runMain(main);
}
