import { rm } from 'node:fs/promises';
import type { FileObject } from '@parley/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../testkit/src/server/harness.js';
import { hashVector } from '../../../../testkit/src/server/hash-vector.js';
import { dropSchema, postgresTestUrl } from '../../../../testkit/src/server/postgres.js';
import { eventually } from '../../../../testkit/src/shared/eventually.js';
import { buildApp, type ParleyApp } from '../../app.js';
import { type Db, openDatabase } from '../../db/database.js';
import { silentLogger } from '../../logger.js';
import { USE_LITE_ID, USE_LITE_INT8_ID } from '../../search/embed/index.js';
import type { Embedder } from '../../search/types.js';
import { embeddingModelKeeper } from './embedding-model.js';

/**
 * A change of embedding model (another `PARLEY_EMBEDDER`, precision or model folder) on a data directory that
 * holds vectors of the previous one: indexing goes on with the new model, the stored passages are re-embedded
 * in the background without reading their files again, and search never compares vectors of two models.
 */

/** A deterministic embedder; counts the texts it embedded. */
class HashEmbedder implements Embedder {
  texts = 0;
  constructor(
    readonly id: string,
    readonly dimensions: number,
    private readonly salt = 0,
  ) {}
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.texts += texts.length;
    return texts.map((t) => hashVector(t, this.dimensions, this.salt));
  }
  async close(): Promise<void> {}
}

type Inject = (opts: {
  method: 'GET' | 'PUT';
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
}) => Promise<LightMyRequestResponse>;

