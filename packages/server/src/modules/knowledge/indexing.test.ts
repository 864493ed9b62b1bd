import { rm } from 'node:fs/promises';
import type { FileObject } from '@parley/protocol';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import type { LightMyRequestResponse } from 'fastify';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { createTestApp, type TestApp } from '../../../../testkit/src/server/harness.js';
import { hashVector } from '../../../../testkit/src/server/hash-vector.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import { eventually } from '../../../../testkit/src/shared/eventually.js';
import { buildApp } from '../../app.js';
import { openDatabase } from '../../db/database.js';
import { EmbedderError } from '../../search/embed/errors.js';
import type { Embedder } from '../../search/types.js';

/**
 * Indexing end to end (issue 6): the status machine of an `index: true` upload, progress, every format,
 * failures with reason codes, re-indexing, retries with backoff, the time bound, durability across a
 * restart, a re-upload during indexing, and setFilePassages / listFilePassages.
 */

// ---------------------------------------------------------------------------------------------------------
// Helpers

type Inject = (opts: {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
}) => Promise<LightMyRequestResponse>;

interface Passage {
  id: string;
  content: string;
  meta: { type: string; subtype: string; position: number; pageNumber?: number };
  breadcrumb: string[];
}

interface SearchHit {
  content: string;
  score: number;
  meta: { type: string; subtype?: string; position?: number; pageNumber?: number };
  file: { id: string; key: string };
}

/** A promise and the functions that settle it. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Polls `read` until `done` holds for its answer (or fails after `timeoutMs`). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  let value: T | undefined;
  await eventually(
    async () => {
      value = await read();
      return done(value);
    },
    timeoutMs,
    20,
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${JSON.stringify(value)}`);
  });
  return value as T;
}

/** A deterministic test embedder whose calls can be held, failed or hung from the test. */
class TestEmbedder implements Embedder {
  readonly id = 'test-hash-64';
  readonly dimensions = 64;
  calls = 0;
  /** Runs before each call (0-based call number); may wait, hang or throw. */
  before: ((call: number, signal?: AbortSignal) => Promise<void> | void) | undefined;

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const call = this.calls++;
    await this.before?.(call, signal);
    return texts.map((t) => hashVector(t));
  }

  reset(): void {
    this.calls = 0;
    this.before = undefined;
  }

  async close(): Promise<void> {}
}

/** Files API calls of one app as its bot. */
function filesApi(inject: Inject, botId: string, botKey: string) {
  const call = async (
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
    token = botKey,
  ) =>
    inject({
      method,
      url,
      headers: { 'x-bot-id': botId, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body !== undefined ? { payload: body } : {}),
    });

  async function upsert(key: string, size: number, extra: Record<string, unknown> = {}, token = botKey) {
    const res = await call('PUT', '/v1/files', { key, size, ...extra }, token);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { file: FileObject & { uploadUrl: string } }).file;
  }

  async function put(uploadUrl: string, bytes: Buffer): Promise<FileObject> {
    const u = new URL(uploadUrl);
    const res = await inject({
      method: 'PUT',
      url: `${u.pathname}${u.search}`,
      payload: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { file: FileObject }).file;
  }

  /** Upserts and uploads; answers the file as the upload answered it. */
  async function upload(key: string, content: Buffer | string, extra: Record<string, unknown> = {}) {
    const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const file = await upsert(key, bytes.length, { index: true, ...extra });
    return put(file.uploadUrl, bytes);
  }

  async function get(id: string): Promise<FileObject> {
    const res = await call('GET', `/v1/files/${encodeURIComponent(id)}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { file: FileObject }).file;
  }

  /** Waits until the file leaves indexing_pending. */
  const settled = (id: string) =>
    until(
      () => get(id),
      (f) => f.status !== 'indexing_pending',
    );

  async function passages(
    id: string,
    query = '',
  ): Promise<{ passages: Passage[]; meta: { nextToken?: string } }> {
    const res = await call('GET', `/v1/files/${id}/passages${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { passages: Passage[]; meta: { nextToken?: string } };
  }

  async function search(query: string, extra = ''): Promise<SearchHit[]> {
    const res = await call('GET', `/v1/files/search?query=${encodeURIComponent(query)}${extra}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { passages: SearchHit[] }).passages;
  }

  /** Downloads a file's content through the URL getFile hands out. */
  async function download(id: string): Promise<LightMyRequestResponse> {
    const u = new URL((await get(id)).url);
    return inject({ method: 'GET', url: `${u.pathname}${u.search}` });
  }

  return { call, upsert, put, upload, get, settled, passages, search, download };
}

const api = (t: TestApp) => filesApi((o) => t.app.inject(o as never), t.botId, t.botKey);

/** One step of a queue driven by the test: true once the file has left indexing_pending, else runs the job due. */
async function ranUntilSettled(t: TestApp, id: string, runOne: () => Promise<boolean>): Promise<boolean> {
  if ((await api(t).get(id)).status !== 'indexing_pending') return true;
  await runOne();
  return false;
}

/** The index_file jobs of an app, oldest first. */
const indexJobs = (t: TestApp) =>
  t.db.kysely.selectFrom('jobs').selectAll().where('kind', '=', 'index_file').orderBy('created_at').execute();

/** A Markdown document of `n` sections, each a heading and a paragraph naming its number. */
const sections = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `## Section ${i}\n\nParagraph number ${i} talks about item${i} and nothing else.\n`,
  ).join('\n');

/** A PDF of pages drawn with pdf-lib: a 24-pt heading and 12-pt lines on each. */
async function makePdf(pages: Array<{ heading: string; lines: string[] }>): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const spec of pages) {
    const page = doc.addPage([600, 800]);
    page.drawText(spec.heading, { x: 50, y: 740, size: 24, font });
    let y = 700;
    for (const line of spec.lines) {
      page.drawText(line, { x: 50, y, size: 12, font });
      y -= 14;
    }
  }
  return Buffer.from(await doc.save());
}

async function makeDocx(): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Leave policy', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Employees receive twenty-five days of sabbatical leave every year.'),
        ],
      },
    ],
  });
  return Buffer.from(await Packer.toBuffer(doc));
}

