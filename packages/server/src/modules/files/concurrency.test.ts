import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileObject } from '@parley/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { createTestApp, postgresTestUrl, type TestApp } from '../../../../testkit/src/server/harness.js';
import { type SecondProcess, secondProcess } from '../../../../testkit/src/server/second-process.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import type { ParleyApp } from '../../app.js';

type Upserted = FileObject & { uploadUrl: string };

const url = postgresTestUrl();
const QUOTA = 1_000_000;
const SIZE = 400_000;

function pathOf(u: string): string {
  const parsed = new URL(u);
  return `${parsed.pathname}${parsed.search}`;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** A caller of the Files API on one app: token and bot. */
interface Caller {
  app: ParleyApp;
  token: string;
  botId: string;
}

function upsertOn(c: Caller, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return c.app.inject({
    method: 'PUT',
    url: '/v1/files',
    headers: { authorization: `Bearer ${c.token}`, 'x-bot-id': c.botId },
    payload: body,
  });
}

function getOn(c: Caller, idOrKey: string): Promise<LightMyRequestResponse> {
  return c.app.inject({
    method: 'GET',
    url: `/v1/files/${encodeURIComponent(idOrKey)}`,
    headers: { authorization: `Bearer ${c.token}`, 'x-bot-id': c.botId },
  });
}

function putBytes(app: ParleyApp, uploadUrl: string, bytes: Buffer): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'PUT',
    url: pathOf(uploadUrl),
    payload: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
}

