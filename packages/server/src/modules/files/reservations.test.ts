import type { FileObject } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatClient, type TestChatUser } from '../../../../testkit/src/server/chat.js';
import {
  api,
  getFile,
  movableClock,
  pathOf,
  putBytes,
  upsert,
} from '../../../../testkit/src/server/files-api.js';
import { createTestApp, type TestApp } from '../../../../testkit/src/server/harness.js';
import { postgresTestUrl } from '../../../../testkit/src/server/postgres.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

const MB = 1024 * 1024;

/** A test app on a movable clock, with chat uploads allowed on the bootstrap bot. */
async function chatUploadApp(env: Record<string, string>, databaseUrl: string | undefined) {
  const clock = movableClock();
  const t = await createTestApp({ clock: clock.now, env, ...(databaseUrl ? { databaseUrl } : {}) });
  const allowed = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, {
    configuration: { allowFileUpload: true },
  });
  expect(allowed.statusCode, allowed.body).toBe(200);
  const chat = chatClient(t);
  /** A new chat user (an anonymous visitor) with a conversation. */
  const visitor = async () => {
    const user = await chat.user();
    return { user, conversationId: await chat.conversation(user) };
  };
  /** A chat upload declaring `size` bytes (no bytes are sent). */
  const chatUpload = (v: { user: TestChatUser; conversationId: string }, size: number) =>
    chat.call('POST', '/files', {
      key: v.user.key,
      body: { name: 'photo.png', size, contentType: 'image/png', conversationId: v.conversationId },
    });
  return { t, clock, visitor, chatUpload };
}

