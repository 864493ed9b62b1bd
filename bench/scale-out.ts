// Scale-out benchmark (issue 16): the same load through one base URL on a deployment of one process and on one of
// three processes behind nginx (round-robin, no stickiness), both on one PostgreSQL database and one S3-compatible
// store (s3rver), started in the same run by the e2e deployment harness (packages/testkit/src/e2e/deployment.ts); one `parley
// serve` process on SQLite and local disk is measured too, for reference. Figures: small files uploaded and
// downloaded per second, a large file's MB/s up and down (one plain PUT, not the resumable protocol), searches
// per second with their p50/p95, and chat messages delivered per second to 100 listeners spread over the
// processes. See docs/benchmarks/scale-out.md.
//
//   npm run -w @parley/bench scale-out
//   BENCH_LARGE_MIB=64 BENCH_FILES=100 npm run -w @parley/bench scale-out
//
// This file imports the e2e harness, which lives outside bench/tsconfig.json's rootDir: the npm script bundles it
// with esbuild into dist/scale-out.js (packages stay external), type-checked by the root tsconfig.test.json.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { type Deployment, startDeployment } from '../packages/testkit/src/e2e/deployment.js';
import { asBot } from '../packages/testkit/src/shared/bot-request.js';
import { intOption, makeWorkFolder, option } from './lib/args.js';
import { pool } from './lib/corpus.js';
import { ratio, table } from './lib/format.js';
import { loadAverage } from './lib/machine.js';
import { onInterrupt, runMain } from './lib/run.js';
import { repoRoot } from './lib/server.js';
import { msSince, now, summarize } from './lib/stats.js';

// ---------------------------------------------------------------------------------------------------------
// Options

const KINDS = ['single', '1', '3'] as const;
type Kind = (typeof KINDS)[number];

const settings = {
  deployments: (option('deployments', 'BENCH_DEPLOYMENTS') ?? 'single,1,3').split(',').map((s) => {
    const kind = s.trim();
    if (!(KINDS as readonly string[]).includes(kind))
      throw new Error(`--deployments takes single, 1 and 3, comma-separated; got "${s}"`);
    return kind as Kind;
  }),
  files: intOption('files', 'BENCH_FILES', 200, 1, 100_000),
  fileSize: 1024 * intOption('file-kib', 'BENCH_FILE_KIB', 10, 1, 1024 * 1024),
  largeSize: 1024 * 1024 * intOption('large-mib', 'BENCH_LARGE_MIB', 256, 0, 1000),
  concurrency: intOption('concurrency', 'BENCH_CONCURRENCY', 16, 1, 1000),
  queries: intOption('queries', 'BENCH_QUERIES', 200, 1, 100_000),
  searchConcurrency: intOption('search-concurrency', 'BENCH_SEARCH_CONCURRENCY', 8, 1, 1000),
  listeners: intOption('listeners', 'BENCH_LISTENERS', 100, 1, 10_000),
  messages: intOption('messages', 'BENCH_MESSAGES', 200, 1, 100_000),
  inFlight: intOption('in-flight', 'BENCH_IN_FLIGHT', 10, 1, 1000),
  postgres: option('database-url', 'BENCH_DATABASE_URL') ?? 'postgres://postgres@127.0.0.1:5432/test',
};

/** The search corpus: this repository's own prose (about 86 kB of Markdown), indexed by each deployment. */
const CORPUS = [
  'docs/architecture.md',
  'packages/client/README.md',
  'packages/webchat/README.md',
  'e2e/README.md',
];

/** Questions asked in turn; answered or not, each is a full search (query embedded, both lists, fused). */
const QUESTIONS = [
  'how do I upload a large file',
  'what happens when the upload is cut',
  'how are files indexed for search',
  'which database does the server use',
  'how does the webchat talk to the bot',
  'how do I embed the chat widget on my site',
  'what are ports and adapters',
  'how are errors reported to the client',
  'how do I list the files of a bot',
  'what does the client retry',
  'how are permissions checked',
  'how do tests start the server',
  'can I change the colours of the webchat',
  'how long does a signed URL stay valid',
  'what is a knowledge base',
  'how do I search only some files',
];

// ---------------------------------------------------------------------------------------------------------
// HTTP

/** Connections to the base URL, kept alive for the API calls and transfers. */
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
/** One connection per listener (so nginx spreads them), never reused. */
const streamAgent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