// ---------------------------------------------------------------------------------------------------------

describe('the indexing status machine and its progress', () => {
  const embedder = new TestEmbedder();
  const t = useTestApp({ workers: true, embedder });
  beforeEach(() => embedder.reset());

  it('moves an index:true upload from indexing_pending to indexing_completed, showing its progress while it runs', async () => {
    const f = api(t);
    const first = deferred();
    const second = deferred();
    embedder.before = (call) => (call === 0 ? first.promise : call === 1 ? second.promise : undefined);

    const upserted = await f.upsert('sections.md', Buffer.byteLength(sections(40)), { index: true });
    expect(upserted).toMatchObject({ status: 'upload_pending', index: true, size: null });
    expect(upserted).not.toHaveProperty('indexingProgress');
    const uploaded = await f.put(upserted.uploadUrl, Buffer.from(sections(40)));
    expect(uploaded).toMatchObject({
      status: 'indexing_pending',
      index: true,
      size: Buffer.byteLength(sections(40)),
    });

    // Held in its first embedder call: every passage counted, none embedded yet.
    const started = await until(
      () => f.get(uploaded.id),
      (file) => file.indexingProgress !== undefined,
    );
    expect(started.status).toBe('indexing_pending');
    const total = started.indexingProgress?.total as number;
    expect(total).toBeGreaterThan(32);
    expect(started.indexingProgress).toEqual({ done: 0, total });

    // The first batch (32 passages) done, held in the second.
    first.resolve();
    const halfway = await until(
      () => f.get(uploaded.id),
      (file) => (file.indexingProgress?.done ?? 0) > 0,
    );
    expect(halfway).toMatchObject({ status: 'indexing_pending', indexingProgress: { done: 32, total } });
    // Not searchable before it completes.
    expect(await f.search('item7')).toEqual([]);

    second.resolve();
    const done = await f.settled(uploaded.id);
    expect(done.status).toBe('indexing_completed');
    expect(done).not.toHaveProperty('indexingProgress');
    expect(done).not.toHaveProperty('failedStatusReason');
    const listed = await f.passages(uploaded.id, '?limit=200');
    expect(listed.passages).toHaveLength(total);
    const hits = await f.search('item7');
    expect(hits[0]?.content).toContain('Paragraph number 7 talks about item7');
    expect(hits[0]?.file).toMatchObject({ id: uploaded.id, key: 'sections.md' });
  });

  it('leaves a file uploaded without index:true upload_completed, with no job and no passages', async () => {
    const f = api(t);
    const file = await f.upload('plain.txt', 'A file nobody asked to index mentions quokkas.', {
      index: false,
    });
    expect(file).toMatchObject({ status: 'upload_completed', index: false });
    // No job was queued for it (an indexed upload queues its job before answering): nothing will index it.
    expect((await indexJobs(t)).filter((job) => JSON.stringify(job).includes(file.id))).toEqual([]);
    expect((await f.get(file.id)).status).toBe('upload_completed');
    expect((await f.passages(file.id)).passages).toEqual([]);
    expect(await f.search('quokkas', '&mode=lexical')).toEqual([]);
    expect(embedder.calls).toBe(0);
  });
});

