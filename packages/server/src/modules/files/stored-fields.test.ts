import type { FileObject } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, pathOf, putBytes, upsert } from '../../../../testkit/src/server/files-api.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { badFields, expectError } from '../../../../testkit/src/server/wire.js';
import { ApiError } from '../../errors/errors.js';
import { MAX_JSON_FIELD_BYTES, MAX_JSON_FIELD_DEPTH, TRUNCATED_MARKER } from './json-field.js';
import type { FilesContext } from './service.js';

/** An object `levels` levels deep (itself level 1): {a: {a: … {}}}. */
function nested(levels: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let at = root;
  for (let i = 1; i < levels; i++) {
    const next: Record<string, unknown> = {};
    at.a = next;
    at = next;
  }
  return root;
}

/** How many levels of objects `value` has. */
function depthOf(value: unknown): number {
  let depth = 0;
  let at: unknown = value;
  while (at !== null && typeof at === 'object') {
    depth += 1;
    at = (at as Record<string, unknown>).a;
  }
  return depth;
}

describe('free-form JSON fields and media types of the Files API', () => {
  const t = useTestApp();
  let ctx: FilesContext;

  /** The error a service call throws. */
  const thrown = async (work: Promise<unknown>): Promise<ApiError> => {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  };
  const fieldsOf = (error: ApiError) =>
    ((error.metadata as { errors?: Array<{ field: string }> } | undefined)?.errors ?? []).map((e) => e.field);

  beforeAll(async () => {
    ctx = { actor: { kind: 'bot', botId: t.botId }, botId: t.botId, workspaceId: t.workspaceId };
  });

  describe('metadata and indexing.configuration', () => {
    it(`refuses metadata nested deeper than ${MAX_JSON_FIELD_DEPTH} levels with 400 InvalidPayload naming metadata, and stores nothing`, async () => {
      // 40 levels: well within the 64 levels every JSON body may have, so this is the field's own bound.
      const error = expectError(
        await api(t, 'PUT', '/v1/files', { key: 'deep.json', size: 1, metadata: nested(40) }),
        400,
        'InvalidPayload',
      );
      expect(badFields(error)).toEqual(['metadata']);
      expect(error.metadata?.errors?.[0]?.message).toContain(`at most ${MAX_JSON_FIELD_DEPTH} levels`);
      expect(error.message).toContain('metadata');
      expectError(await api(t, 'GET', '/v1/files/deep.json'), 404, 'ResourceNotFound');
    });

    it(`accepts metadata exactly ${MAX_JSON_FIELD_DEPTH} levels deep and answers it whole`, async () => {
      const file = await upsert(t, {
        key: 'just-deep-enough.json',
        size: 1,
        metadata: nested(MAX_JSON_FIELD_DEPTH),
      });
      expect(depthOf(file.metadata)).toBe(MAX_JSON_FIELD_DEPTH);
    });

    it('refuses metadata over 64 KB as JSON with 400 naming metadata, and accepts 64 KB', async () => {
      // {"v":"…"} is 8 bytes plus the string.
      const fits = { v: 'x'.repeat(MAX_JSON_FIELD_BYTES - 8) };
      await upsert(t, { key: 'big-enough.json', size: 1, metadata: fits });
      const error = expectError(
        await api(t, 'PUT', '/v1/files', {
          key: 'too-big.json',
          size: 1,
          metadata: { v: 'x'.repeat(MAX_JSON_FIELD_BYTES) },
        }),
        400,
        'InvalidPayload',
      );
      expect(badFields(error)).toEqual(['metadata']);
      expect(error.metadata?.errors?.[0]?.message).toContain(`at most ${MAX_JSON_FIELD_BYTES} bytes`);
      expectError(await api(t, 'GET', '/v1/files/too-big.json'), 404, 'ResourceNotFound');
    });

    it('refuses the same on updateFileMetadata, counting the merged metadata, and changes nothing', async () => {
      const file = await upsert(t, {
        key: 'update-me.json',
        size: 1,
        metadata: { half: 'x'.repeat(40_000) },
      });
      const deep = await api(t, 'PUT', `/v1/files/${file.id}`, { metadata: { more: nested(40) } });
      expect(badFields(expectError(deep, 400, 'InvalidPayload'))).toEqual(['metadata']);
      const big = await api(t, 'PUT', `/v1/files/${file.id}`, { metadata: { other: 'y'.repeat(40_000) } });
      expect(badFields(expectError(big, 400, 'InvalidPayload'))).toEqual(['metadata']);
      const after = (await api(t, 'GET', `/v1/files/${file.id}`)).json() as { file: FileObject };
      expect(Object.keys(after.file.metadata)).toEqual(['half']);
      // Replacing the large key instead fits.
      const replaced = await api(t, 'PUT', `/v1/files/${file.id}`, {
        metadata: { half: null, other: 'y'.repeat(40_000) },
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
    });

    it('refuses indexing.configuration nested too deep, naming it', async () => {
      const res = await api(t, 'PUT', '/v1/files', {
        key: 'deep-config.txt',
        size: 1,
        indexing: { configuration: nested(40) },
      });
      expect(badFields(expectError(res, 400, 'InvalidPayload'))).toEqual(['indexing.configuration']);
    });

    it('refuses metadata 4,100 levels deep at the service itself, whatever the HTTP layer let through', async () => {
      const error = await thrown(
        t.app.services.files.upsert(ctx, { key: 'service-deep.json', size: 1, metadata: nested(4100) }),
      );
      expect(error.type).toBe('InvalidPayload');
      expect(fieldsOf(error)).toEqual(['metadata']);
      const file = await upsert(t, { key: 'service-update.json', size: 1 });
      const onUpdate = await thrown(
        t.app.services.files.update(ctx, file.id, { metadata: { a: nested(4100) } }),
      );
      expect(fieldsOf(onUpdate)).toEqual(['metadata']);
      expectError(await api(t, 'GET', '/v1/files/service-deep.json'), 404, 'ResourceNotFound');
    });

    it('keeps answering the listing, the file and search summaries when a stored metadata is too deep or unreadable', async () => {
      // Stored before the bound existed (or by another way in): 4,100 levels, and text that is not JSON.
      const deep = await upsert(t, { key: 'stored-deep.json', size: 1 });
      const broken = await upsert(t, { key: 'stored-broken.json', size: 1 });
      await t.db.kysely
        .updateTable('files')
        .set({ metadata: JSON.stringify({ keep: 1, a: nested(4100) }) })
        .where('id', '=', deep.id)
        .execute();
      await t.db.kysely
        .updateTable('files')
        .set({ metadata: '{"not json' })
        .where('id', '=', broken.id)
        .execute();

      const list = await api(t, 'GET', '/v1/files?pageSize=100');
      expect(list.statusCode, list.body).toBe(200);
      const files = (list.json() as { files: FileObject[] }).files;
      const listed = files.find((f) => f.id === deep.id);
      expect(listed?.metadata.keep).toBe(1);
      // Answered cut at the bound: the deeper part is replaced by a marker.
      expect(depthOf(listed?.metadata)).toBe(MAX_JSON_FIELD_DEPTH);
      expect(JSON.stringify(listed?.metadata)).toContain(TRUNCATED_MARKER);
      expect(files.find((f) => f.id === broken.id)?.metadata).toEqual({});
      expect((await api(t, 'GET', `/v1/files/${deep.id}`)).statusCode).toBe(200);
      expect((await api(t, 'GET', `/v1/files/${broken.id}`)).statusCode).toBe(200);
      const summaries = await t.app.services.files.summaries([deep.id, broken.id]);
      expect(depthOf(summaries.get(deep.id)?.metadata)).toBe(MAX_JSON_FIELD_DEPTH);
      expect(summaries.get(broken.id)?.metadata).toEqual({});
    });
  });

  describe('contentType', () => {
    const hostile = ['text/plain\r\nX-Injected: 1', 'text/plain\u0000', 'text/plain; name=€'];

    it('refuses a contentType with CR LF, NUL or non-ASCII with 400 InvalidPayload naming contentType, and stores nothing', async () => {
      for (const [i, contentType] of hostile.entries()) {
        const res = await api(t, 'PUT', '/v1/files', { key: `hostile-${i}.txt`, size: 1, contentType });
        const error = expectError(res, 400, 'InvalidPayload');
        expect(badFields(error)).toEqual(['contentType']);
        expectError(await api(t, 'GET', `/v1/files/hostile-${i}.txt`), 404, 'ResourceNotFound');
      }
    });

    it('refuses it at the service too (the Chat API files uploads through it)', async () => {
      for (const contentType of hostile) {
        const error = await thrown(
          t.app.services.files.upsert(ctx, { key: 'svc.txt', size: 1, contentType }),
        );
        expect(fieldsOf(error)).toEqual(['contentType']);
      }
    });

    it('accepts media types with parameters, tokens or quoted strings, and serves them as given', async () => {
      // Text that names no charset is served with charset=utf-8 added, its bytes ('ok') being UTF-8.
      for (const [contentType, served] of [
        ['text/plain; charset=utf-8', 'text/plain; charset=utf-8'],
        ['text/csv;header=present', 'text/csv;header=present; charset=utf-8'],
        [
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        ],
        [
          'text/plain; title="Q3 \\"final\\" report"',
          'text/plain; title="Q3 \\"final\\" report"; charset=utf-8',
        ],
      ] as const) {
        const file = await upsert(t, { key: `ok-${contentType.length}.txt`, size: 2, contentType });
        expect(file.contentType).toBe(contentType);
        const up = await putBytes(t, file.uploadUrl, Buffer.from('ok'));
        expect(up.statusCode, up.body).toBe(200);
        const res = await t.app.inject({
          method: 'GET',
          url: pathOf((up.json() as { file: FileObject }).file.url),
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe(served);
      }
    });

    it('downloads a file whose stored media type cannot be a header (stored before the check) as application/octet-stream', async () => {
      const file = await upsert(t, { key: 'legacy-type.txt', size: 4, contentType: 'text/plain' });
      const up = await putBytes(t, file.uploadUrl, Buffer.from('data'));
      expect(up.statusCode).toBe(200);
      await t.db.kysely
        .updateTable('files')
        .set({ content_type: hostile[0] as string, blob_content_type: hostile[0] as string })
        .where('id', '=', file.id)
        .execute();
      const url = ((await api(t, 'GET', `/v1/files/${file.id}`)).json() as { file: FileObject }).file.url;
      const res = await t.app.inject({ method: 'GET', url: pathOf(url) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['x-injected']).toBeUndefined();
      expect(res.rawPayload.toString()).toBe('data');
    });
  });
});