/** The bot's usage figures by type. */
async function botUsages(
  t: TestApp,
): Promise<Record<string, { value: number; quota: number | null } | undefined>> {
  const res = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/usages`);
  expect(res.statusCode, res.body).toBe(200);
  const usages = (res.json() as { usages: Array<{ type: string; value: number; quota: number | null }> })
    .usages;
  return Object.fromEntries(usages.map((u) => [u.type, { value: u.value, quota: u.quota }]));
}

function reservationSuite(name: string, databaseUrl: string | undefined) {
  describe(`upload reservations on ${name}: visitors cannot fill the team's quota`, () => {
    let app: Awaited<ReturnType<typeof chatUploadApp>>;
    beforeAll(async () => {
      app = await chatUploadApp(
        { PARLEY_QUOTA_FILE_STORAGE_BYTES: String(50 * MB), PARLEY_UPLOAD_URL_TTL_SECONDS: '20' },
        databaseUrl,
      );
    });
    afterAll(() => app?.t.close());

    it("counts five 10 MB chat uploads that send no bytes apart: the owner's 1 MB upload still succeeds", async () => {
      const { t, visitor, chatUpload } = app;
      const v = await visitor();
      for (let i = 0; i < 5; i++) expect((await chatUpload(v, 10 * MB)).statusCode).toBe(201);
      const file = await upsert(t, { key: 'team/report.bin', size: MB });
      const res = await putBytes(t, file.uploadUrl, Buffer.alloc(MB, 7));
      expect(res.statusCode, res.body).toBe(200);
      const usages = await botUsages(t);
      expect(usages.storage_count).toEqual({ value: MB, quota: null });
      expect(usages.chat_storage_count).toEqual({ value: 0, quota: null });
    });

    it('releases a reservation when its upload URL expires: counted no more at once, upload_failed after the sweep', async () => {
      const { t, clock } = app;
      const pending = await upsert(t, { key: 'team/pending.bin', size: 45 * MB });
      // The 1 MB of the test before and these 45 MB leave no room for 5 MB more.
      expectError(
        await api(t, 'PUT', '/v1/files', { key: 'team/more.bin', size: 5 * MB }),
        403,
        'QuotaExceeded',
      );
      // Past the URL's 20 s and the minute after which the periodic sweep is due.
      clock.advance(61_000);
      // Before any sweep: the expired reservation is no longer counted.
      const more = await upsert(t, { key: 'team/more.bin', size: 5 * MB });
      expect(more.status).toBe('upload_pending');
      expect((await getFile(t, pending.id)).status).toBe('upload_pending');
      await t.app.services.runner.tick();
      const failed = await getFile(t, pending.id);
      expect(failed).toMatchObject({ status: 'upload_failed', size: null });
      expect(failed.failedStatusReason).toMatch(/^upload_expired: /);
      // Its URL is refused (it expired), and usage reports only the bytes stored.
      expectError(await putBytes(t, pending.uploadUrl, Buffer.alloc(10)), 403, 'Forbidden');
      expect((await botUsages(t)).storage_count?.value).toBe(MB);
    });

    it('keeps the reservation of a resumable upload until the upload expires, then releases it', async () => {
      const { t, clock } = app;
      const file = await upsert(t, { key: 'team/resumable.bin', size: 40 * MB });
      const started = await t.app.inject({ method: 'POST', url: pathOf(file.uploadUrl) });
      expect(started.statusCode, started.body).toBe(201);
      clock.advance(61_000);
      await t.app.services.runner.tick();
      // The upload URL expired, but the resumable upload it started still runs: its reservation holds.
      expect((await getFile(t, file.id)).status).toBe('upload_pending');
      expectError(
        await api(t, 'PUT', '/v1/files', { key: 'team/other.bin', size: 10 * MB }),
        403,
        'QuotaExceeded',
      );
      clock.advance(24 * 3600_000);
      expect((await upsert(t, { key: 'team/other.bin', size: 10 * MB })).status).toBe('upload_pending');
      await t.app.services.runner.tick();
      expect(await getFile(t, file.id)).toMatchObject({ status: 'upload_failed' });
    });
  });

  describe(`chat uploads on ${name}: caps per visitor and the chat quota`, () => {
    let app: Awaited<ReturnType<typeof chatUploadApp>>;
    beforeAll(async () => {
      app = await chatUploadApp(
        {
          PARLEY_CHAT_MAX_FILES_PER_USER: '2',
          PARLEY_CHAT_MAX_FILE_BYTES_PER_USER: '1000',
          PARLEY_QUOTA_CHAT_FILE_STORAGE_BYTES: '1500',
          PARLEY_QUOTA_FILE_STORAGE_BYTES: '100',
          PARLEY_UPLOAD_URL_TTL_SECONDS: '20',
        },
        databaseUrl,
      );
    });
    afterAll(() => app?.t.close());

    it('refuses a visitor past its file count or its bytes with 403 QuotaExceeded, creating nothing', async () => {
      const { t, visitor, chatUpload } = app;
      const v = await visitor();
      const tooBig = expectError(await chatUpload(v, 1001), 403, 'QuotaExceeded');
      expect(tooBig.message).toContain('1000 bytes');
      expect((await chatUpload(v, 400)).statusCode).toBe(201);
      const second = await chatUpload(v, 400);
      expect(second.statusCode).toBe(201);
      const third = expectError(await chatUpload(v, 1), 403, 'QuotaExceeded');
      expect(third.message).toContain('PARLEY_CHAT_MAX_FILES_PER_USER');
      // Nothing was created for the refused ones: the visitor holds two files.
      const listed = await api(t, 'GET', `/v1/files?tags[userId]=${v.user.id}`);
      expect((listed.json() as { files: FileObject[] }).files).toHaveLength(2);
    });

    it('counts chat uploads apart from the team (whose own quota is smaller) and against the chat quota', async () => {
      const { t, visitor, chatUpload } = app;
      // The first visitor reserved 800 of the 1500 chat bytes; a second one may take 700, not 701.
      const other = await visitor();
      expectError(await chatUpload(other, 701), 403, 'QuotaExceeded');
      expect((await chatUpload(other, 700)).statusCode).toBe(201);
      // The team's 100 bytes are untouched by 1500 bytes of chat reservations.
      const file = await upsert(t, { key: 'team/small.txt', size: 100 });
      expect((await putBytes(t, file.uploadUrl, Buffer.alloc(100, 1))).statusCode).toBe(200);
      const usages = await botUsages(t);
      expect(usages.storage_count).toEqual({ value: 100, quota: null });
      expect(usages.chat_storage_count).toEqual({ value: 0, quota: null });
      const workspace = await t.asOwner('GET', `/v1/admin/workspaces/${t.workspaceId}/usages`);
      const figures = (workspace.json() as { usages: Array<{ type: string; value: number; quota: number }> })
        .usages;
      expect(figures.find((u) => u.type === 'storage_count')).toMatchObject({ value: 100, quota: 100 });
      expect(figures.find((u) => u.type === 'chat_storage_count')).toMatchObject({ value: 0, quota: 1500 });
    });

    it('gives a visitor its caps back once its pending uploads expire, and reports what it uploaded', async () => {
      const { t, clock, visitor, chatUpload } = app;
      clock.advance(61_000);
      await t.app.services.runner.tick();
      const v = await visitor();
      const res = await chatUpload(v, 1000);
      expect(res.statusCode, res.body).toBe(201);
      const file = (res.json() as { file: { id: string; uploadUrl: string } }).file;
      const put = await putBytes(t, file.uploadUrl, Buffer.alloc(1000, 2), { 'content-type': 'image/png' });
      expect(put.statusCode, put.body).toBe(200);
      expect((await botUsages(t)).chat_storage_count?.value).toBe(1000);
    });
  });
}

reservationSuite('SQLite', undefined);
const postgresUrl = postgresTestUrl();
if (postgresUrl) reservationSuite('PostgreSQL', postgresUrl);
else
  describe.skip('upload reservations on PostgreSQL (PARLEY_TEST_DATABASE_URL is not set)', () => {
    it('runs the reservation suites', () => undefined);
  });