describe('every format, end to end through an upload (lexical)', () => {
  const t = useTestApp({ workers: true });
  const ids: Record<string, string> = {};
  const final: Record<string, FileObject> = {};
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  const CORRUPT_PDF = Buffer.from(
    '%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nthis is not a real pdf body\n%%EOF',
  );

  beforeAll(async () => {
    const f = api(t);
    const documents: Record<string, Buffer | string> = {
      'report.pdf': await makePdf([
        { heading: 'Orchards', lines: ['Apples grow on trees in orchards.'] },
        { heading: 'Volcanoes', lines: ['Basalt forms when lava cools quickly.'] },
      ]),
      'handbook.docx': await makeDocx(),
      'ferries.html':
        '<!doctype html><html><head><title>Ferries</title><script>var hidden = "scriptword";</script></head>' +
        '<body><h1>Ferry timetable</h1><ul><li>Boats depart the pier at seven.</li><li>Tickets are sold onboard.</li></ul></body></html>',
      'cities.csv': 'city,population\nReykjavik,139000\nNuuk,19000\n',
      'install.md': '# Installing\n\nRun this once:\n\n```\nnpm install quasarpkg\n```\n',
      'terns.txt': 'Plain text about the migratory journeys of the arctic tern.\n',
      'catalogue.json': JSON.stringify({
        products: [
          { name: 'Teapot', colour: 'cobalt' },
          { name: 'Kettle', colour: 'amber' },
        ],
      }),
      'logo.png': PNG,
      'broken.pdf': CORRUPT_PDF,
    };
    for (const [key, content] of Object.entries(documents)) {
      const file = await f.upload(key, content);
      expect(file.status).toBe('indexing_pending');
      ids[key] = file.id;
    }
    for (const [key, id] of Object.entries(ids)) final[key] = await f.settled(id);
  });

  const passagesOf = async (key: string) =>
    (await api(t).passages(ids[key] as string, '?limit=200')).passages;

  it('indexes a PDF page by page and keeps each passage’s pageNumber, in listFilePassages and search', async () => {
    expect(final['report.pdf']).toMatchObject({
      status: 'indexing_completed',
      contentType: 'application/pdf',
    });
    const passages = await passagesOf('report.pdf');
    const apples = passages.find((p) => p.content.includes('Apples grow on trees'));
    const basalt = passages.find((p) => p.content.includes('Basalt forms when lava'));
    expect(apples?.meta).toMatchObject({ type: 'chunk', pageNumber: 1 });
    expect(basalt?.meta).toMatchObject({ type: 'chunk', pageNumber: 2 });
    const hits = await api(t).search('basalt lava');
    expect(hits[0]).toMatchObject({ file: { id: ids['report.pdf'] }, meta: { pageNumber: 2 } });
  });

  it('indexes a DOCX with its headings as titles and as the breadcrumb of the text under them', async () => {
    expect(final['handbook.docx']?.status).toBe('indexing_completed');
    const passages = await passagesOf('handbook.docx');
    expect(passages.find((p) => p.content === 'Leave policy')?.meta.subtype).toMatch(/^(title|subtitle)$/);
    const body = passages.find((p) => p.content.includes('sabbatical leave'));
    expect(body).toMatchObject({ meta: { subtype: 'paragraph' }, breadcrumb: ['Leave policy'] });
    const hits = await api(t).search('sabbatical', '&includeBreadcrumb=true');
    expect(hits[0]?.content).toMatch(/^Leave policy\n\nEmployees receive twenty-five days/);
  });

  it('indexes HTML as structure (its list items a list) and leaves scripts out', async () => {
    expect(final['ferries.html']?.status).toBe('indexing_completed');
    const passages = await passagesOf('ferries.html');
    const list = passages.find((p) => p.content.includes('Boats depart the pier at seven'));
    expect(list).toMatchObject({ meta: { subtype: 'list' }, breadcrumb: ['Ferry timetable'] });
    expect(passages.some((p) => p.content.includes('scriptword'))).toBe(false);
    expect(await api(t).search('scriptword')).toEqual([]);
    expect((await api(t).search('pier onboard'))[0]?.file.id).toBe(ids['ferries.html']);
  });

  it('indexes a CSV as a table with its header', async () => {
    expect(final['cities.csv']?.status).toBe('indexing_completed');
    const passages = await passagesOf('cities.csv');
    const table = passages.find((p) => p.content.includes('Reykjavik'));
    expect(table?.meta.subtype).toBe('table');
    expect(table?.content).toMatch(/city/);
    expect((await api(t).search('Nuuk'))[0]?.file.id).toBe(ids['cities.csv']);
  });

  it('indexes Markdown with its code blocks as code under their heading', async () => {
    expect(final['install.md']?.status).toBe('indexing_completed');
    const passages = await passagesOf('install.md');
    expect(passages.find((p) => p.content.includes('npm install quasarpkg'))).toMatchObject({
      meta: { subtype: 'code' },
      breadcrumb: ['Installing'],
    });
    expect((await api(t).search('quasarpkg'))[0]?.meta.subtype).toBe('code');
  });

  it('indexes plain text as paragraphs', async () => {
    expect(final['terns.txt']?.status).toBe('indexing_completed');
    const passages = await passagesOf('terns.txt');
    expect(passages).toEqual([
      expect.objectContaining({
        content: 'Plain text about the migratory journeys of the arctic tern.',
        meta: expect.objectContaining({ subtype: 'paragraph', position: 0 }),
      }),
    ]);
    expect((await api(t).search('migratory tern'))[0]?.file.id).toBe(ids['terns.txt']);
  });

  it("records a document's language: detected from its text, or its metadata's when it tells one", async () => {
    const f = api(t);
    const german = await f.upload(
      'rueckgabe.md',
      '# Rückgabe\n\nSie können jeden Artikel innerhalb von 30 Tagen nach der Lieferung zurückgeben und erhalten den vollen Kaufpreis zurück.\n',
    );
    const told = await f.upload(
      'avis.txt',
      'Plain English text about the migratory journeys of the arctic tern.\n',
      {
        metadata: { language: 'fr-CA' },
      },
    );
    expect((await f.settled(german.id)).language).toBe('de');
    expect((await f.settled(told.id)).language).toBe('fr');
    expect(final['terns.txt']?.language).toBe('en');
  });

  it('indexes JSON as one record per object of an array, values with their paths', async () => {
    expect(final['catalogue.json']?.status).toBe('indexing_completed');
    const passages = await passagesOf('catalogue.json');
    const teapot = passages.find((p) => p.content.includes('Teapot'));
    expect(teapot?.content).toMatch(/^products\[0\]\.name: Teapot$/m);
    expect(teapot?.content).toMatch(/^products\[0\]\.colour: cobalt$/m);
    expect((await api(t).search('amber'))[0]?.content).toMatch(/^products\[1\]\.colour: amber$/m);
  });

  it('ends an image it cannot index indexing_failed unsupported_format with a message, and keeps it downloadable', async () => {
    const png = final['logo.png'] as FileObject;
    expect(png).toMatchObject({
      status: 'indexing_failed',
      contentType: 'image/png',
      index: true,
      size: PNG.length,
    });
    expect(png.failedStatusReason).toMatch(/^unsupported_format: \S.{10,}/);
    expect(png).not.toHaveProperty('indexingProgress');
    const res = await api(t).download(png.id);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect((await api(t).passages(png.id)).passages).toEqual([]);
  });

  it('ends a corrupt PDF indexing_failed unreadable_document with a message, and keeps it downloadable', async () => {
    const pdf = final['broken.pdf'] as FileObject;
    expect(pdf).toMatchObject({ status: 'indexing_failed', contentType: 'application/pdf' });
    expect(pdf.failedStatusReason).toMatch(/^unreadable_document: \S.{10,}/);
    const res = await api(t).download(pdf.id);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(CORRUPT_PDF)).toBe(true);
  });

  it('re-indexes a failed file on request without a new upload (a corrupt PDF fails again, with its reason)', async () => {
    const f = api(t);
    const id = ids['broken.pdf'] as string;
    const before = await f.get(id);
    const res = await f.call('PUT', `/v1/files/${id}/index`);
    expect(res.statusCode, res.body).toBe(200);
    const file = (res.json() as { file: FileObject }).file;
    expect(file).toMatchObject({ id, status: 'indexing_pending', index: true, size: before.size });
    expect(file).not.toHaveProperty('failedStatusReason');
    const after = await f.settled(id);
    expect(after.status).toBe('indexing_failed');
    expect(after.failedStatusReason).toMatch(/^unreadable_document: /);
    expect(after.checksum).toBe(before.checksum);
  });
});

