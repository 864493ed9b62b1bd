// The public service's own npm client (@botpress/client) pointed at Parley: the Files API operations,
// uploadFile (upsert + PUT to the uploadUrl), an Admin API call with a personal access token, and its
// error classes. Parley must be wire-compatible enough that this unmodified client works.
import { createHash, randomBytes } from 'node:crypto';
import {
  Client,
  InvalidPayloadError,
  isApiError,
  PayloadTooLargeError,
  ResourceNotFoundError,
} from '@botpress/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFirstRun } from '../packages/testkit/src/e2e/server.js';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

async function download(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('@botpress/client against Parley', () => {
  const run = useFirstRun({ env: { PARLEY_RATE_LIMIT_MAX: '0' } });
  let client: Client;

  beforeAll(() => {
    const { server, boot } = run;
    client = new Client({ apiUrl: server.url, token: boot.botAccessKey, botId: boot.botId, timeout: 10_000 });
  });

  it('upsertFile answers a pending file with an uploadUrl', async () => {
    const { file } = await client.upsertFile({
      key: 'bp/upserted.txt',
      size: 5,
      tags: { kind: 'upserted' },
      metadata: { origin: 'botpress-client' },
    });
    expect(file).toMatchObject({
      key: 'bp/upserted.txt',
      botId: run.boot.botId,
      size: null,
      contentType: 'text/plain',
      status: 'upload_pending',
      tags: { kind: 'upserted' },
      metadata: { origin: 'botpress-client' },
      accessPolicies: [],
      index: false,
      owner: { type: 'bot', id: run.boot.botId },
    });
    expect(file.id).toMatch(/^file_/);
    expect(file.uploadUrl).toMatch(new RegExp(`^${run.server.url}/`));
  });

  it('uploadFile sends text content; getFile and the url give the same bytes back', async () => {
    const { file } = await client.uploadFile({
      key: 'bp/hello.txt',
      content: 'hello from the botpress client',
      tags: { source: 'test' },
    });
    expect(file).toMatchObject({ key: 'bp/hello.txt', size: 30 });
    const { file: got } = await client.getFile({ id: file.id });
    expect(got).toMatchObject({
      id: file.id,
      status: 'upload_completed',
      size: 30,
      tags: { source: 'test' },
    });
    expect((await download(got.url)).toString()).toBe('hello from the botpress client');
    // getFile takes a key too.
    expect((await client.getFile({ id: 'bp/hello.txt' })).file.id).toBe(file.id);
  });

  it('uploadFile sends binary content (a Buffer) byte for byte', async () => {
    const content = randomBytes(8 * 1024 * 1024 + 3);
    const { file } = await client.uploadFile({ key: 'bp/blob.bin', content, metadata: { n: 1 } });
    const { file: got } = await client.getFile({ id: file.id });
    expect(got).toMatchObject({
      status: 'upload_completed',
      size: content.length,
      contentType: 'application/octet-stream',
      metadata: { n: 1 },
    });
    expect(sha256(await download(got.url))).toBe(sha256(content));
  });

  it('uploadFile of a public file (publicContentImmediatelyAccessible) gives a permanent url', async () => {
    const { file } = await client.uploadFile({
      key: 'bp/public.txt',
      content: 'public bytes',
      accessPolicies: ['public_content'],
      publicContentImmediatelyAccessible: true,
    });
    const first = (await client.getFile({ id: file.id })).file;
    const second = (await client.getFile({ id: file.id })).file;
    expect(first.accessPolicies).toEqual(['public_content']);
    expect(second.url).toBe(first.url);
    expect((await download(first.url)).toString()).toBe('public bytes');
  });

  it('listFiles filters by tags and sorts; list.files() walks every page', async () => {
    const { files, meta } = await client.listFiles({ tags: { source: 'test' } });
    expect(files.map((f) => f.key)).toEqual(['bp/hello.txt']);
    expect(meta.nextToken).toBeUndefined();

    const byKey = await client.listFiles({ sortField: 'key', sortDirection: 'asc' });
    const keys = byKey.files.map((f) => f.key);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toEqual(expect.arrayContaining(['bp/blob.bin', 'bp/hello.txt', 'bp/upserted.txt']));

    const all = await client.list.files({ pageSize: 1 }).collect();
    expect(all.map((f) => f.key).sort()).toEqual([...keys].sort());

    const tagged = await client.listFiles({ tags: { kind: ['upserted', 'other'] } });
    expect(tagged.files.map((f) => f.key)).toEqual(['bp/upserted.txt']);
    expect((await client.listFileTags({})).tags).toEqual(expect.arrayContaining(['kind', 'source']));
    expect((await client.listFileTagValues({ tag: 'source' })).values).toEqual(['test']);
  });

  it('updateFileMetadata merges metadata and sets tags', async () => {
    const { file } = await client.getFile({ id: 'bp/blob.bin' });
    const { file: updated } = await client.updateFileMetadata({
      id: file.id,
      metadata: { extra: 'yes' },
      tags: { stage: 'reviewed' },
    });
    expect(updated.metadata).toEqual({ n: 1, extra: 'yes' });
    expect(updated.tags).toMatchObject({ stage: 'reviewed' });
    expect((await client.getFile({ id: file.id })).file.tags).toMatchObject({ stage: 'reviewed' });
  });

  it('copyFile copies the content under a new key', async () => {
    const { file } = await client.copyFile({ idOrKey: 'bp/hello.txt', destinationKey: 'bp/hello-copy.txt' });
    expect(file).toMatchObject({ key: 'bp/hello-copy.txt', status: 'upload_completed', size: 30 });
    expect((await download(file.url)).toString()).toBe('hello from the botpress client');
  });

  it('deleteFile removes the file; getFile of it is then a ResourceNotFoundError', async () => {
    const { file } = await client.getFile({ id: 'bp/hello-copy.txt' });
    expect(await client.deleteFile({ id: file.id })).toEqual({});
    const thrown = await client.getFile({ id: file.id }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(ResourceNotFoundError);
    expect(isApiError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: 404, type: 'ResourceNotFound' });
    expect((thrown as ResourceNotFoundError).id).toMatch(/\S/);
    expect((thrown as ResourceNotFoundError).id).not.toBe('UNKNOWN');
  });

  it('getFile of an id that never existed is a ResourceNotFoundError with the API message', async () => {
    const error = await client.getFile({ id: 'file_01NOSUCHFILE000000000000' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect(isApiError(error)).toBe(true);
    expect((error as Error).message).toMatch(/file_01NOSUCHFILE000000000000/);
  });

  it('maps validation and size errors to the client classes InvalidPayloadError and PayloadTooLargeError', async () => {
    const invalid = await client.upsertFile({ key: 'bp/bad.bin', size: -1 }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(InvalidPayloadError);
    expect(invalid).toMatchObject({ code: 400, type: 'InvalidPayload' });
    const huge = await client
      .upsertFile({ key: 'bp/huge.bin', size: 2 * 1024 ** 3 })
      .catch((e: unknown) => e);
    expect(huge).toBeInstanceOf(PayloadTooLargeError);
    expect(huge).toMatchObject({ code: 413, type: 'PayloadTooLarge' });
  });

  it('uploadFile with chunking.maximumChunkLength indexes the file in passages of about that many characters', async () => {
    const text = Array.from(
      { length: 40 },
      (_, i) => `Rule ${i} of the returns policy says that parcel number ${i} ships back within ten days.`,
    ).join(' ');
    const { file } = await client.uploadFile({
      key: 'bp/indexing-options.txt',
      content: text,
      index: true,
      indexing: {
        configuration: {
          parsing: { mode: 'standard', smartCleanup: false },
          chunking: { maximumChunkLength: 300, embedBreadcrumb: true },
          summarization: { enable: false },
        },
      },
    });
    // uploadFile answers the file as upserted; the upload then queues its indexing.
    let status = (await client.getFile({ id: file.id })).file.status;
    for (let i = 0; i < 600 && status === 'indexing_pending'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await client.getFile({ id: file.id })).file.status;
    }
    expect(status).toBe('indexing_completed');
    const { passages } = await client.listFilePassages({ id: file.id, limit: 200 });
    expect(passages.length).toBeGreaterThan(10);
    // ⌊300 / 6⌋ = 50 tokens a passage: about 300 characters, a little more at worst.
    for (const passage of passages) expect(passage.content.length).toBeLessThanOrEqual(330);
    expect(passages.map((p) => p.content).join(' ')).toContain('parcel number 39 ships back');
  });

  it('upsertFile refuses an indexing option Parley does not support with an InvalidPayloadError naming it', async () => {
    const error = await client
      .upsertFile({
        key: 'bp/summaries.txt',
        size: 5,
        index: true,
        indexing: { configuration: { summarization: { enable: true } } },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidPayloadError);
    expect((error as Error).message).toContain(
      'indexing.configuration.summarization.enable is not supported',
    );
    expect(await client.getFile({ id: 'bp/summaries.txt' }).catch((e: unknown) => e)).toBeInstanceOf(
      ResourceNotFoundError,
    );
  });

  it('listBots (Admin API) works with a personal access token and the workspace id', async () => {
    const admin = new Client({
      apiUrl: run.server.url,
      token: run.boot.token,
      workspaceId: run.boot.workspaceId,
    });
    const { bots } = await admin.listBots({});
    expect(bots.map((b) => b.id)).toContain(run.boot.botId);
    const walked = await admin.list.bots({}).collect();
    expect(walked.map((b) => b.id)).toContain(run.boot.botId);
  });
});