/** Every blob under `<dataDir>/blobs/bots` (committed blobs only; temp files live in .tmp). */
async function blobKeys(dataDir: string): Promise<string[]> {
  const root = join(dataDir, 'blobs');
  try {
    const entries = await readdir(join(root, 'bots'), { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length + 1));
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Two app instances (each its own connection pool, as two processes would have) on one PostgreSQL schema
 * and one blob directory, with a workspace quota of 1,000,000 bytes.
 */
describe.skipIf(!url)('Files on PostgreSQL, two processes sharing one database', () => {
  let a: TestApp;
  let second: SecondProcess;
  let b: ParleyApp;
  let onA: Caller;
  let onB: Caller;

  beforeAll(async () => {
    a = await createTestApp({
      databaseUrl: url as string,
      // 100 uploads at once from this one address (the races under test): no cap per address.
      env: { PARLEY_QUOTA_FILE_STORAGE_BYTES: String(QUOTA), PARLEY_MAX_UPLOADS_PER_ADDRESS: '0' },
    });
    second = await secondProcess(a, url as string);
    b = second.app;
    onA = { app: a.app, token: a.botKey, botId: a.botId };
    onB = { app: b, token: a.botKey, botId: a.botId };
  });
  afterAll(async () => {
    await second?.close();
    await a?.close();
  });

  it('gives 50 pairs of concurrent upserts of one key distinct versions, and serves only the bytes of the record that names them', async () => {
    // Each key exists first (private), then writer A (private) and writer B (public_content) replace it at once.
    for (const i of range(50)) {
      const res = await upsertOn(onA, { key: `race/${i}.txt`, size: 1 });
      expect(res.statusCode, res.body).toBe(200);
    }
    const outcomes = await Promise.all(
      range(50).map(async (i) => {
        const key = `race/${i}.txt`;
        const privateBytes = Buffer.from(`private bytes of writer A, pair ${i}`);
        const publicBytes = Buffer.from(`public  bytes of writer B, pair ${i}`); // same length
        const [ra, rb] = await Promise.all([
          upsertOn(onA, { key, size: privateBytes.length, accessPolicies: [] }),
          upsertOn(onB, { key, size: publicBytes.length, accessPolicies: ['public_content'] }),
        ]);
        expect(ra.statusCode, ra.body).toBe(200);
        expect(rb.statusCode, rb.body).toBe(200);
        const fa = (ra.json() as { file: Upserted }).file;
        const fb = (rb.json() as { file: Upserted }).file;
        const [ua, ub] = await Promise.all([
          putBytes(a.app, fa.uploadUrl, privateBytes),
          putBytes(b, fb.uploadUrl, publicBytes),
        ]);
        const final = (await getOn(onA, key)).json() as { file: FileObject };
        const content = await a.app.inject({ method: 'GET', url: pathOf(final.file.url) });
        const viaPublicUrl = await b.inject({ method: 'GET', url: pathOf(fb.url) });
        const isPublic = final.file.accessPolicies.includes('public_content');
        return {
          sameVersion:
            new URL(fa.uploadUrl).searchParams.get('v') === new URL(fb.uploadUrl).searchParams.get('v'),
          uploads: [ua.statusCode, ub.statusCode].sort().join(','),
          // The bytes served are those of the upsert the record holds: B's when it is public, else A's.
          servesOwnBytes: content.rawPayload.equals(isPublic ? publicBytes : privateBytes),
          privateLeaked: viaPublicUrl.statusCode === 200 && viaPublicUrl.rawPayload.equals(privateBytes),
        };
      }),
    );
    expect({
      sameVersion: outcomes.filter((o) => o.sameVersion).length,
      privateLeaked: outcomes.filter((o) => o.privateLeaked).length,
      wrongBytes: outcomes.filter((o) => !o.servesOwnBytes).length,
      // One upload is for the newer version and commits; the other's URL was replaced: 410.
      notOneWinner: outcomes.filter((o) => o.uploads !== '200,410').length,
    }).toEqual({ sameVersion: 0, privateLeaked: 0, wrongBytes: 0, notOneWinner: 0 });
  }, 60_000);

  it('answers both concurrent creators of a new key: one creates it, the other replaces it, neither fails', async () => {
    const results = await Promise.all(
      range(20).flatMap((i) => [
        upsertOn(onA, { key: `fresh/${i}.txt`, size: 3 }),
        upsertOn(onB, { key: `fresh/${i}.txt`, size: 4 }),
      ]),
    );
    expect(results.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
    const files = results.map((r) => (r.json() as { file: Upserted }).file);
    for (const i of range(20)) {
      const [first, second] = [files[2 * i], files[2 * i + 1]] as [Upserted, Upserted];
      expect(first.id).toBe(second.id);
      expect(new URL(first.uploadUrl).searchParams.get('v')).not.toBe(
        new URL(second.uploadUrl).searchParams.get('v'),
      );
    }
  });

  it('accepts at most floor(quota / size) of 20 parallel 400 KB upserts over two processes, the rest 403 QuotaExceeded', async () => {
    const other = await a.otherTenant();
    const callers = [
      { app: a.app, token: other.token, botId: other.botId },
      { app: b, token: other.token, botId: other.botId },
    ];
    const results = await Promise.all(
      range(20).map((i) => upsertOn(callers[i % 2] as Caller, { key: `quota/${i}.bin`, size: SIZE })),
    );
    const accepted = results.filter((r) => r.statusCode === 200);
    expect(accepted).toHaveLength(Math.floor(QUOTA / SIZE));
    for (const r of results.filter((x) => x.statusCode !== 200)) expectError(r, 403, 'QuotaExceeded');
    const stored = await a.db.kysely
      .selectFrom('files')
      .select((eb) => eb.fn.sum<number>('declared_size').as('n'))
      .where('workspace_id', '=', other.workspaceId)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBeLessThanOrEqual(QUOTA);
    // Uploading the accepted ones stores them; nothing more fits.
    for (const r of accepted) {
      const file = (r.json() as { file: Upserted }).file;
      const up = await putBytes(a.app, file.uploadUrl, Buffer.alloc(SIZE, 7));
      expect(up.statusCode, up.body).toBe(200);
    }
    expectError(
      await upsertOn(callers[1] as Caller, { key: 'quota/late.bin', size: SIZE }),
      403,
      'QuotaExceeded',
    );
  }, 60_000);

  it('leaves no blob without a record when copies overwrite one destination at once from both processes', async () => {
    const source = Buffer.from('content copied many times over');
    const up = await upsertOn(onA, { key: 'copy/source.txt', size: source.length });
    const file = (up.json() as { file: Upserted }).file;
    expect((await putBytes(a.app, file.uploadUrl, source)).statusCode).toBe(200);
    const copies = await Promise.all(
      range(20).map((i) =>
        (i % 2 ? b : a.app).inject({
          method: 'POST',
          url: `/v1/files/${file.id}/${encodeURIComponent('copy/destination.txt')}`,
          headers: { authorization: `Bearer ${a.botKey}`, 'x-bot-id': a.botId },
          payload: { overwrite: true },
        }),
      ),
    );
    expect(copies.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
    await a.app.services.files.collectGarbage(1000);
    const referenced = new Set(
      (
        await a.db.kysely
          .selectFrom('files')
          .select('blob_key')
          .where('bot_id', '=', a.botId)
          .where('blob_key', 'is not', null)
          .execute()
      ).map((r) => r.blob_key),
    );
    const onDisk = (await blobKeys(a.dataDir)).filter((k) => k.includes('/files/copy/'));
    expect(onDisk.filter((k) => !referenced.has(k))).toEqual([]);
    expect(onDisk).toHaveLength(1);
    const copy = (await getOn(onB, 'copy/destination.txt')).json() as { file: FileObject };
    expect((await b.inject({ method: 'GET', url: pathOf(copy.file.url) })).rawPayload.equals(source)).toBe(
      true,
    );
  }, 60_000);
});

describe('Files quota on SQLite under concurrent upserts', () => {
  const t = useTestApp({ env: { PARLEY_QUOTA_FILE_STORAGE_BYTES: String(QUOTA) } });

  it('accepts at most floor(quota / size) of 20 parallel 400 KB upserts, the rest 403 QuotaExceeded', async () => {
    const caller = { app: t.app, token: t.botKey, botId: t.botId };
    const results = await Promise.all(
      range(20).map((i) => upsertOn(caller, { key: `q/${i}.bin`, size: SIZE })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(Math.floor(QUOTA / SIZE));
    for (const r of results.filter((x) => x.statusCode !== 200)) expectError(r, 403, 'QuotaExceeded');
  });
});