describe('retries with backoff, the time bound and re-indexing (the queue driven by the test)', () => {
  const embedder = new TestEmbedder();
  /** How far the app's clock runs ahead of real time: a test moves it to end a backoff instead of waiting it out. */
  let ahead = 0;
  const t = useTestApp({ embedder, clock: () => new Date(Date.now() + ahead) });
  beforeEach(() => embedder.reset());

  const runOne = (backoffBaseMs: number) =>
    t.app.services.jobs.runOne(t.app.services.jobHandlers, { backoffBaseMs });

  it('retries a transient embedder failure with backoff and then completes', async () => {
    const f = api(t);
    embedder.before = (call) => {
      if (call < 2)
        throw new EmbedderError('network_error', 'the embedding service is unreachable', { retryable: true });
    };
    const file = await f.upload('retry.md', '# Retry\n\nThe lighthouse keeper polishes the lens nightly.');
    expect(file.status).toBe('indexing_pending');

    // A backoff of 1-2 s after the first failure: long enough that the check below cannot outlast it on a busy
    // machine (200 ms did, in CI); the test then moves the app's clock past it instead of waiting.
    expect(await runOne(2000)).toBe(true);
    const [job] = await indexJobs(t);
    expect(job).toMatchObject({
      status: 'queued',
      attempts: 1,
      last_error: 'error: the embedding service is unreachable',
    });
    expect(Date.parse(job?.run_after as string)).toBeGreaterThan(Date.parse(job?.updated_at as string));
    // Still pending, with no failure reason, while it waits for its next attempt.
    const waiting = await f.get(file.id);
    expect(waiting.status).toBe('indexing_pending');
    expect(waiting).not.toHaveProperty('failedStatusReason');
    // The backoff is not over yet: nothing to claim.
    expect(await runOne(200)).toBe(false);
    ahead += 2000;

    // Runs the job each time its backoff ends, until the file leaves indexing_pending.
    await eventually(() => ranUntilSettled(t, file.id, () => runOne(200)), 30_000, 25, 'the file indexed');
    expect(await f.get(file.id)).toMatchObject({ status: 'indexing_completed' });
    expect(embedder.calls).toBe(3);
    expect((await indexJobs(t))[0]).toMatchObject({ status: 'done', attempts: 3, last_error: null });
    expect((await f.search('lighthouse lens'))[0]?.file.id).toBe(file.id);
  });

  it('ends indexing_failed after the last attempt while the embedder stays down, then re-indexes without a new upload once it is back', async () => {
    const f = api(t);
    let down = true;
    embedder.before = () => {
      if (down) throw new EmbedderError('network_error', 'connection refused', { retryable: true });
    };
    const file = await f.upload('down.md', '# Down\n\nThe narwhal tusk is a long tooth.');
    await eventually(() => ranUntilSettled(t, file.id, () => runOne(1)), 30_000, 5, 'the last attempt');
    const failed = await f.get(file.id);
    expect(failed).toMatchObject({ status: 'indexing_failed', index: true });
    expect(failed.failedStatusReason).toBe('error: connection refused');
    const jobs = await indexJobs(t);
    expect(jobs[jobs.length - 1]).toMatchObject({ status: 'failed', attempts: 5 });
    // While the embedder is down, hybrid search still answers from words alone; meaning-only search cannot.
    expect((await f.search('lighthouse'))[0]?.file.key).toBe('retry.md');
    expect(await f.search('narwhal')).toEqual([]);
    const semantic = expectError(
      await f.call('GET', '/v1/files/search?query=narwhal&mode=semantic'),
      500,
      'Internal',
    );
    expect(semantic.message).toMatch(/^Semantic search is unavailable: .*connection refused/);

    down = false;
    const res = await f.call('PUT', `/v1/files/${file.id}/index`);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { file: FileObject }).file).toMatchObject({
      status: 'indexing_pending',
      size: file.size,
    });
    expect((await indexJobs(t)).filter((j) => j.status === 'queued')).toHaveLength(1);
    expect(await runOne(1)).toBe(true);
    const done = await f.get(file.id);
    expect(done).toMatchObject({ status: 'indexing_completed', checksum: failed.checksum });
    expect(done).not.toHaveProperty('failedStatusReason');
    expect((await f.search('narwhal tusk'))[0]?.file.id).toBe(file.id);
  });

  it('re-indexes a completed file on request (a new job, the same passages)', async () => {
    const f = api(t);
    const file = await f.upload('again.txt', 'Capybaras are the largest rodents.');
    expect(await runOne(1)).toBe(true);
    const before = await f.passages(file.id);
    const res = await f.call('PUT', `/v1/files/${encodeURIComponent('again.txt')}/index`);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { file: FileObject }).file.status).toBe('indexing_pending');
    expect(await runOne(1)).toBe(true);
    expect((await f.get(file.id)).status).toBe('indexing_completed');
    expect((await f.passages(file.id)).passages.map((p) => p.content)).toEqual(
      before.passages.map((p) => p.content),
    );
  });

  it('marks a file not uploaded yet for indexing when asked to re-index it, and indexes it once uploaded', async () => {
    const f = api(t);
    const pending = await f.upsert('later.txt', 12, { index: false });
    const res = await f.call('PUT', `/v1/files/${pending.id}/index`);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { file: FileObject }).file).toMatchObject({
      status: 'upload_pending',
      index: true,
    });
    expect(await f.put(pending.uploadUrl, Buffer.from('Okapi facts.'))).toMatchObject({
      status: 'indexing_pending',
    });
    expect(await runOne(1)).toBe(true);
    expect((await f.get(pending.id)).status).toBe('indexing_completed');
  });

  it('refuses re-indexing to callers who may not change the file, and for unknown files', async () => {
    const f = api(t);
    const file = await f.upload('guarded.txt', 'Guarded content.');
    await runOne(1);
    const viewer = await t.addMember('viewer');
    const billing = await t.addMember('billing');
    const stranger = await t.otherTenant();
    expectError(await f.call('PUT', `/v1/files/${file.id}/index`, undefined, viewer.token), 403, 'Forbidden');
    expectError(
      await f.call('PUT', `/v1/files/${file.id}/index`, undefined, billing.token),
      403,
      'Forbidden',
    );
    expectError(
      await f.call('PUT', `/v1/files/${file.id}/index`, undefined, stranger.token),
      404,
      'ResourceNotFound',
    );
    expectError(await f.call('PUT', `/v1/files/${file.id}/index`, undefined, ''), 401, 'Unauthorized');
    expectError(await f.call('PUT', '/v1/files/file_unknown/index'), 404, 'ResourceNotFound');
    expect((await indexJobs(t)).filter((j) => j.status === 'queued')).toHaveLength(0);
    expect((await f.get(file.id)).status).toBe('indexing_completed');
  });
});