/** The Files API calls these tests make, as the bootstrap bot of `t`, through `inject`. */
function filesOf(inject: Inject, t: TestApp) {
  const headers = { 'x-bot-id': t.botId, authorization: `Bearer ${t.botKey}` };
  const get = async (id: string) => {
    const res = await inject({ method: 'GET', url: `/v1/files/${id}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { file: FileObject }).file;
  };
  return {
    get,
    async upload(key: string, text: string): Promise<FileObject> {
      const up = await inject({
        method: 'PUT',
        url: '/v1/files',
        headers,
        payload: { key, size: Buffer.byteLength(text), index: true },
      });
      expect(up.statusCode, up.body).toBe(200);
      const url = new URL((up.json() as { file: { uploadUrl: string } }).file.uploadUrl);
      const put = await inject({
        method: 'PUT',
        url: `${url.pathname}${url.search}`,
        payload: Buffer.from(text),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(put.statusCode, put.body).toBe(200);
      return (put.json() as { file: FileObject }).file;
    },
    /** Waits until the file leaves indexing_pending. */
    async settled(id: string): Promise<FileObject> {
      let file: FileObject | undefined;
      await eventually(
        async () => {
          file = await get(id);
          return file.status !== 'indexing_pending';
        },
        30_000,
        25,
        `file ${id} indexed`,
      );
      return file as FileObject;
    },
    async search(query: string, mode: 'semantic' | 'hybrid' | 'lexical') {
      const res = await inject({
        method: 'GET',
        url: `/v1/files/search?query=${encodeURIComponent(query)}&mode=${mode}`,
        headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { passages: Array<{ content: string; file: { id: string } }> }).passages;
    },
    async passages(id: string) {
      const res = await inject({ method: 'GET', url: `/v1/files/${id}/passages`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { passages: Array<{ id: string; content: string }> }).passages;
    },
  };
}

/** The index's model row. */
const modelOf = (db: Db) =>
  db.kysely.selectFrom('embedding_model').select(['model_id', 'dimensions']).executeTakeFirst();

/** How many stored passages have no vector. */
async function unembeddedPassages(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('passages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('model_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Waits until the index's model is `id`. */
const modelBecomes = (db: Db, id: string): Promise<void> =>
  eventually(
    async () => (await modelOf(db))?.model_id === id,
    30_000,
    25,
    `the index's model to become ${id}`,
  );

/** The files of the `index_file` jobs queued in `db`, oldest first. */
async function indexJobFiles(db: Db): Promise<string[]> {
  const jobs = await db.kysely
    .selectFrom('jobs')
    .select(['payload'])
    .where('kind', '=', 'index_file')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return jobs.map((j) => (JSON.parse(j.payload) as { fileId: string }).fileId);
}

/** Whether a keeper of `app`'s index and files, with `embedder`, switches the index (what the check at start does). */
const keeperSwitches = (app: ParleyApp, embedder: Embedder) =>
  embeddingModelKeeper({
    index: app.services.index,
    embedder,
    files: app.services.files,
    logger: silentLogger,
  }).ensure({ settle: true });

const pgUrl = postgresTestUrl();
const engines: Array<{ engine: string; databaseUrl?: string }> = [
  { engine: 'SQLite' },
  ...(pgUrl ? [{ engine: 'PostgreSQL', databaseUrl: pgUrl }] : []),
];

describe.each(engines)('a change of embedding model ($engine)', ({ databaseUrl }) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A test app on this engine (on PostgreSQL, in a schema of its own kept until the test ends). */
  async function indexedApp(options: { embedder: Embedder | null }) {
    const pgSchema = databaseUrl
      ? `model_${process.pid}_${Math.random().toString(36).slice(2, 10)}`
      : undefined;
    const t = await createTestApp({
      workers: true,
      ...options,
      ...(databaseUrl && pgSchema ? { databaseUrl, pgSchema } : {}),
    });
    cleanups.push(() => rm(t.dataDir, { recursive: true, force: true }));
    if (databaseUrl && pgSchema) cleanups.push(() => dropSchema(databaseUrl, pgSchema));
    return Object.assign(t, { pgSchema });
  }

  /** Opens the database of `t` again, as the next `parley serve` would, with `embedder`. */
  async function restart(
    t: TestApp & { pgSchema?: string | undefined },
    embedder: Embedder | null,
    workers = true,
  ) {
    const db = await openDatabase({
      dataDir: t.dataDir,
      ...(databaseUrl && t.pgSchema ? { url: databaseUrl, pgSchema: t.pgSchema } : {}),
    });
    const app = await buildApp({ config: t.config, db, logger: false, workers, embedder });
    await app.ready();
    cleanups.push(() => db.close());
    cleanups.push(() => app.close());
    return { app, db, files: filesOf((o) => app.inject(o as never), t) };
  }

  /**
   * Runs the periodic tasks now due: the model check at start (due at once) now rather than at the runner's
   * first beat, a second after the start (PERIODIC_CHECK_MS); a tick waits for one already running.
   */
  const checkAtStart = (app: ParleyApp) => app.services.runner.tick();
  /** Ends a running app and closes its database, as a process exit would. */
  const stop = async (running: { app: ParleyApp; db: Db }) => {
    await running.app.close();
    await running.db.close();
  };

  it('re-embeds the stored passages with the new model in the background, and indexes new files with it', async () => {
    const before = new HashEmbedder('hash-a', 64);
    const t = await indexedApp({ embedder: before });
    const first = filesOf((o) => t.app.inject(o as never), t);
    const old = await first.upload('axolotl.md', '# Axolotl\n\nThe axolotl regrows its limbs and its heart.');
    expect((await first.settled(old.id)).status).toBe('indexing_completed');
    const passagesBefore = await first.passages(old.id);
    expect((await first.search('axolotl limbs', 'semantic'))[0]?.file.id).toBe(old.id);
    await stop(t);

    const after = new HashEmbedder('hash-b', 32, 7);
    const next = await restart(t, after);
    // (What a search finds before the check at start switches the index is the next test's: here the check runs
    // at once, and may come before any search, which then finds the file queued again.)
    await checkAtStart(next.app);
    await modelBecomes(next.db, 'hash-b');
    // The stored file is queued again, its passages embedded anew (not read from its blob again).
    expect((await next.files.settled(old.id)).status).toBe('indexing_completed');
    const content = (list: Array<{ content: string }>) => list.map((p) => p.content);
    expect(content(await next.files.passages(old.id))).toEqual(content(passagesBefore));
    expect(after.texts).toBeGreaterThanOrEqual(passagesBefore.length);
    expect((await next.files.search('axolotl limbs', 'semantic'))[0]?.file.id).toBe(old.id);

    const added = await next.files.upload('pangolin.md', '# Pangolin\n\nThe pangolin rolls into a ball.');
    const done = await next.files.settled(added.id);
    expect(done.status, done.failedStatusReason).toBe('indexing_completed');
    expect((await next.files.search('pangolin ball', 'semantic'))[0]?.file.id).toBe(added.id);
    expect(await modelOf(next.db)).toEqual({ model_id: 'hash-b', dimensions: 32 });
  }, 90_000);

  /** An app indexed with `before`, closed: its data directory holds one file's vectors of that model. */
  async function indexedWith(before: Embedder) {
    const t = await indexedApp({ embedder: before });
    const files = filesOf((o) => t.app.inject(o as never), t);
    const file = await files.upload('narwhal.md', '# Narwhal\n\nThe narwhal tusk is a long spiral tooth.');
    expect((await files.settled(file.id)).status).toBe('indexing_completed');
    expect((await files.search('narwhal tusk', 'semantic'))[0]?.file.id).toBe(file.id);
    await stop(t);
    return { t, file };
  }

  it('never compares a query with vectors of another model of the same width (search by meaning finds nothing, by words it finds)', async () => {
    const { t, file } = await indexedWith(new HashEmbedder('hash-a', 64));
    // No background work in this process: nothing switches the index, which keeps hash-a's vectors.
    const next = await restart(t, new HashEmbedder('hash-c', 64, 3), false);
    expect(await next.files.search('narwhal tusk', 'semantic')).toEqual([]);
    expect((await next.files.search('narwhal tusk', 'hybrid'))[0]?.file.id).toBe(file.id);
    expect((await next.files.search('narwhal tusk', 'lexical'))[0]?.file.id).toBe(file.id);
    expect(await modelOf(next.db)).toEqual({ model_id: 'hash-a', dimensions: 64 });
  }, 90_000);

  it("keeps the vectors when a model folder's provisional id settles on the stored model once loaded", async () => {
    const { t, file } = await indexedWith(new HashEmbedder('hash-a', 64));
    // As the onnx embedder: `onnx:<folder>` until a worker has loaded the model, then `onnx:<folder>@<hash>`.
    const loaded = new HashEmbedder('hash-a', 64);
    let calls = 0;
    let firstCall = () => {};
    const called = new Promise<void>((resolve) => {
      firstCall = resolve;
    });
    const settling: Embedder = {
      get id() {
        return calls > 0 ? 'hash-a' : 'hash-a-provisional';
      },
      dimensions: 64,
      embed: (texts) => {
        calls++;
        firstCall();
        return loaded.embed(texts);
      },
      close: async () => {},
    };
    const next = await restart(t, settling);
    void checkAtStart(next.app);
    await called; // the check at start has loaded the model
    expect(loaded.texts).toBe(1);
    // The check at start has ended: a tick waits for the one in flight, or runs it if it is still due.
    await next.app.services.runner.tick();
    expect(await modelOf(next.db)).toEqual({ model_id: 'hash-a', dimensions: 64 });
    expect((await next.files.get(file.id)).status).toBe('indexing_completed');
    expect((await next.files.search('narwhal tusk', 'semantic'))[0]?.file.id).toBe(file.id);
    expect(loaded.texts).toBe(2);
  }, 90_000);

  it('embeds, once an embedder is configured, the files indexed without one (PARLEY_EMBEDDER=none), each once', async () => {
    const t = await indexedApp({ embedder: null });
    const first = filesOf((o) => t.app.inject(o as never), t);
    const okapi = await first.upload('okapi.md', '# Okapi\n\nThe okapi has striped legs like a zebra.');
    const tapir = await first.upload('tapir.md', '# Tapir\n\nThe tapir has a short prehensile trunk.');
    for (const f of [okapi, tapir]) expect((await first.settled(f.id)).status).toBe('indexing_completed');
    expect(await modelOf(t.db)).toBeUndefined();
    expect(await unembeddedPassages(t.db)).toBeGreaterThanOrEqual(2);
    await stop(t);

    const embedder = new HashEmbedder('hash-a', 64);
    const next = await restart(t, embedder);
    // Until they are embedded, they are found by words.
    expect((await next.files.search('okapi striped legs', 'lexical'))[0]?.file.id).toBe(okapi.id);
    await checkAtStart(next.app);
    await modelBecomes(next.db, 'hash-a');
    for (const f of [okapi, tapir])
      expect((await next.files.settled(f.id)).status).toBe('indexing_completed');
    expect((await next.files.search('okapi striped legs', 'semantic'))[0]?.file.id).toBe(okapi.id);
    expect((await next.files.search('tapir prehensile trunk', 'semantic'))[0]?.file.id).toBe(tapir.id);
    expect(await modelOf(next.db)).toEqual({ model_id: 'hash-a', dimensions: 64 });
    // One job each for the upload, one each for the embedding of the stored passages; nothing after.
    expect((await indexJobFiles(next.db)).sort()).toEqual([okapi.id, okapi.id, tapir.id, tapir.id].sort());
    expect(await keeperSwitches(next.app, embedder)).toBe(false);
  }, 90_000);

  it('embeds the files indexed while the deployment ran without an embedder, once it runs its model again', async () => {
    const embedder = new HashEmbedder('hash-a', 64);
    const t = await indexedApp({ embedder });
    const first = filesOf((o) => t.app.inject(o as never), t);
    const okapi = await first.upload('okapi.md', '# Okapi\n\nThe okapi has striped legs like a zebra.');
    expect((await first.settled(okapi.id)).status).toBe('indexing_completed');
    expect(await modelOf(t.db)).toEqual({ model_id: 'hash-a', dimensions: 64 });
    await stop(t);

    // A while with PARLEY_EMBEDDER=none: a file indexed by words only; the index keeps hash-a's vectors.
    const wordsOnly = await restart(t, null);
    const tapir = await wordsOnly.files.upload(
      'tapir.md',
      '# Tapir\n\nThe tapir has a short prehensile trunk.',
    );
    expect((await wordsOnly.files.settled(tapir.id)).status).toBe('indexing_completed');
    expect(await modelOf(wordsOnly.db)).toEqual({ model_id: 'hash-a', dimensions: 64 });
    await stop(wordsOnly);

    // Back on hash-a: the tapir is embedded in the background, the okapi is not embedded again.
    const again = new HashEmbedder('hash-a', 64);
    const next = await restart(t, again);
    expect((await next.files.search('tapir prehensile trunk', 'lexical'))[0]?.file.id).toBe(tapir.id);
    await checkAtStart(next.app);
    await eventually(
      async () => (await next.files.search('tapir prehensile trunk', 'semantic'))[0]?.file.id === tapir.id,
      30_000,
      25,
      'the tapir embedded',
    );
    expect((await next.files.settled(tapir.id)).status).toBe('indexing_completed');
    expect((await next.files.search('okapi striped legs', 'semantic'))[0]?.file.id).toBe(okapi.id);
    expect(await modelOf(next.db)).toEqual({ model_id: 'hash-a', dimensions: 64 });
    // One job for each upload, one more for the tapir's embedding; then nothing is left to queue.
    expect((await indexJobFiles(next.db)).sort()).toEqual([okapi.id, tapir.id, tapir.id].sort());
    expect(await unembeddedPassages(next.db)).toBe(0);
    expect(await keeperSwitches(next.app, again)).toBe(false);
  }, 90_000);

  it('queues no embedding on an empty database, nor for files already embedded by the embedder', async () => {
    const embedder = new HashEmbedder('hash-a', 64);
    const t = await indexedApp({ embedder });
    // A start on an empty database: nothing to switch, nothing queued; the first file embedded sets the model.
    expect(await keeperSwitches(t.app, embedder)).toBe(false);
    expect(await indexJobFiles(t.db)).toEqual([]);
    expect(await modelOf(t.db)).toBeUndefined();
    expect(embedder.texts).toBe(0);

    const files = filesOf((o) => t.app.inject(o as never), t);
    const file = await files.upload(
      'quokka.md',
      '# Quokka\n\nThe quokka is a small wallaby that seems to smile.',
    );
    expect((await files.settled(file.id)).status).toBe('indexing_completed');
    await stop(t);

    const again = new HashEmbedder('hash-a', 64);
    const next = await restart(t, again);
    expect(await keeperSwitches(next.app, again)).toBe(false);
    // Once the check at start has ended (a tick waits for the one in flight, or runs it if it is still due), the
    // file stays as it was, its one job the upload's.
    await next.app.services.runner.tick();
    expect(await indexJobFiles(next.db)).toEqual([file.id]);
    expect((await next.files.get(file.id)).status).toBe('indexing_completed');
    expect(again.texts).toBe(0);
    expect((await next.files.search('quokka smile', 'semantic'))[0]?.file.id).toBe(file.id);
  }, 90_000);

  it('runs the shipped model at int8 on a new index and keeps an index of its fp32 vectors on fp32 (PARLEY_EMBEDDER_PRECISION=auto)', async () => {
    const t = await indexedApp({ embedder: null });
    await stop(t);
    /** Runs `fn` on a start of `t`'s data with `precision` (no background work, no model loaded). */
    const started = async <T>(
      precision: 'auto' | 'fp32' | 'int8',
      fn: (app: ParleyApp) => Promise<T>,
      embedder?: null,
    ): Promise<T> => {
      const db = await openDatabase({
        dataDir: t.dataDir,
        ...(databaseUrl && t.pgSchema ? { url: databaseUrl, pgSchema: t.pgSchema } : {}),
      });
      const config = {
        ...t.config,
        embedder: { ...t.config.embedder, kind: 'use-lite' as const, precision },
      };
      const app = await buildApp({
        config,
        db,
        logger: false,
        workers: false,
        ...(embedder === null ? { embedder } : {}),
      });
      try {
        await app.ready();
        return await fn(app);
      } finally {
        await app.close();
        await db.close();
      }
    };
    /** The id of the embedder a start with `precision` runs. */
    const startedWith = (precision: 'auto' | 'fp32' | 'int8') =>
      started(precision, async (app) => app.services.embedder?.id);
    const indexHolds = (id: string, dimensions: number) =>
      started('auto', (app) => app.services.index.setModel({ id, dimensions }), null);
    // An empty index: int8 unless fp32 is asked for.
    expect(t.config.embedder.precision).toBe('auto');
    expect(await startedWith('auto')).toBe(USE_LITE_INT8_ID);
    expect(await startedWith('fp32')).toBe(USE_LITE_ID);
    // An index of fp32 vectors (built before int8 was the default) stays fp32 unless int8 is asked for.
    await indexHolds(USE_LITE_ID, 512);
    expect(await startedWith('auto')).toBe(USE_LITE_ID);
    expect(await startedWith('int8')).toBe(USE_LITE_INT8_ID);
    // An index of int8 vectors, or of another model's (re-embedded anyway), runs int8.
    await indexHolds(USE_LITE_INT8_ID, 512);
    expect(await startedWith('auto')).toBe(USE_LITE_INT8_ID);
    await indexHolds('hash-a', 64);
    expect(await startedWith('auto')).toBe(USE_LITE_INT8_ID);
  }, 90_000);
});
