import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canReadThreadNice,
  cpuHogs,
  newThreads,
  threadNices,
} from '../../../../testkit/src/server/threads.js';
import { typescriptBootstrap } from '../../workers/spawn.js';
import { EmbedderError } from './errors.js';
import { USE_LITE_ID, UseLiteEmbedder } from './use-lite.js';
import { BULK_BATCH_CHARS } from './use-lite-calls.js';

const cosine = (a: Float32Array, b: Float32Array): number => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
};
const norm = (v: Float32Array): number => Math.sqrt(cosine(v, v));

describe('UseLiteEmbedder (the shipped model, in a worker thread)', () => {
  const embedder = new UseLiteEmbedder();

  beforeAll(() => embedder.ready());
  afterAll(() => embedder.close());

  it('names the model and its 512 dimensions', () => {
    expect(embedder.id).toBe(USE_LITE_ID);
    expect(USE_LITE_ID).toBe('use-lite-512@0.2.0');
    expect(embedder.dimensions).toBe(512);
  });

  it('gives unit-length 512-d vectors', async () => {
    const vectors = await embedder.embed(['How do I reset my password?', 'a', '']);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(512);
      expect(norm(vector)).toBeCloseTo(1, 5);
      expect(vector.every(Number.isFinite)).toBe(true);
    }
  });

  it('gives the same vector for the same text, alone or in a batch', async () => {
    const text = 'Knowledge bases group files for search.';
    const [alone] = await embedder.embed([text]);
    const [again] = await embedder.embed([text]);
    const inBatch = await embedder.embed(['Something else entirely.', text, 'And another one.']);
    expect(again).toEqual(alone);
    expect(cosine(alone as Float32Array, inBatch[1] as Float32Array)).toBeCloseTo(1, 5);
  });

  it('scores a paraphrase above an unrelated sentence', async () => {
    const [question, paraphrase, unrelated] = (await embedder.embed([
      'How do I reset my password?',
      'Steps to recover a forgotten login secret',
      'The weather in Paris is mild',
    ])) as [Float32Array, Float32Array, Float32Array];
    expect(cosine(question, paraphrase)).toBeGreaterThan(cosine(question, unrelated) + 0.2);
  });

  it('returns 70 vectors in input order for 70 texts of mixed lengths (several batches)', async () => {
    const texts = Array.from(
      { length: 70 },
      (_, i) => `Passage number ${i} is about topic ${i % 7}.${' More words here.'.repeat((i * 7) % 11)}`,
    );
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(70);
    const probes = [0, 1, 10, 33, 68, 69];
    const singles = await Promise.all(probes.map((i) => embedder.embed([texts[i] as string])));
    probes.forEach((i, k) => {
      expect(cosine(vectors[i] as Float32Array, singles[k]?.[0] as Float32Array)).toBeCloseTo(1, 5);
    });
    expect(cosine(vectors[0] as Float32Array, vectors[1] as Float32Array)).toBeLessThan(0.999);
  });

  it('returns [] for no texts', async () => {
    await expect(embedder.embed([])).resolves.toEqual([]);
  });

  it('keeps rows aligned when empty texts end a batch', async () => {
    const vectors = await embedder.embed(['The cat sat on the mat.', '', '']);
    const [cat] = await embedder.embed(['The cat sat on the mat.']);
    expect(vectors).toHaveLength(3);
    expect(cosine(vectors[0] as Float32Array, cat as Float32Array)).toBeCloseTo(1, 5);
    expect(vectors[2]).toEqual(vectors[1]);
  });

  it('reads only the first 128 tokens of an input', async () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`);
    const [long, longer] = await embedder.embed([words.slice(0, 300).join(' '), words.join(' ')]);
    const [short] = await embedder.embed([words.slice(0, 10).join(' ')]);
    expect(cosine(long as Float32Array, longer as Float32Array)).toBeCloseTo(1, 5);
    expect(cosine(long as Float32Array, short as Float32Array)).toBeLessThan(0.99);
  });

  it('serves concurrent calls, each in its own order', async () => {
    const a = Array.from({ length: 40 }, (_, i) => `Alpha sentence ${i}.`);
    const b = ['A single search query'];
    const [va, vb, [qa], [qb]] = await Promise.all([
      embedder.embed(a),
      embedder.embed(b),
      embedder.embed([a[39] as string]),
      embedder.embed(b),
    ]);
    expect(va).toHaveLength(40);
    expect(cosine(va[39] as Float32Array, qa as Float32Array)).toBeCloseTo(1, 5);
    expect(cosine(vb[0] as Float32Array, qb as Float32Array)).toBeCloseTo(1, 5);
  });

  it('fills one model run with the texts of several small calls waiting together, each call in its order', async () => {
    const files = Array.from({ length: 8 }, (_, f) =>
      Array.from(
        { length: 4 },
        (_, p) => `File ${f}, passage ${p}: ${'words '.repeat(1 + ((f * 7 + p * 3) % 11))}`,
      ),
    );
    const alone = await Promise.all(files.map((texts) => embedder.embed(texts)));
    // The worker busy with a long call while eight files' calls of four passages arrive, as when several
    // short files are indexed at once: they wait together and then share runs of up to 32 texts.
    const long = embedder.embed(Array.from({ length: 32 }, (_, i) => `A long document, passage ${i}.`));
    const before = embedder.runs;
    const together = await Promise.all(files.map((texts) => embedder.embed(texts)));
    await long;
    expect(embedder.runs - before).toBeLessThanOrEqual(3); // not 8 (one per call)
    for (const [f, vectors] of together.entries()) {
      expect(vectors).toHaveLength(4);
      for (const [p, v] of vectors.entries())
        expect(cosine(v, alone[f]?.[p] as Float32Array)).toBeGreaterThan(0.99999);
    }
  });

  it('serves a query that arrives during a long call right after the batch being run', async () => {
    const long = embedder.embed(Array.from({ length: 96 }, (_, i) => `Indexing passage ${i} of a document.`));
    // The query comes while the long call's first batch runs and the rest wait (no sleep: on onnxruntime a
    // batch takes milliseconds, so how many would be left after a pause depends on the machine's load).
    const queuedBefore = embedder.stats().queuedBatches;
    const [query] = await embedder.embed(['a search query']);
    const queuedAfter = embedder.stats().queuedBatches;
    await expect(long).resolves.toHaveLength(96);
    expect(query).toHaveLength(512);
    expect(queuedBefore).toBeGreaterThanOrEqual(4);
    // Only the batch running when the query came (and the one started as it finished) went first.
    expect(queuedAfter).toBeGreaterThanOrEqual(queuedBefore - 1);
  });

  it('serves a query before the indexing batches waiting when it comes', async () => {
    await embedder.ready();
    const done: string[] = [];
    const record = (name: string) => (vectors: Float32Array[]) => {
      done.push(name);
      return vectors;
    };
    // Six indexing calls of one full batch each (16 texts): the first runs at once on the idle worker, five wait.
    const bulk = Array.from({ length: 6 }, (_, c) =>
      embedder
        .embed(
          Array.from({ length: 16 }, (_, i) => `Indexing call ${c}, passage ${i} of a long document.`),
          undefined,
          'bulk',
        )
        .then(record(`bulk ${c}`)),
    );
    const before = embedder.runs;
    const query = embedder.embed(['a search query']).then(record('query'));
    const [vector] = await query;
    await Promise.all(bulk);
    expect(vector).toHaveLength(512);
    // Only the batch running when the query came finished before it (then 6 runs: the query's, the 5 waiting).
    expect(done).toEqual(['bulk 0', 'query', 'bulk 1', 'bulk 2', 'bulk 3', 'bulk 4', 'bulk 5']);
    expect(embedder.runs - before).toBe(6);
  });

  it('serves calls without a priority as interactive, and bulk calls waiting alike round-robin', async () => {
    await embedder.ready();
    const done: string[] = [];
    const running = embedder
      .embed(['keeps the worker busy'], undefined, 'bulk')
      .then(() => done.push('first'));
    const long = embedder
      .embed(
        Array.from({ length: 48 }, (_, i) => `Long file passage ${i}.`),
        undefined,
        'bulk',
      )
      .then(() => done.push('long bulk'));
    const short = embedder.embed(['A short file.'], undefined, 'bulk').then(() => done.push('short bulk'));
    const chat = embedder.embed(['a chat question', 'a passage sentence']).then(() => done.push('chat'));
    await Promise.all([running, long, short, chat]);
    // The chat call (no priority given: interactive) first; then the short bulk call goes before the long
    // one's second batch (least served first), so the long call is not served to its end first.
    expect(done).toEqual(['first', 'chat', 'short bulk', 'long bulk']);
  });

  it('keeps a bulk batch of long passages short, and fills one with short ones', async () => {
    await embedder.ready();
    const long = Array.from({ length: 16 }, (_, i) => `Passage ${i}: ${'a sentence of words. '.repeat(30)}`);
    const short = Array.from({ length: 16 }, (_, i) => `Short passage ${i}.`);
    let before = embedder.runs;
    const longVectors = await embedder.embed(long, undefined, 'bulk');
    // 16 texts of ~640 characters: four runs of four, each as short as a query may wait for.
    expect(embedder.runs - before).toBe(
      Math.ceil(16 / Math.floor(BULK_BATCH_CHARS / (long[0] as string).length)),
    );
    expect(embedder.runs - before).toBeGreaterThanOrEqual(4);
    before = embedder.runs;
    await embedder.embed(short, undefined, 'bulk');
    expect(embedder.runs - before).toBe(1);
    // Interactive calls are not cut so: the same long texts in one run of 16, the same vectors.
    before = embedder.runs;
    const together = await embedder.embed(long);
    expect(embedder.runs - before).toBe(1);
    for (const [i, v] of together.entries())
      expect(cosine(v, longVectors[i] as Float32Array)).toBeGreaterThan(0.99999);
  });

  it('rejects at once with the reason of an aborted signal', async () => {
    const controller = new AbortController();
    const reason = new Error('request gone');
    const pending = embedder.embed(
      Array.from({ length: 64 }, (_, i) => `text ${i}`),
      controller.signal,
    );
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await expect(embedder.embed(['x'], AbortSignal.abort(reason))).rejects.toBe(reason);
    // the embedder still works afterwards
    await expect(embedder.embed(['still here'])).resolves.toHaveLength(1);
  });
});

describe.runIf(canReadThreadNice)(
  'UseLiteEmbedder with a query worker (indexing at a lower CPU priority)',
  () => {
    const embedder = new UseLiteEmbedder({ queryWorker: true, bulkNice: 19 });
    afterAll(() => embedder.close());
    const bulkCall = (c: number) =>
      Array.from(
        { length: 16 },
        (_, i) => `Indexing call ${c}, passage ${i}: ${'more words of it. '.repeat(6)}`,
      );

    it("runs queries in a worker at the process's priority and indexing in one at the nice value given", async () => {
      const before = threadNices();
      const [query] = await embedder.embed(['a search query']);
      const queryThreads = newThreads(before, threadNices());
      expect(query).toHaveLength(512);
      expect(embedder.stats().workers).toBe(1); // the query worker alone: nothing to index yet
      expect(queryThreads.size).toBeGreaterThanOrEqual(1);
      expect([...queryThreads.values()]).not.toContain(19);

      const middle = threadNices();
      const indexed = await embedder.embed(bulkCall(0), undefined, 'bulk');
      const bulkThreads = newThreads(middle, threadNices());
      expect(indexed).toHaveLength(16);
      expect(embedder.stats().workers).toBe(2);
      expect([...bulkThreads.values()]).toContain(19);
      // The query worker's threads were not lowered with them.
      for (const [tid, nice] of queryThreads) expect(threadNices().get(tid) ?? nice).toBe(nice);
    });

    it('gives the same vectors in either worker', async () => {
      const texts = ['How do I reset my password?', 'Orders ship within two days.'];
      const interactive = await embedder.embed(texts);
      const bulk = await embedder.embed(texts, undefined, 'bulk');
      for (const [i, v] of interactive.entries())
        expect(cosine(v, bulk[i] as Float32Array)).toBeGreaterThan(0.99999);
    });

    it('answers a query before the indexing batch already running when both cores are taken', async () => {
      await embedder.embed(['warm'], undefined, 'bulk');
      const hogs = await cpuHogs();
      const done: string[] = [];
      try {
        // Six indexing calls: the first runs at once on the indexing worker, now at nice 19 among busy cores.
        const bulk = Array.from({ length: 6 }, (_, c) =>
          embedder.embed(bulkCall(c), undefined, 'bulk').then(() => done.push(`bulk ${c}`)),
        );
        await embedder.embed(['a search query']).then(() => done.push('query'));
        await hogs.stop();
        await Promise.all(bulk);
      } finally {
        await hogs.stop();
      }
      // Without a query worker it would wait for "bulk 0" (see 'serves a query before the indexing batches…').
      expect(done[0]).toBe('query');
      expect(done).toHaveLength(7);
    });
  },
);

describe('UseLiteEmbedder lifecycle', () => {
  it('close() ends its workers, fails waiting calls and refuses new ones', async () => {
    const embedder = new UseLiteEmbedder({ workers: 2, batchSize: 8 });
    expect(embedder.stats()).toEqual({ workers: 0, busy: 0, queuedBatches: 0 }); // started on first use
    await embedder.embed(Array.from({ length: 24 }, (_, i) => `warm up ${i}`));
    expect(embedder.stats().workers).toBe(2);
    const waiting = embedder.embed(Array.from({ length: 200 }, (_, i) => `long job ${i}`)).catch((e) => e);
    const { busy, queuedBatches } = embedder.stats();
    expect(busy).toBeGreaterThanOrEqual(1); // the second worker may still be loading
    expect(busy + queuedBatches).toBe(25);
    await embedder.close();
    expect(await waiting).toMatchObject({ code: 'closed' });
    expect(embedder.stats()).toEqual({ workers: 0, busy: 0, queuedBatches: 0 });
    await expect(embedder.embed(['late'])).rejects.toBeInstanceOf(EmbedderError);
    await expect(embedder.ready()).rejects.toMatchObject({ code: 'closed' });
    await embedder.close(); // twice is fine
  });

  it('leaves no handle open: a process that embeds and closes exits by itself', async () => {
    const run = await runChild([
      'const embedder = new UseLiteEmbedder();',
      "const [vector] = await embedder.embed(['hello']);",
      'await embedder.close();',
      "console.log('embedded', vector.length);",
    ]);
    expect(run).toEqual({ code: 0, signal: null, output: 'embedded 512' });
  });

  it('fails calls with model_load_failed, naming the missing file, when the model is not on disk', async () => {
    const embedder = new UseLiteEmbedder({
      files: { modelDir: '/nonexistent/model' },
    });
    try {
      await expect(embedder.embed(['x'])).rejects.toMatchObject({
        code: 'model_load_failed',
        retryable: false,
        message: expect.stringContaining('/nonexistent/model/model.json is missing'),
      });
      await expect(embedder.ready()).rejects.toMatchObject({ code: 'model_load_failed' });
    } finally {
      await embedder.close();
    }
  });

  it('lets go of a worker whose batch overruns its time bound, failing that call as retryable, and survives it', async () => {
    // In a child process: onnxruntime-node aborts the whole process when a worker is terminated in the
    // middle of a run, so the worker is only ended once its run is over (and close() waits for it).
    const run = await runChild([
      "const texts = Array.from({ length: 32 }, (_, i) => 'A sentence long enough to take a while, number ' + i);",
      'for (const bound of [1, 4, 7, 10]) {',
      '  const embedder = new UseLiteEmbedder({ batchTimeoutMs: bound });',
      '  await embedder.ready();',
      "  const failed = await embedder.embed(texts).then(() => 'in time', (e) => e.code + ' ' + e.retryable);",
      '  const { workers } = embedder.stats();',
      '  await embedder.close();',
      '  if (bound === 1) console.log(failed, workers);',
      '}',
      'const closing = new UseLiteEmbedder({ workers: 2, batchSize: 8 });',
      "await closing.embed(['warm']);",
      "const waiting = closing.embed(Array.from({ length: 200 }, (_, i) => 'long job ' + i)).catch((e) => e.code);",
      '// Closed once a batch is in flight in a worker:',
      'while (closing.stats().busy === 0) await new Promise((resolve) => setImmediate(resolve));',
      'await closing.close();',
      "console.log('closed mid-run:', await waiting);",
    ]);
    expect(run).toEqual({
      code: 0,
      signal: null,
      output: 'worker_failed true 0\nclosed mid-run: closed',
    });
  });

  it('rejects invalid settings', () => {
    expect(() => new UseLiteEmbedder({ batchSize: 33 })).toThrow(/batchSize/);
    expect(() => new UseLiteEmbedder({ workers: 0 })).toThrow(/workers/);
    expect(() => new UseLiteEmbedder({ queryWorker: true, bulkNice: 20 })).toThrow(/bulkNice/);
  });
});

/** Runs `lines` (with UseLiteEmbedder imported) in a child process: its exit and its output. */
async function runChild(
  lines: string[],
): Promise<{ code: number | null; signal: string | null; output: string }> {
  const script = [
    `import { UseLiteEmbedder } from ${JSON.stringify(new URL('./use-lite.ts', import.meta.url).href)};`,
    ...lines,
  ].join('\n');
  const entry = new URL(`data:text/javascript;base64,${Buffer.from(script).toString('base64')}`);
  const child = spawn(process.execPath, ['-e', typescriptBootstrap(entry)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  clearTimeout(timer);
  return { code, signal, output: output.trim() };
}