describe('the time bound of an indexing attempt', () => {
  const embedder = new TestEmbedder();
  const t = useTestApp({ embedder, env: { PARLEY_INDEXING_TIMEOUT_SECONDS: '1' } });
  beforeAll(async () => {
    // The document reader's worker loads once (slowly from TypeScript sources), outside the 1 s bound.
    await t.app.services.reader.ready();
  });

  it('ends a job whose embedder hangs (ignoring the abort) indexing_failed timeout, and re-indexing then completes', async () => {
    const f = api(t);
    let hang = true;
    // Never settles and never looks at the signal: only the queue's own time bound can end the attempt.
    embedder.before = () => (hang ? new Promise<void>(() => undefined) : undefined);
    const file = await f.upload('hang.md', '# Hang\n\nThe sloth moves slowly through the canopy.');
    await eventually(
      () =>
        ranUntilSettled(t, file.id, () =>
          t.app.services.jobs.runOne(t.app.services.jobHandlers, { backoffBaseMs: 1 }),
        ),
      30_000,
      5,
      'the attempt to time out',
    );
    const failed = await f.get(file.id);
    expect(failed.status).toBe('indexing_failed');
    // The queue's own 1 s bound ended the attempt (its words), once: a hang would leave the file indexing
    // until the test's own time.
    expect(failed.failedStatusReason).toBe('timeout: the attempt ran longer than 1000 ms');
    const jobs = await indexJobs(t);
    expect(jobs[0]).toMatchObject({ status: 'failed', attempts: 1 });

    hang = false;
    expect((await f.call('PUT', `/v1/files/${file.id}/index`)).statusCode).toBe(200);
    expect(await t.app.services.jobs.runOne(t.app.services.jobHandlers)).toBe(true);
    expect((await f.get(file.id)).status).toBe('indexing_completed');
    expect((await f.search('sloth canopy'))[0]?.file.id).toBe(file.id);
  }, 20_000);
});

