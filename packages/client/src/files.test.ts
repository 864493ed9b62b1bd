import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FileObject } from '@parley/protocol';
import type { ListFilesResponse } from '@parley/protocol/operations/io/files';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { failure, type Parley, startParley } from '../../testkit/src/client/servers.js';
import type { Client } from './client.js';
import {
  AlreadyExistsError,
  InvalidPayloadError,
  isApiError,
  QuotaExceededError,
  ResourceNotFoundError,
  UnauthorizedError,
} from './errors.js';
import { AbortError, IndexingFailedError, TimeoutError, UploadSizeMismatchError } from './local-errors.js';
import type { UploadProgress } from './transfer.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('the client against the real server: Files API', () => {
  let p: Parley;
  let client: Client;
  let dir: string;
  const QUOTA = 100 * 1024 * 1024;

  beforeAll(async () => {
    p = await startParley({ env: { PARLEY_QUOTA_FILE_STORAGE_BYTES: String(QUOTA) } });
    client = p.client({ botId: p.botId });
    dir = await mkdtemp(join(tmpdir(), 'parley-client-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await p.close();
  });

  it('upserts a file, PUTs nothing yet, and gets it by id and by a key with slashes', async () => {
    const { file } = await client.upsertFile({ key: 'drafts/plan.txt', size: 5, tags: { team: 'ops' } });
    expect(file).toMatchObject({ key: 'drafts/plan.txt', status: 'upload_pending', size: null });
    expect(file.uploadUrl).toContain(`${p.apiUrl}/v1/files/${file.id}/upload?`);
    expect((await client.getFile({ id: file.id })).file.id).toBe(file.id);
    expect((await client.getFile({ id: 'drafts/plan.txt' })).file.id).toBe(file.id);
    await client.deleteFile({ id: file.id });
  });

  it('uploads content (a string, bytes, a Blob) and answers the final file', async () => {
    const text = await client.uploadFile({ key: 'notes/hello.txt', content: 'Hello, Parley!' });
    expectTypeOf(text).toEqualTypeOf<FileObject>();
    expect(text).toMatchObject({
      key: 'notes/hello.txt',
      status: 'upload_completed',
      size: 14,
      contentType: 'text/plain',
      checksum: sha256(Buffer.from('Hello, Parley!')),
    });
    const bytes = new Uint8Array([0, 1, 2, 3, 254, 255]);
    const bin = await client.uploadFile({ key: 'bin/six.bin', content: bytes, tags: { kind: 'bin' } });
    expect(bin).toMatchObject({ size: 6, tags: { kind: 'bin' }, contentType: 'application/octet-stream' });
    expect(new Uint8Array(await readAll((await client.downloadFile(bin.id)).stream))).toEqual(bytes);

    const blob = await client.uploadFile({
      key: 'blob/page',
      content: new Blob(['<p>hi</p>'], { type: 'text/html' }),
    });
    expect(blob).toMatchObject({ size: 9, contentType: 'text/html' });
    const download = await client.downloadFile({ id: 'blob/page' });
    expect(download).toMatchObject({ size: 9, contentType: 'text/html; charset=utf-8' });
    expect((await readAll(download.stream)).toString()).toBe('<p>hi</p>');

    const part = await client.downloadFile(bin.id, { range: { start: 2, end: 4 } });
    expect(part).toMatchObject({ size: 3, range: { start: 2, end: 4, total: 6 } });
    expect(new Uint8Array(await readAll(part.stream))).toEqual(new Uint8Array([2, 3, 254]));
    const tail = await client.downloadFile(bin.id, { range: { start: 4 } });
    expect(tail.range).toEqual({ start: 4, end: 5, total: 6 });
    expect(new Uint8Array(await readAll(tail.stream))).toEqual(new Uint8Array([254, 255]));
    const past = await failure(client.downloadFile(bin.id, { range: { start: 6 } }));
    expect(isApiError(past)).toBe(true);
    expect((past as { code?: number }).code).toBe(416);
    await expect(client.downloadFile(bin.id, { range: { start: 3, end: 1 } })).rejects.toBeInstanceOf(
      RangeError,
    );

    const empty = await client.uploadFile({ key: 'empty.txt', content: '' });
    expect(empty).toMatchObject({ size: 0, status: 'upload_completed' });
    expect((await readAll((await client.downloadFile('empty.txt')).stream)).length).toBe(0);
  });

  it('uploads a 20 MB file from a path, streamed with monotonic progress, and downloads the same bytes', async () => {
    const bytes = randomBytes(20 * 1024 * 1024);
    const file = join(dir, 'big.bin');
    await writeFile(file, bytes);
    const progress: UploadProgress[] = [];
    const uploaded = await client.uploadFile({
      key: 'big/big.bin',
      path: file,
      tags: { size: 'big' },
      onProgress: (p) => progress.push(p),
    });
    expect(uploaded).toMatchObject({
      size: bytes.length,
      status: 'upload_completed',
      checksum: sha256(bytes),
    });
    // Counted chunk by chunk as the stream went out (256 KiB reads: 80 of them), never as one body.
    expect(progress.length).toBeGreaterThan(40);
    expect(progress[0]).toEqual({ loaded: 0, total: bytes.length });
    expect(progress.at(-1)).toEqual({ loaded: bytes.length, total: bytes.length });
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]?.loaded).toBeGreaterThanOrEqual(progress[i - 1]?.loaded ?? 0);
      expect(progress[i]?.total).toBe(bytes.length);
    }

    const download = await client.downloadFile(uploaded.id);
    expect(download.size).toBe(bytes.length);
    expect(download.file.id).toBe(uploaded.id);
    expect(sha256(await readAll(download.stream))).toBe(sha256(bytes));
  });

  it('uploads from a Node Readable and from a web ReadableStream of known size', async () => {
    const parts = ['one ', 'two ', 'three'];
    const node = await client.uploadFile({
      key: 'streams/node.txt',
      stream: Readable.from(parts.map((s) => Buffer.from(s))),
      size: 13,
    });
    expect(node).toMatchObject({ size: 13, status: 'upload_completed' });
    const web = await client.uploadFile({
      key: 'streams/web.txt',
      stream: new ReadableStream<Uint8Array>({
        start(controller) {
          for (const s of parts) controller.enqueue(new TextEncoder().encode(s));
          controller.close();
        },
      }),
      size: 13,
    });
    expect(web.checksum).toBe(node.checksum);
    expect((await readAll((await client.downloadFile(web.id)).stream)).toString()).toBe('one two three');

    // A stream shorter or longer than its size: the client stops the upload and says so; nothing is kept.
    const short = await failure(
      client.uploadFile({ key: 'streams/short.txt', stream: Readable.from([Buffer.from('abc')]), size: 10 }),
    );
    expect(short).toBeInstanceOf(UploadSizeMismatchError);
    expect(short).toMatchObject({ expected: 10, actual: 3 });
    const long = await failure(
      client.uploadFile({ key: 'streams/long.txt', stream: Readable.from([Buffer.alloc(11)]), size: 10 }),
    );
    expect(long).toMatchObject({ name: 'UploadSizeMismatchError', expected: 10, actual: 11 });
    for (const key of ['streams/short.txt', 'streams/long.txt']) {
      const { file } = await client.getFile({ id: key });
      expect(file).toMatchObject({ status: 'upload_pending', size: null });
    }
  });

  it('checks the source before any request', async () => {
    await expect(
      client.uploadFile({ key: 'x', stream: Readable.from([]), size: -1 } as never),
    ).rejects.toThrow(TypeError);
    await expect(client.uploadFile({ key: 'x', content: 'a', path: '/a' } as never)).rejects.toThrow(
      /exactly one of content, path or stream/,
    );
    await expect(client.uploadFile({ key: 'x', path: join(dir, 'missing') })).rejects.toMatchObject({
      code: 'ENOENT',
    });
    await expect(client.getFile({ id: 'x' })).rejects.toBeInstanceOf(ResourceNotFoundError);
  });

  it('aborts an upload in flight with AbortError', async () => {
    const controller = new AbortController();
    const slow = async function* () {
      yield Buffer.alloc(1024);
      controller.abort(); // between two chunks of the body
      yield Buffer.alloc(1024);
    };
    const e = await failure(
      client.uploadFile({ key: 'aborted.bin', stream: slow(), size: 2048 }, { signal: controller.signal }),
    );
    expect(e).toBeInstanceOf(AbortError);
  });

  it('updates metadata (null removes a tag), copies on the same bot and to another bot, and deletes', async () => {
    const src = await client.uploadFile({
      key: 'copy/source.txt',
      content: 'copy me',
      tags: { team: 'sales', stage: 'draft' },
      metadata: { author: 'ana' },
    });
    const { file: updated } = await client.updateFileMetadata({
      id: src.id,
      tags: { stage: null, reviewed: 'yes' },
      metadata: { author: 'bo' },
    });
    expect(updated.tags).toEqual({ team: 'sales', reviewed: 'yes' });
    expect(updated.metadata).toEqual({ author: 'bo' });

    const { file: copy } = await client.copyFile({ id: src.id, destinationKey: 'copy/dest/copy.txt' });
    expect(copy).toMatchObject({ key: 'copy/dest/copy.txt', botId: p.botId, checksum: src.checksum });
    const again = await failure(client.copyFile({ id: src.id, destinationKey: 'copy/dest/copy.txt' }));
    expect(again).toBeInstanceOf(AlreadyExistsError);
    const { file: over } = await client.copyFile({
      id: 'copy/source.txt',
      destinationKey: 'copy/dest/copy.txt',
      overwrite: true,
    });
    expect(over.key).toBe('copy/dest/copy.txt');

    const { bot } = await client.createBot({ name: 'copy target' });
    const { file: elsewhere } = await client.copyFile({
      id: src.id,
      destinationKey: 'from-main.txt',
      destinationBotId: bot.id,
    });
    expect(elsewhere.botId).toBe(bot.id);
    const there = await client.getFile({ id: 'from-main.txt' }, { botId: bot.id });
    expect(there.file.checksum).toBe(src.checksum);
    expect(
      (await readAll((await client.downloadFile('from-main.txt', { botId: bot.id })).stream)).toString(),
    ).toBe('copy me');

    expect(await client.deleteFile({ id: copy.id })).toEqual({});
    expect(await failure(client.getFile({ id: copy.id }))).toBeInstanceOf(ResourceNotFoundError);
  });

  it('pages through files with await and for await, and filters by tags, ids and indexed', async () => {
    const tagged: string[] = [];
    for (let i = 0; i < 12; i++) {
      const f = await client.uploadFile({
        key: `paging/${String(i).padStart(2, '0')}.txt`,
        content: `file ${i}`,
        tags: { paging: 'yes', parity: i % 2 ? 'odd' : 'even' },
      });
      tagged.push(f.id);
    }
    const first = await client.listFiles({ pageSize: 5, tags: { paging: 'yes' } });
    expectTypeOf(first).toEqualTypeOf<ListFilesResponse>();
    expect(first.files).toHaveLength(5);
    expect(first.meta.nextToken).toEqual(expect.any(String));
    const second = await client.listFiles({
      pageSize: 5,
      tags: { paging: 'yes' },
      nextToken: first.meta.nextToken,
    });
    expect(second.files.map((f) => f.id)).not.toContain(first.files[0]?.id);

    const all: string[] = [];
    const pages: number[] = [];
    for await (const page of client.listFiles({ pageSize: 5, tags: { paging: 'yes' } }).pages()) {
      pages.push(page.files.length);
    }
    for await (const f of client.list.files({ pageSize: 5, tags: { paging: 'yes' } })) all.push(f.id);
    expect(pages).toEqual([5, 5, 2]);
    expect(all.sort()).toEqual([...tagged].sort());

    const odd = await client.listFiles({ tags: { paging: 'yes', parity: 'odd' } }).collect();
    expect(odd).toHaveLength(6);
    const notOdd = await client.listFiles({ tags: { paging: 'yes', parity: { not: 'odd' } } }).collect();
    expect(notOdd.every((f) => f.tags.parity === 'even')).toBe(true);
    expect(notOdd).toHaveLength(6);
    const either = await client.listFiles({ tags: { parity: ['odd', 'even'] } }).collect();
    expect(either).toHaveLength(12);
    const two = await client.listFiles({ ids: tagged.slice(0, 2) });
    expect(two.files.map((f) => f.id).sort()).toEqual(tagged.slice(0, 2).sort());
    const one = await client.listFiles({ ids: [tagged[0] ?? ''] });
    expect(one.files.map((f) => f.id)).toEqual([tagged[0]]);
    const byKey = await client.listFiles({ sortField: 'key', sortDirection: 'asc', tags: { paging: 'yes' } });
    expect(byKey.files[0]?.key).toBe('paging/00.txt');
    expect((await client.listFiles({ indexed: true }).collect()).every((f) => f.index)).toBe(true);
  });

  it('searches keys (keyContains) and filters by status, one state or several', async () => {
    await client.uploadFile({ key: 'search/Alpha-Report.txt', content: 'a' });
    await client.uploadFile({ key: 'search/beta.txt', content: 'b' });
    await client.upsertFile({ key: 'search/alpha-waiting.txt', size: 4 });
    const alpha = await client.listFiles({ keyContains: 'ALPHA', sortField: 'key', sortDirection: 'asc' });
    expect(alpha.files.map((f) => f.key)).toEqual(['search/Alpha-Report.txt', 'search/alpha-waiting.txt']);
    const waiting = await client.listFiles({ keyContains: 'search/', status: ['upload_pending'] });
    expect(waiting.files.map((f) => f.key)).toEqual(['search/alpha-waiting.txt']);
    const either = await client
      .listFiles({ keyContains: 'search/', status: ['upload_pending', 'upload_completed'] })
      .collect();
    expect(either).toHaveLength(3);
  });

  it('lists tag keys and the values of a tag, paged', async () => {
    await client.uploadFile({ key: 'tags/a.txt', content: 'a', tags: { colour: 'red', shape: 'round' } });
    await client.uploadFile({ key: 'tags/b.txt', content: 'b', tags: { colour: 'blue' } });
    const keys = await client.list.fileTags().collect();
    expect(keys).toEqual(expect.arrayContaining(['colour', 'shape']));
    const page = await client.listFileTags({ pageSize: 1 });
    expect(page.tags).toHaveLength(1);
    expect(page.meta.nextToken).toEqual(expect.any(String));
    const values = await client.listFileTagValues({ tag: 'colour' }).collect();
    expect(values.sort()).toEqual(['blue', 'red']);
  });

  it('times out waiting for indexing when no worker indexes (TimeoutError), and rejects a file not set to index', async () => {
    const file = await client.uploadFile({ key: 'wait/pending.txt', content: 'some words', index: true });
    expect(file.status).toBe('indexing_pending');
    const seen: string[] = [];
    const e = await failure(
      client.waitForIndexing(file.id, {
        timeoutMs: 300,
        intervalMs: 50,
        onProgress: (f) => seen.push(f.status),
      }),
    );
    expect(e).toBeInstanceOf(TimeoutError);
    expect((e as TimeoutError).timeoutMs).toBe(300);
    expect(isApiError(e)).toBe(false);
    expect(seen.length).toBeGreaterThan(1);
    expect(new Set(seen)).toEqual(new Set(['indexing_pending']));

    const plain = await client.uploadFile({ key: 'wait/plain.txt', content: 'not indexed' });
    const notIndexed = await failure(client.waitForIndexing(plain.id));
    expect(notIndexed).toBeInstanceOf(IndexingFailedError);
    expect(notIndexed).toMatchObject({ status: 'upload_completed', failedStatusReason: undefined });

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const aborted = await failure(client.waitForIndexing(file.id, { signal: controller.signal }));
    expect(aborted).toBeInstanceOf(AbortError);
  });

  it('provokes the error classes: 401, 403 QuotaExceeded, 400 InvalidPayload, 404', async () => {
    const unauthorized = await failure(client.with({ token: 'pat_nope' }).listFiles());
    expect(unauthorized).toBeInstanceOf(UnauthorizedError);
    expect(unauthorized).toMatchObject({ status: 401, type: 'Unauthorized', isApiError: true });

    const quota = await failure(client.upsertFile({ key: 'huge.bin', size: QUOTA + 1 }));
    expect(quota).toBeInstanceOf(QuotaExceededError);
    expect(quota).toMatchObject({ status: 403, type: 'QuotaExceeded' });
    const quotaUpload = await failure(
      client.uploadFile({ key: 'huge.bin', stream: Readable.from([]), size: QUOTA + 1 }),
    );
    expect(quotaUpload).toBeInstanceOf(QuotaExceededError);

    const long = await failure(client.searchFiles({ query: 'x'.repeat(2048) }));
    expect(long).toBeInstanceOf(InvalidPayloadError);
    expect((long as InvalidPayloadError).metadata?.errors).toEqual([
      expect.objectContaining({ field: 'query' }),
    ]);

    const missing = await failure(client.downloadFile('no/such/file.txt'));
    expect(missing).toBeInstanceOf(ResourceNotFoundError);
    expect(await failure(client.deleteFile({ id: 'file_nope' }))).toBeInstanceOf(ResourceNotFoundError);
    expect(await failure(client.getKnowledgeBase({ id: 'kb_nope' }))).toBeInstanceOf(ResourceNotFoundError);
  });
});

