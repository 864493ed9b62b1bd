import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { FileObject } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, pathOf, store } from '../../../../testkit/src/server/files-api.js';
import { localS3 } from '../../../../testkit/src/server/files-s3.js';
import { useFixture, useTestApp } from '../../../../testkit/src/server/fixtures.js';
import type { TestApp } from '../../../../testkit/src/server/harness.js';

const HOUR = 3600_000;

async function heldBlobs(t: TestApp): Promise<string[]> {
  const rows = await t.db.kysely
    .selectFrom('files')
    .select('blob_key')
    .where('blob_key', 'is not', null)
    .execute();
  return rows.map((r) => r.blob_key as string).sort();
}

describe('the orphan blob sweep on local disk', () => {
  const t = useTestApp({ env: { PARLEY_UPLOAD_URL_TTL_SECONDS: '3600' } });
  let root: string;
  const onDisk = async (): Promise<string[]> => {
    const entries = await readdir(join(root, 'bots'), { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
      .sort();
  };
  /** A blob file written directly, as a crash or a lost race leaves one, dated `ageMs` ago. */
  const orphan = async (key: string, ageMs: number) => {
    const path = join(root, key);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, 'nobody holds these bytes');
    const at = new Date(Date.now() - ageMs);
    await utimes(path, at, at);
  };

  beforeAll(async () => {
    root = join(t.dataDir, 'blobs');
  });

  it('deletes a blob no record holds once older than the upload URL lifetime, and keeps a fresh one and every held blob', async () => {
    const kept = await store(t, 'kept.txt', Buffer.from('held by a record'));
    const replaced = await store(t, 'replaced.txt', Buffer.from('first'));
    // A pending re-upsert still holds (and serves) its old blob.
    const re = await api(t, 'PUT', '/v1/files', { key: 'replaced.txt', size: 3 });
    expect(re.statusCode).toBe(200);
    const held = await heldBlobs(t);
    expect(held).toHaveLength(2);
    // Held blobs look old too: age alone never condemns a blob.
    for (const key of held) {
      const at = new Date(Date.now() - 5 * HOUR);
      await utimes(join(root, key), at, at);
    }
    await orphan(`bots/${t.botId}/files/${kept.id}/old-orphan`, 2 * HOUR);
    await orphan(`bots/${t.botId}/files/copy/old-copy-orphan`, 2 * HOUR);
    await orphan(`bots/${t.botId}/files/${replaced.id}/fresh-orphan`, 60_000);

    expect(await t.app.services.files.sweepOrphans()).toBe(2);
    expect(await onDisk()).toEqual([...held, `bots/${t.botId}/files/${replaced.id}/fresh-orphan`].sort());
    // The held files still download.
    for (const key of ['kept.txt', 'replaced.txt']) {
      const got = await api(t, 'GET', `/v1/files/${key}`);
      const res = await t.app.inject({
        method: 'GET',
        url: pathOf((got.json() as { file: FileObject }).file.url),
      });
      expect(res.statusCode).toBe(200);
    }
    // With a shorter age, the fresh orphan goes too; held blobs never do.
    expect(await t.app.services.files.sweepOrphans(0)).toBe(1);
    expect(await onDisk()).toEqual(held);
  });
});

describe('the orphan blob sweep on S3 (s3rver)', () => {
  const s3 = useFixture(
    's3rver',
    () => localS3('parley-orphans'),
    (s) => s.close(),
  );
  const t = useTestApp(() => ({ blobs: s3.blobs }));
  const objects = () => s3.keys();

  it('lists the bucket through the port and deletes only the blobs no record holds', async () => {
    await store(t, 's3-kept.txt', Buffer.from('held'));
    const files = t.app.services.files;
    // Written straight into the bucket: bytes no record holds.
    const stray = `bots/${t.botId}/files/copy/stray`;
    await s3.admin.send(
      new PutObjectCommand({ Bucket: 'parley-orphans', Key: `parley/${stray}`, Body: 'x' }),
    );
    // Fresh: kept with the default age.
    expect(await files.sweepOrphans()).toBe(0);
    expect(await objects()).toContain(`parley/${stray}`);
    expect(await files.sweepOrphans(0)).toBe(1);
    expect(await objects()).toEqual((await heldBlobs(t)).map((k) => `parley/${k}`));
  });
});