describe('durability: indexing jobs survive a restart', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** Reopens the same data directory as a new process would, with workers. */
  async function restart(t: TestApp, embedder: Embedder | null) {
    const db = await openDatabase({ dataDir: t.dataDir });
    const app = await buildApp({ config: t.config, db, logger: false, workers: true, embedder });
    await app.ready();
    cleanups.push(() => rm(t.dataDir, { recursive: true, force: true }));
    cleanups.push(() => db.close());
    cleanups.push(() => app.close());
    return filesApi((o) => app.inject(o as never), t.botId, t.botKey);
  }

  it('completes, in the next process, a job queued by a process that stopped before running it', async () => {
    const t = await createTestApp();
    const file = await api(t).upload('queued.md', '# Queued\n\nThe axolotl regrows its limbs.');
    expect(file.status).toBe('indexing_pending');
    expect(await indexJobs(t)).toEqual([expect.objectContaining({ status: 'queued', attempts: 0 })]);
    await t.app.close();
    await t.db.close();

    const next = await restart(t, null);
    expect((await next.get(file.id)).status).toBe('indexing_pending');
    expect((await next.settled(file.id)).status).toBe('indexing_completed');
    expect((await next.search('axolotl'))[0]?.file.id).toBe(file.id);
  });

  it('gives back a job interrupted by a shutdown mid-run, and completes it after the restart', async () => {
    const held = new TestEmbedder();
    const embedding = deferred();
    // Waits until aborted, as a real embedder does when the worker stops.
    held.before = (_call, signal) =>
      new Promise<void>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        embedding.resolve();
      });
    const t = await createTestApp({ workers: true, embedder: held });
    const file = await api(t).upload('interrupted.md', '# Interrupted\n\nThe pangolin rolls into a ball.');
    await embedding.promise;
    expect(await indexJobs(t)).toEqual([expect.objectContaining({ status: 'running', attempts: 1 })]);
    await t.app.close();
    expect(await indexJobs(t)).toEqual([
      expect.objectContaining({ status: 'queued', attempts: 0, locked_by: null }),
    ]);
    await t.db.close();

    const next = await restart(t, new TestEmbedder());
    const done = await next.settled(file.id);
    expect(done.status).toBe('indexing_completed');
    expect((await next.search('pangolin'))[0]?.file.id).toBe(file.id);
  });
});