interface Answer {
  status: number;
  text: string;
  bytes: number;
}

/** One request on the keep-alive agent; `body` a Buffer (sent as is) or an object (sent as JSON). */
function send(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const bytes =
    body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method,
      agent,
      headers: {
        ...headers,
        ...(bytes
          ? {
              'content-length': String(bytes.length),
              ...(Buffer.isBuffer(body) ? {} : { 'content-type': 'application/json' }),
            }
          : {}),
      },
    });
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => {
        const all = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, text: all.toString('utf8'), bytes: all.length });
      });
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end(bytes);
  });
}

/** A call that must answer `expected` (default any 2xx): its parsed JSON. */
async function json<T>(answer: Promise<Answer>, what: string, expected?: number): Promise<T> {
  const { status, text } = await answer;
  if (expected === undefined ? status < 200 || status > 299 : status !== expected)
    throw new Error(`${what} answered ${status}: ${text.slice(0, 300)}`);
  return JSON.parse(text || '{}') as T;
}

/** The API of one deployment as its demo bot, through its base URL. */
class Api {
  readonly bot: { accessKey: string; id: string };
  constructor(
    readonly url: string,
    deployment: Deployment,
  ) {
    this.bot = { accessKey: deployment.owner.botAccessKey, id: deployment.owner.botId };
  }

  get botHeaders(): Record<string, string> {
    return asBot(this.bot, 'GET').headers as Record<string, string>;
  }

  call<T>(method: string, path: string, body?: unknown): Promise<T> {
    return json<T>(send(`${this.url}${path}`, method, this.botHeaders, body), `${method} ${path}`);
  }

  /** upsert then PUT of `bytes` to the uploadUrl; answers the file's id once upload_completed. */
  async upload(key: string, bytes: Buffer, index = false): Promise<string> {
    const { file } = await this.call<{ file: { id: string; uploadUrl: string } }>('PUT', '/v1/files', {
      key,
      size: bytes.length,
      ...(index ? { index: true } : {}),
    });
    const put = await json<{ file: { status: string } }>(
      send(file.uploadUrl, 'PUT', {}, bytes),
      `PUT ${key}`,
    );
    // upload_completed, or with `index` already indexing_pending (or further).
    if (!/^(upload_completed|indexing_(pending|completed))$/.test(put.file.status))
      throw new Error(`${key}: upload ended ${put.file.status}`);
    return file.id;
  }

