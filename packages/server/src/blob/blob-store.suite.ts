import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BlobEntry,
  BlobNotFoundError,
  type BlobStore,
  BlobTooLargeError,
  UnsafeKeyError,
} from './blob-store.js';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function listed(store: BlobStore, prefix: string): Promise<BlobEntry[]> {
  const out: BlobEntry[] = [];
  for await (const entry of store.list(prefix)) out.push(entry);
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function chunked(data: Buffer, size: number): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
    })(),
  );
}

/** A body that yields `first`, then fails as a dropped connection does (`connection dropped`). */
function droppedAfter(first: string): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.from(first);
      throw new Error('connection dropped');
    })(),
  );
}

/** The behaviour every blob store adapter must have; run against each one. */
export function runBlobStoreSuite(
  name: string,
  make: () => Promise<{ store: BlobStore; close: () => Promise<void> }>,
) {
  describe(`blob store suite: ${name}`, () => {
    let store: BlobStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await make());
    });
    afterAll(async () => close());
    const key = (k: string) => `contract/${Math.random().toString(36).slice(2)}/${k}`;

    it('stores streamed bytes and reads them back with their size and sha256', async () => {
      const data = randomBytes(300_000);
      const k = key('a.bin');
      const written = await store.put(k, chunked(data, 65_536), { maxBytes: 1_000_000 });
      expect(written).toEqual({ size: data.length, sha256: createHash('sha256').update(data).digest('hex') });
      expect(await store.stat(k)).toEqual({ size: data.length });
      expect((await readAll(await store.get(k))).equals(data)).toBe(true);
    });

    it('stores an empty blob', async () => {
      const k = key('empty');
      const written = await store.put(k, Readable.from([]), { maxBytes: 10 });
      expect(written.size).toBe(0);
      expect(written.sha256).toBe(createHash('sha256').digest('hex'));
      expect((await readAll(await store.get(k))).length).toBe(0);
    });

    it('reads an inclusive byte range', async () => {
      const data = Buffer.from('0123456789abcdef');
      const k = key('range');
      await store.put(k, Readable.from([data]), { maxBytes: 100 });
      expect((await readAll(await store.get(k, { start: 3, end: 7 }))).toString()).toBe('34567');
      expect((await readAll(await store.get(k, { start: 15, end: 15 }))).toString()).toBe('f');
    });

    it('refuses more bytes than allowed and keeps nothing', async () => {
      const k = key('big');
      await expect(
        store.put(k, chunked(randomBytes(50_000), 10_000), { maxBytes: 20_000 }),
      ).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(await store.stat(k)).toBeUndefined();
    });

    it('keeps the previous content when a replacing write fails midway', async () => {
      const k = key('keep');
      await store.put(k, Readable.from([Buffer.from('old content')]), { maxBytes: 100 });
      const failing = droppedAfter('new ');
      await expect(store.put(k, failing, { maxBytes: 100 })).rejects.toThrow('connection dropped');
      expect((await readAll(await store.get(k))).toString()).toBe('old content');
    });

    it('stops when the signal aborts and keeps nothing', async () => {
      const k = key('aborted');
      const controller = new AbortController();
      const source = Readable.from(
        (async function* () {
          yield Buffer.from('part one');
          controller.abort(new Error('client went away'));
          yield Buffer.from('part two');
        })(),
      );
      await expect(store.put(k, source, { maxBytes: 100, signal: controller.signal })).rejects.toThrow();
      expect(await store.stat(k)).toBeUndefined();
    });

    it('copies a blob to another key', async () => {
      const a = key('src');
      const b = key('dst');
      await store.put(a, Readable.from([Buffer.from('copy me')]), { maxBytes: 100 });
      await store.copy(a, b);
      expect((await readAll(await store.get(b))).toString()).toBe('copy me');
      await store.delete(a);
      expect((await readAll(await store.get(b))).toString()).toBe('copy me');
    });

    it('answers BlobNotFoundError for a missing blob, undefined stat, and deletes idempotently', async () => {
      const k = key('missing');
      await expect(store.get(k)).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(store.copy(k, key('x'))).rejects.toBeInstanceOf(BlobNotFoundError);
      expect(await store.stat(k)).toBeUndefined();
      await store.delete(k);
      await store.put(k, Readable.from([Buffer.from('x')]), { maxBytes: 10 });
      await store.delete(k);
      expect(await store.stat(k)).toBeUndefined();
    });

    it('lists the blobs under a prefix with their size and time, and nothing else', async () => {
      const root = key('listing');
      const before = Date.now();
      await store.put(`${root}/a.bin`, Readable.from([Buffer.from('aaa')]), { maxBytes: 10 });
      await store.put(`${root}/ab/nested.bin`, Readable.from([Buffer.from('nested')]), { maxBytes: 10 });
      await store.put(`${root}/b.bin`, Readable.from([Buffer.from('')]), { maxBytes: 10 });
      await store.put(`${root}-sibling/c.bin`, Readable.from([Buffer.from('c')]), { maxBytes: 10 });
      const all = await listed(store, `${root}/`);
      expect(all.map((e) => [e.key, e.size])).toEqual([
        [`${root}/a.bin`, 3],
        [`${root}/ab/nested.bin`, 6],
        [`${root}/b.bin`, 0],
      ]);
      for (const entry of all) {
        expect(entry.lastModified).toBeInstanceOf(Date);
        // Store clocks may round to the second.
        expect(entry.lastModified.getTime()).toBeGreaterThanOrEqual(before - 2000);
        expect(entry.lastModified.getTime()).toBeLessThanOrEqual(Date.now() + 2000);
      }
      // A prefix ending inside a name matches like a string prefix, as S3 does.
      expect((await listed(store, `${root}/a`)).map((e) => e.key)).toEqual([
        `${root}/a.bin`,
        `${root}/ab/nested.bin`,
      ]);
      expect((await listed(store, root)).map((e) => e.key)).toContain(`${root}-sibling/c.bin`);
      await store.delete(`${root}/a.bin`);
      expect((await listed(store, `${root}/`)).map((e) => e.key)).toEqual([
        `${root}/ab/nested.bin`,
        `${root}/b.bin`,
      ]);
      expect(await listed(store, key('nothing-here/'))).toEqual([]);
    });

    it('lists every blob with an empty prefix, but no unfinished write', async () => {
      const k = key('everything.bin');
      await store.put(k, Readable.from([Buffer.from('x')]), { maxBytes: 10 });
      const failing = droppedAfter('half');
      const unfinished = key('unfinished.bin');
      await expect(store.put(unfinished, failing, { maxBytes: 100 })).rejects.toThrow('connection dropped');
      const keys = (await listed(store, '')).map((e) => e.key);
      expect(keys).toContain(k);
      expect(keys).not.toContain(unfinished);
      expect(keys.every((x) => x.startsWith('contract/'))).toBe(true);
    });

    it('refuses unsafe listing prefixes', async () => {
      for (const bad of ['/abs', '../up', 'a/../b/', 'a//', 'nul\0byte/', 'back\\slash']) {
        await expect(listed(store, bad)).rejects.toBeInstanceOf(UnsafeKeyError);
      }
    });

    it('rejects unsafe keys', async () => {
      for (const bad of ['', '/abs', '../up', 'a/../../b', 'a//b', 'nul\0byte', 'back\\slash', 'a/./b']) {
        await expect(store.put(bad, Readable.from([]), { maxBytes: 1 })).rejects.toBeInstanceOf(
          UnsafeKeyError,
        );
        await expect(store.get(bad)).rejects.toBeInstanceOf(UnsafeKeyError);
      }
    });

    it('writes large blobs in many parts without holding them whole', async () => {
      const part = randomBytes(1024 * 1024);
      const total = 12;
      const hash = createHash('sha256');
      for (let i = 0; i < total; i++) hash.update(part);
      const k = key('large');
      const written = await store.put(
        k,
        Readable.from(
          (function* () {
            for (let i = 0; i < total; i++) yield part;
          })(),
        ),
        { maxBytes: total * part.length },
      );
      expect(written).toEqual({ size: total * part.length, sha256: hash.digest('hex') });
      expect(await store.stat(k)).toEqual({ size: total * part.length });
    }, 60_000);
  });
}