describe('a new upload while the previous one is being indexed', () => {
  const embedder = new TestEmbedder();
  const t = useTestApp({ workers: true, embedder });

  it('makes the old job do nothing and indexes the new content', async () => {
    const f = api(t);
    const gate = deferred();
    const embedding = deferred();
    embedder.before = (call) => {
      if (call !== 0) return undefined;
      embedding.resolve();
      return gate.promise;
    };
    const v1 = await f.upload('notes.md', '# Notes\n\nThe aardvark eats ants at night.');
    await embedding.promise;
    // One call's worth of passages: no progress is written, the file completes at once.
    expect(await f.get(v1.id)).not.toHaveProperty('indexingProgress');

    const content = Buffer.from('# Notes\n\nThe zebra grazes on the plains.');
    const replaced = await f.upsert('notes.md', content.length, { index: true });
    expect(replaced).toMatchObject({ id: v1.id, status: 'upload_pending' });
    expect(replaced).not.toHaveProperty('indexingProgress');
    const v2 = await f.put(replaced.uploadUrl, content);
    expect(v2.status).toBe('indexing_pending');

    gate.resolve();
    expect((await f.settled(v1.id)).status).toBe('indexing_completed');
    const contents = (await f.passages(v1.id)).passages.map((p) => p.content).join('\n');
    expect(contents).toContain('zebra grazes');
    expect(contents).not.toContain('aardvark');
    expect(await f.search('aardvark', '&mode=lexical')).toEqual([]);
    expect((await f.search('zebra plains'))[0]?.file.id).toBe(v1.id);
    expect((await indexJobs(t)).map((j) => j.status)).toEqual(['done', 'done']);
  });
});