  /** getFile for a fresh url, then its bytes; checks their length. */
  async download(id: string, size: number): Promise<void> {
    const { file } = await this.call<{ file: { url: string } }>('GET', `/v1/files/${id}`);
    const { status, bytes } = await send(file.url, 'GET', {});
    if (status !== 200 || bytes !== size)
      throw new Error(`GET ${id} answered ${status} with ${bytes} bytes, not ${size}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Measurements (each answers its figures, named as the table's rows)

type Figures = Record<string, number>;

/** `--files` small files of `--file-size` random bytes, `--concurrency` at a time: up, then down. */
async function smallFiles(api: Api): Promise<Figures> {
  const size = settings.fileSize;
  const tag = randomBytes(4).toString('hex');
  const names = Array.from({ length: settings.files }, (_, i) => `scale-out/${tag}/small-${i}.bin`);
  const ids: string[] = [];
  const content = randomBytes(size);
  let start = now();
  await pool(names, settings.concurrency, async (key) => {
    ids.push(await api.upload(key, content));
  });
  const up = settings.files / (msSince(start) / 1000);
  start = now();
  await pool(ids, settings.concurrency, (id) => api.download(id, size));
  const down = settings.files / (msSince(start) / 1000);
  return { 'small files uploaded / s': up, 'small files downloaded / s': down };
}

/** One `--large-size` file: a single PUT streamed from disk, then a streamed GET hashed on the way. */
async function largeFile(api: Api, path: string, sha256: string): Promise<Figures> {
  const size = settings.largeSize;
  const { file } = await api.call<{ file: { id: string; uploadUrl: string } }>('PUT', '/v1/files', {
    key: `scale-out/large-${randomBytes(4).toString('hex')}.bin`,
    size,
  });
  let start = now();
  const checksum = await new Promise<string | undefined>((resolve, reject) => {
    const req = request(file.uploadUrl, {
      method: 'PUT',
      agent,
      headers: { 'content-length': String(size) },
    });
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => {
        text += c;
      });
      res.once('end', () => {
        if (res.statusCode !== 200) reject(new Error(`large PUT answered ${res.statusCode}: ${text}`));
        else resolve((JSON.parse(text) as { file: { checksum?: string } }).file.checksum);
      });
    });
    req.once('error', reject);
    createReadStream(path).pipe(req);
  });
  const upMs = msSince(start);
  if (checksum !== sha256) throw new Error(`large file stored with checksum ${checksum}, sent ${sha256}`);
  const { file: got } = await api.call<{ file: { url: string } }>('GET', `/v1/files/${file.id}`);
  start = now();
  const received = await new Promise<{ bytes: number; sha256: string }>((resolve, reject) => {
    const req = request(got.url, { agent }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`large GET answered ${res.statusCode}`));
      const hash = createHash('sha256');
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        hash.update(c);
      });
      res.once('end', () => resolve({ bytes, sha256: hash.digest('hex') }));
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end();
  });
  const downMs = msSince(start);
  if (received.bytes !== size || received.sha256 !== sha256)
    throw new Error(`large file came back as ${received.bytes} bytes, sha256 ${received.sha256}`);
  await api.call('DELETE', `/v1/files/${file.id}`);
  return { 'large file up, MB/s': size / 1e3 / upMs, 'large file down, MB/s': size / 1e3 / downMs };
}

/** Uploads the corpus with `index: true` and waits until every file of it is indexed. */
async function indexCorpus(api: Api): Promise<void> {
  const ids = await Promise.all(
    CORPUS.map(async (path) =>
      api.upload(`scale-out/corpus/${path.replace(/\//g, '-')}`, await readFile(join(repoRoot, path)), true),
    ),
  );
  const deadline = Date.now() + 300_000;
  for (const id of ids) {
    for (;;) {
      const { file } = await api.call<{ file: { status: string } }>('GET', `/v1/files/${id}`);
      if (file.status === 'indexing_completed') break;
      if (file.status === 'indexing_failed' || Date.now() > deadline)
        throw new Error(`corpus file ${id} ended ${file.status}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Two searches per process as a warm-up (each loads its model on its first query), then `--queries`. */
async function searches(api: Api, processes: number): Promise<Figures> {
  const search = async (i: number) => {
    const query = encodeURIComponent(QUESTIONS[i % QUESTIONS.length] as string);
    const { passages } = await api.call<{ passages: unknown[] }>(
      'GET',
      `/v1/files/search?query=${query}&limit=10`,
    );
    if (passages.length === 0) throw new Error(`no passage for "${QUESTIONS[i % QUESTIONS.length]}"`);
  };
  for (let i = 0; i < 2 * processes; i++) await search(i);
  const latencies: number[] = [];
  const start = now();
  await pool(
    Array.from({ length: settings.queries }, (_, i) => i),
    settings.searchConcurrency,
    async (i) => {
      const t = now();
      await search(i);
      latencies.push(msSince(t));
    },
  );
  const rate = settings.queries / (msSince(start) / 1000);
  const s = summarize(latencies);
  return { 'searches / s': rate, 'search p50, ms': s.p50, 'search p95, ms': s.p95 };
}

/**
 * `--listeners` chat users listening to one conversation, each on its own connection through the base URL
 * (nginx spreads them over the processes); `--messages` posted by the bot through the base URL, `--in-flight`
 * at a time. Messages per second is from the first POST until every listener holds every message.
 */
async function chat(api: Api, deployment: Deployment): Promise<Figures> {
  const chatUrl = `${api.url}/v1/chat/${api.bot.id}`;
  const users: Array<{ id: string; key: string }> = [];
  await pool(
    Array.from({ length: settings.listeners }, (_, i) => i),
    20,
    async () => {
      const made = await json<{ user: { id: string }; key: string }>(
        send(`${chatUrl}/users`, 'POST', {}, {}),
        'POST /users',
      );
      users.push({ id: made.user.id, key: made.key });
    },
  );
  const { conversation } = await json<{ conversation: { id: string } }>(
    send(`${chatUrl}/conversations`, 'POST', api.botHeaders, {}),
    'POST /conversations',
  );
  await pool(users, 20, (u) =>
    json(
      send(`${chatUrl}/conversations/${conversation.id}/participants`, 'POST', api.botHeaders, {
        userId: u.id,
      }),
      'POST /participants',
    ),
  );

  const tag = randomBytes(4).toString('hex');
  const sentAt = new Map<number, bigint>();
  const latencies: number[] = [];
  let delivered = 0;
  let lastAt = 0n;
  let failure: Error | undefined;
  const total = settings.listeners * settings.messages;
  let allDelivered: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    allDelivered = resolve;
  });
  const streams = await (async () => {
    const open: Array<() => void> = [];
    await pool(users, 20, async (u) => {
      const seen = new Set<number>();
      const parser = createParser({
        onEvent(event) {
          const signal = JSON.parse(event.data) as {
            type: string;
            data: { metadata?: { run?: string; seq?: number } };
          };
          const meta = signal.data.metadata;
          if (signal.type !== 'message_created' || meta?.run !== tag || typeof meta.seq !== 'number') return;
          if (seen.has(meta.seq)) return;
          seen.add(meta.seq);
          const at = now();
          latencies.push(Number(at - (sentAt.get(meta.seq) ?? at)) / 1e6);
          lastAt = at;
          delivered += 1;
          if (delivered === total) allDelivered();
        },
      });
      open.push(
        await new Promise<() => void>((resolve, reject) => {
          const req = request(`${chatUrl}/conversations/${conversation.id}/listen`, {
            agent: streamAgent,
            headers: { 'x-user-key': u.key, accept: 'text/event-stream' },
          });
          let closing = false;
          req.once('response', (res) => {
            if (res.statusCode !== 200) return reject(new Error(`listen answered ${res.statusCode}`));
            res.setEncoding('utf8').on('data', (c: string) => parser.feed(c));
            res.once('end', () => {
              if (!closing) failure ??= new Error('a listener stream ended');
            });
            res.on('error', () => undefined);
            resolve(() => {
              closing = true;
              req.destroy();
            });
          });
          req.once('error', (error) => {
            if (!closing) failure ??= error;
            reject(error);
          });
          req.end();
        }),
      );
    });
    return open;
  })();
  try {
    const spread = await Promise.all(deployment.processes.map((proc) => openStreams(proc.url)));
    console.error(`  listeners open per process (parley_chat_streams_open): ${spread.join(' / ')}`);
    const start = now();
    await pool(
      Array.from({ length: settings.messages }, (_, i) => i + 1),
      settings.inFlight,
      async (seq) => {
        sentAt.set(seq, now());
        await json(
          send(`${chatUrl}/messages`, 'POST', api.botHeaders, {
            conversationId: conversation.id,
            payload: { type: 'text', text: `scale-out message ${seq}` },
            metadata: { run: tag, seq },
          }),
          'POST /messages',
          201,
        );
      },
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      done,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(failure ?? new Error(`${delivered} of ${total} deliveries after 60 s`)),
          60_000,
        );
      }),
    ]);
    clearTimeout(timer);
    if (failure) throw failure;
    const seconds = Number(lastAt - start) / 1e9;
    const s = summarize(latencies);
    return {
      [`chat messages / s to ${settings.listeners} listeners`]: settings.messages / seconds,
      'chat deliveries / s': delivered / seconds,
      'chat delivery p95, ms': s.p95,
    };
  } finally {
    for (const close of streams) close();
  }
}

/** The live streams process `url` holds open, from its /metrics (the harness turns metrics on). */
async function openStreams(url: string): Promise<number> {
  const { text } = await send(`${url}/metrics`, 'GET', {});
  return Number(text.match(/^parley_chat_streams_open (\d+)/m)?.[1] ?? Number.NaN);
}

// ---------------------------------------------------------------------------------------------------------
// The run: every deployment started, then each step on each in turn; the report

const LABELS: Record<Kind, string> = {
  single: '1 process, SQLite + disk',
  '1': '1 process, PG + S3, nginx',
  '3': '3 processes, PG + S3, nginx',
};

/** A deployment of the run, its figures and the 1-minute load average after each of its steps. */
interface Running {
  kind: Kind;
  deployment: Deployment;
  api: Api;
  processes: number;
  figures: Figures;
  loads: number[];
}

/** The deployments started so far (stopped at the end, also on Ctrl-C). */
const running: Running[] = [];

async function start(kind: Kind): Promise<Running> {
  const processes = kind === 'single' ? 1 : Number(kind);
  const started = now();
  const deployment = await startDeployment(kind === 'single' ? 'single' : 'cluster', {
    processes,
    postgresUrl: settings.postgres,
  });
  const run = {
    kind,
    deployment,
    api: new Api(deployment.url, deployment),
    processes,
    figures: {},
    loads: [],
  };
  running.push(run);
  console.error(`${LABELS[kind]}: started in ${(msSince(started) / 1000).toFixed(1)} s at ${deployment.url}`);
  return run;
}

/** `list` rotated left by `by`: the deployments take turns going first, step by step. */
const rotate = <T>(list: readonly T[], by: number): T[] => [
  ...list.slice(by % list.length),
  ...list.slice(0, by % list.length),
];

async function stopAll(): Promise<void> {
  for (const run of running.splice(0)) await run.deployment.stop();
}

/** Writes `size` random bytes to `path` (1 MiB at a time) and answers their sha256. */
async function randomFile(path: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const handle = await open(path, 'w');
  try {
    for (let written = 0; written < size; ) {
      const block = randomBytes(Math.min(1024 * 1024, size - written));
      hash.update(block);
      await handle.write(block);
      written += block.length;
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

function fmt(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return '–';
  if (v < 10) return v.toFixed(2);
  if (v < 100) return v.toFixed(1);
  return v.toFixed(0);
}

async function main(): Promise<void> {
  const folder = await makeWorkFolder('parley-scale-out-');
  onInterrupt(async () => {
    await stopAll();
    await rm(folder, { recursive: true, force: true });
  });
  try {
    console.log(
      `Scale-out: ${settings.files} files of ${settings.fileSize} B (${settings.concurrency} at a time), ` +
        `${settings.largeSize === 0 ? 'no large file' : `a ${settings.largeSize} B file (one PUT)`}, ` +
        `${settings.queries} searches (${settings.searchConcurrency} at a time), ${settings.messages} chat messages ` +
        `(${settings.inFlight} in flight) to ${settings.listeners} listeners; load average at start ${loadAverage()}`,
    );
    let large: { path: string; sha256: string } | undefined;
    if (settings.largeSize > 0) {
      const path = join(folder, 'large.bin');
      large = { path, sha256: await randomFile(path, settings.largeSize) };
    }
    // All deployments run side by side (the idle ones cost little) and take turns step by step, so that a
    // change in the shared machine's load falls on all of them rather than on whichever ran last.
    for (const kind of settings.deployments) await start(kind);
    await Promise.all(running.map((run) => indexCorpus(run.api)));
    type Step = [string, (run: Running) => Promise<Figures>];
    const largeStep = (file: { path: string; sha256: string }): Step => [
      'large file',
      (run) => largeFile(run.api, file.path, file.sha256),
    ];
    const steps: Step[] = [
      ['small files', (run) => smallFiles(run.api)],
      ...(large ? [largeStep(large)] : []),
      ['search', (run) => searches(run.api, run.processes)],
      ['chat', (run) => chat(run.api, run.deployment)],
    ];
    for (const [i, [name, work]] of steps.entries()) {
      for (const run of rotate(running, i)) {
        const t = now();
        Object.assign(run.figures, await work(run));
        run.loads.push(loadavg()[0] ?? Number.NaN);
        console.error(
          `${LABELS[run.kind]}: ${name} ${(msSince(t) / 1000).toFixed(1)} s, load average ${loadAverage()}`,
        );
      }
    }
    const results = new Map<Kind, Figures>(
      running.map((run) => [
        run.kind,
        { ...run.figures, 'load average (1 min) after its steps, mean': summarize(run.loads).mean },
      ]),
    );
    const names = [...new Set([...results.values()].flatMap((f) => Object.keys(f)))];
    const both = results.has('1') && results.has('3');
    const rows = [['figure', ...settings.deployments.map((k) => LABELS[k]), ...(both ? ['3 ÷ 1'] : [])]];
    for (const name of names) {
      const one = results.get('1')?.[name] ?? Number.NaN;
      const three = results.get('3')?.[name] ?? Number.NaN;
      rows.push([
        name,
        ...settings.deployments.map((k) => fmt(results.get(k)?.[name])),
        ...(both ? [name.startsWith('load') ? '' : ratio(three, one)] : []),
      ]);
    }
    console.log(`\n${table(rows)}\n\nload average at the end ${loadAverage()}`);
  } finally {
    await stopAll();
    await rm(folder, { recursive: true, force: true });
  }
}

runMain(main);