describe('the client against the real server: indexing, search and knowledge bases', () => {
  let p: Parley;
  let client: Client;
  let guide: FileObject;

  beforeAll(async () => {
    p = await startParley({ workers: true });
    client = p.client({ botId: p.botId });
    guide = await client.uploadFile({
      key: 'kb/guide.md',
      content: [
        '# Platypus care',
        '',
        'The platypus eats freshwater shrimp and insect larvae at dusk.',
        '',
        '## Housing',
        '',
        'A burrow by a slow river keeps the platypus cool in summer.',
      ].join('\n'),
      index: true,
      tags: { topic: 'animals' },
    });
  }, 60_000);
  afterAll(() => p.close());

  it('waits for indexing to complete, telling progress', async () => {
    const statuses: string[] = [];
    const done = await client.waitForIndexing(guide.id, {
      intervalMs: 50,
      timeoutMs: 30_000,
      onProgress: (f) => statuses.push(f.status),
    });
    expect(done).toMatchObject({ id: guide.id, status: 'indexing_completed' });
    expect(statuses.at(-1)).toBe('indexing_completed');
  });

  it('searches the uploaded passages, filtered by tags', async () => {
    await client.waitForIndexing(guide.id, { intervalMs: 50 });
    const { passages } = await client.searchFiles({ query: 'what does the platypus eat', limit: 5 });
    expect(passages.length).toBeGreaterThan(0);
    expect(passages[0]).toMatchObject({ file: { id: guide.id, key: 'kb/guide.md' } });
    expect(passages[0]?.content).toContain('shrimp');
    const lexical = await client.searchFiles({
      query: 'burrow river',
      mode: 'lexical',
      tags: { topic: 'animals' },
    });
    expect(lexical.passages[0]?.content).toContain('burrow');
    const none = await client.searchFiles({ query: 'platypus', tags: { topic: 'cooking' } });
    expect(none.passages).toEqual([]);
  });

  it('lists passages page by page, replaces them, and re-indexes', async () => {
    await client.waitForIndexing(guide.id, { intervalMs: 50 });
    const all = await client.list.filePassages({ id: guide.id, limit: 1 }).collect();
    expect(all.length).toBeGreaterThan(1);
    const first = await client.listFilePassages({ id: guide.id, limit: 1 });
    expect(first.passages).toHaveLength(1);
    expect(first.meta.nextToken).toEqual(expect.any(String));

    const own = await client.uploadFile({ key: 'kb/own.txt', content: 'placeholder' });
    const { file } = await client.setFilePassages({
      id: own.id,
      passages: [{ content: 'Wombats dig long tunnels.' }, { content: 'Koalas sleep all day.' }],
    });
    expect(file.id).toBe(own.id);
    const done = await client.waitForIndexing(own.id, { intervalMs: 50, timeoutMs: 30_000 });
    expect(done.status).toBe('indexing_completed');
    const passages = await client.listFilePassages({ id: own.id });
    expect(passages.passages.map((x) => x.content)).toEqual([
      'Wombats dig long tunnels.',
      'Koalas sleep all day.',
    ]);

    const { file: again } = await client.reindexFile({ id: 'kb/own.txt' });
    expect(again).toMatchObject({ index: true, status: 'indexing_pending' });
    expect((await client.waitForIndexing(own.id, { intervalMs: 50, timeoutMs: 30_000 })).status).toBe(
      'indexing_completed',
    );
  });

  it('rejects with IndexingFailedError and its reason when the file cannot be read', async () => {
    const pdf = await client.uploadFile({
      key: 'kb/broken.pdf',
      content: '%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nthis is not a real pdf body\n%%EOF',
      index: true,
    });
    const e = await failure(client.waitForIndexing(pdf.id, { intervalMs: 50, timeoutMs: 30_000 }));
    expect(e).toBeInstanceOf(IndexingFailedError);
    const failed = e as IndexingFailedError;
    expect(failed.status).toBe('indexing_failed');
    expect(failed.failedStatusReason).toMatch(/^unreadable_document: /);
    expect(failed.file.id).toBe(pdf.id);
    expect(failed.message).toContain('unreadable_document');
  });

  it('creates, lists, updates, links, searches within and deletes knowledge bases', async () => {
    const { knowledgeBase: kb } = await client.createKnowledgeBase({ name: 'Animals', tags: { lang: 'en' } });
    expect(kb).toMatchObject({ name: 'Animals', botId: p.botId, files: { total: 0 } });
    const { knowledgeBase: other } = await client.createKnowledgeBase({ name: 'Empty' });
    expect((await client.getKnowledgeBase({ id: kb.id })).knowledgeBase.name).toBe('Animals');
    const { knowledgeBase: renamed } = await client.updateKnowledgeBase({ id: kb.id, name: 'Fauna' });
    expect(renamed.name).toBe('Fauna');

    const page = await client.listKnowledgeBases({ pageSize: 1 });
    expect(page.knowledgeBases).toHaveLength(1);
    const ids = (await client.list.knowledgeBases({ pageSize: 1 }).collect()).map((k) => k.id);
    expect(ids.sort()).toEqual([kb.id, other.id].sort());

    await client.waitForIndexing(guide.id, { intervalMs: 50 });
    const { knowledgeBase: linked } = await client.linkKnowledgeBaseFile({
      id: kb.id,
      fileId: 'kb/guide.md',
    });
    expect(linked.files).toMatchObject({ total: 1, indexed: 1 });
    const { files } = await client.listKnowledgeBaseFiles({ id: kb.id });
    expect(files).toEqual([expect.objectContaining({ fileId: guide.id, key: 'kb/guide.md' })]);

    const inKb = await client.searchFiles({ query: 'platypus', knowledgeBaseIds: [kb.id] });
    expect(inKb.passages.length).toBeGreaterThan(0);
    expect(inKb.passages.every((x) => x.file.id === guide.id)).toBe(true);
    const inEmpty = await client.searchFiles({ query: 'platypus', knowledgeBaseIds: [other.id, other.id] });
    expect(inEmpty.passages).toEqual([]);

    const { knowledgeBase: unlinked } = await client.unlinkKnowledgeBaseFile({ id: kb.id, fileId: guide.id });
    expect(unlinked.files.total).toBe(0);
    expect(await client.deleteKnowledgeBase({ id: kb.id })).toEqual({});
    expect(await failure(client.getKnowledgeBase({ id: kb.id }))).toBeInstanceOf(ResourceNotFoundError);
  });
});