describe('setFilePassages and listFilePassages', () => {
  const embedder = new TestEmbedder();
  const t = useTestApp({ workers: true, embedder });
  let fileId: string;
  const supplied = Array.from({ length: 205 }, (_, i) => ({
    content: `Supplied passage ${i} describes widget${i}.`,
    ...(i % 2 === 0 ? { meta: { subtype: 'list', pageNumber: Math.floor(i / 10) + 1 } } : {}),
  }));
  beforeAll(async () => {
    const file = await api(t).upload('own-chunks.txt', 'Content the caller chunks itself.', { index: false });
    expect(file.status).toBe('upload_completed');
    fileId = file.id;
  });

  it('replaces the passages with the caller’s own, embeds them in the background, and search finds them', async () => {
    const f = api(t);
    const res = await f.call('PUT', `/v1/files/${fileId}/passages`, { passages: supplied });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { file: FileObject }).file).toMatchObject({
      id: fileId,
      index: true,
      status: 'indexing_pending',
      indexingProgress: { done: 0, total: 205 },
    });
    expect((await f.settled(fileId)).status).toBe('indexing_completed');
    expect(embedder.calls).toBe(Math.ceil(205 / 32));

    const lexical = await f.search('widget123', '&mode=lexical');
    expect(lexical[0]).toMatchObject({
      content: 'Supplied passage 123 describes widget123.',
      file: { id: fileId },
    });
    // Embedded: meaning-only search finds it too.
    const semantic = await f.search('widget124', '&mode=semantic');
    expect(semantic[0]).toMatchObject({
      content: 'Supplied passage 124 describes widget124.',
      meta: { type: 'chunk', subtype: 'list', position: 124, pageNumber: 13 },
    });
  });

  it('lists the passages in order, 20 by default, at most 200 a page, following nextToken to the end', async () => {
    const f = api(t);
    const first = await f.passages(fileId);
    expect(first.passages).toHaveLength(20);
    expect(first.meta.nextToken).toEqual(expect.any(String));
    expect(first.passages[0]).toEqual({
      id: expect.any(String),
      content: 'Supplied passage 0 describes widget0.',
      meta: { type: 'chunk', subtype: 'list', position: 0, pageNumber: 1 },
      breadcrumb: [],
    });
    expect(first.passages[1]?.meta).toEqual({ type: 'chunk', subtype: 'paragraph', position: 1 });

    const big = await f.passages(fileId, '?limit=200');
    expect(big.passages.map((p) => p.meta.position)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const rest = await f.passages(fileId, `?limit=200&nextToken=${big.meta.nextToken}`);
    expect(rest.passages.map((p) => p.meta.position)).toEqual([200, 201, 202, 203, 204]);
    expect(rest.meta.nextToken).toBeUndefined();
  });

  it('refuses a page limit above 200 or below 1, and a nextToken it did not hand out, with 400', async () => {
    const f = api(t);
    const above = expectError(
      await f.call('GET', `/v1/files/${fileId}/passages?limit=201`),
      400,
      'InvalidQuery',
    );
    expect(above.message).toMatch(/limit must be <= 200/);
    expectError(await f.call('GET', `/v1/files/${fileId}/passages?limit=0`), 400, 'InvalidQuery');
    expectError(await f.call('GET', `/v1/files/${fileId}/passages?nextToken=garbage`), 400, 'InvalidQuery');
  });

  it('replaces earlier passages entirely on a second call', async () => {
    const f = api(t);
    const res = await f.call('PUT', `/v1/files/${fileId}/passages`, {
      passages: [{ content: 'Only this one remains about gizmos.' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await f.settled(fileId)).status).toBe('indexing_completed');
    expect((await f.passages(fileId)).passages.map((p) => p.content)).toEqual([
      'Only this one remains about gizmos.',
    ]);
    expect(await f.search('widget123', '&mode=lexical')).toEqual([]);
  });

  it('refuses passages for a file with no content yet, a bad body, an unknown file and callers who may not write', async () => {
    const f = api(t);
    const pending = await f.upsert('empty.txt', 5);
    expectError(
      await f.call('PUT', `/v1/files/${pending.id}/passages`, { passages: [{ content: 'x' }] }),
      400,
      'InvalidPayload',
    );
    expectError(await f.call('PUT', `/v1/files/${fileId}/passages`, {}), 400, 'InvalidPayload');
    expectError(
      await f.call('PUT', `/v1/files/${fileId}/passages`, { passages: [{ content: '' }] }),
      400,
      'InvalidPayload',
    );
    expectError(
      await f.call('PUT', `/v1/files/${fileId}/passages`, {
        passages: [{ content: 'x', meta: { pageNumber: 0 } }],
      }),
      400,
      'InvalidPayload',
    );
    expectError(
      await f.call('PUT', '/v1/files/file_unknown/passages', { passages: [{ content: 'x' }] }),
      404,
      'ResourceNotFound',
    );
    const viewer = await t.addMember('viewer');
    expectError(
      await f.call('PUT', `/v1/files/${fileId}/passages`, { passages: [{ content: 'x' }] }, viewer.token),
      403,
      'Forbidden',
    );
    expectError(
      await f.call('PUT', `/v1/files/${fileId}/passages`, { passages: [{ content: 'x' }] }, ''),
      401,
      'Unauthorized',
    );
    // The viewer may read them; nothing above changed them.
    const listed = await f.call('GET', `/v1/files/${fileId}/passages`, undefined, viewer.token);
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as { passages: Passage[] }).passages.map((p) => p.content)).toEqual([
      'Only this one remains about gizmos.',
    ]);
    expectError(await f.call('GET', '/v1/files/file_unknown/passages'), 404, 'ResourceNotFound');
  });

  it('keeps every one of more than 4096 supplied passages through the embed job', async () => {
    const f = api(t);
    const many = Array.from({ length: 4100 }, (_, i) => ({
      content: `Bulk passage ${i} names sprocket${i}.`,
    }));
    const res = await f.call('PUT', `/v1/files/${fileId}/passages`, { passages: many });
    expect(res.statusCode, res.body).toBe(200);
    expect((await f.settled(fileId)).status).toBe('indexing_completed');
    const last = await f.search('sprocket4099', '&mode=lexical');
    expect(last[0]?.content).toBe('Bulk passage 4099 names sprocket4099.');
    let count = 0;
    let token: string | undefined;
    do {
      const page = await f.passages(fileId, `?limit=200${token ? `&nextToken=${token}` : ''}`);
      count += page.passages.length;
      token = page.meta.nextToken;
    } while (token);
    expect(count).toBe(4100);
  });
});
