import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatClient } from '../../testkit/src/server/chat.js';
import { putBytes } from '../../testkit/src/server/files-api.js';
import { useTestApp } from '../../testkit/src/server/fixtures.js';
import type { TestApp } from '../../testkit/src/server/harness.js';
import { eventually } from '../../testkit/src/shared/eventually.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Blob files under the app's local blob store. */
async function blobFiles(t: TestApp): Promise<string[]> {
  const root = join(t.dataDir, 'blobs');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Stores a file through the Files API as the bootstrap bot; answers its id. */
async function storeFile(t: TestApp, key: string, expiresAt: string): Promise<string> {
  const headers = { 'x-bot-id': t.botId };
  const content = Buffer.from('short-lived');
  const res = await t.call({
    method: 'PUT',
    url: '/v1/files',
    token: t.botKey,
    headers,
    body: { key, size: content.length, expiresAt },
  });
  expect(res.statusCode, res.body).toBe(200);
  const file = (res.json() as { file: { id: string; uploadUrl: string } }).file;
  const put = await putBytes(t, file.uploadUrl, content);
  expect(put.statusCode, put.body).toBe(200);
  return file.id;
}

/** Reads a file's record through the Files API as the bootstrap bot. */
function getFile(t: TestApp, fileId: string) {
  return t.call({
    method: 'GET',
    url: `/v1/files/${fileId}`,
    token: t.botKey,
    headers: { 'x-bot-id': t.botId },
  });
}

/** Waits (polling) until `check` holds, as long as a few runs of the started runner take. */
const happens = (check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> =>
  eventually(check, timeoutMs, 25, 'the background work');

describe("the app's periodic work, driven by the injected clock", () => {
  let now = Date.parse('2032-06-01T00:00:00.000Z');
  const t = useTestApp({
    clock: () => new Date(now),
    responder: null,
    env: { PARLEY_LOG_RETENTION_DAYS: '1', PARLEY_CHAT_SIGNAL_RETENTION_HOURS: '1' },
  });

  const count = async (table: 'chat_signals' | 'request_logs', before: number) => {
    await t.app.services.logs.flush(); // the request log is written behind its requests
    return Number(
      (
        await t.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where(table === 'chat_signals' ? 'created_at' : 'timestamp', '<', new Date(before).toISOString())
          .executeTakeFirstOrThrow()
      ).n,
    );
  };

  it('expires files and collects their blobs, then drops chat signals and request log lines past retention', async () => {
    const start = now;
    const fileId = await storeFile(t, 'expiring.txt', new Date(start + 90_000).toISOString());
    const blob = (await blobFiles(t)).find((p) => p.includes(fileId));
    expect(blob).toBeDefined();
    const chat = chatClient(t);
    const user = await chat.user();
    await chat.message(user, await chat.conversation(user), 'hello');
    expect(await count('chat_signals', start + 1)).toBeGreaterThan(0);
    expect(await count('request_logs', start + 1)).toBeGreaterThan(0);

    // Nothing is due before its time.
    now += 30_000;
    await t.app.services.runner.tick();
    expect(await blobFiles(t)).toContain(blob);

    // A minute after start: the file has expired, its blob goes in the same round.
    now = start + 2 * MINUTE;
    await t.app.services.runner.tick();
    expect((await getFile(t, fileId)).statusCode).toBe(404);
    expect(await blobFiles(t)).not.toContain(blob);
    expect(await count('chat_signals', start + 1)).toBeGreaterThan(0);

    // Past the signal retention (1 h), at the next minute's pruning.
    now = start + HOUR + 2 * MINUTE;
    await t.app.services.runner.tick();
    expect(await count('chat_signals', start + 1)).toBe(0);
    expect(await count('request_logs', start + 1)).toBeGreaterThan(0);

    // Past the log retention (1 day), at the next hourly pruning.
    now = start + DAY + 2 * HOUR;
    await t.app.services.runner.tick();
    expect(await count('request_logs', start + 1)).toBe(0);
  });
});

describe('the runner buildApp starts with `workers`', () => {
  let now = Date.parse('2032-07-01T00:00:00.000Z');
  const t = useTestApp({ clock: () => new Date(now), workers: true, responder: null });

  it('runs the periodic tasks by itself once the clock reaches them', async () => {
    const fileId = await storeFile(t, 'expiring.txt', new Date(now + 30_000).toISOString());
    const blob = (await blobFiles(t)).find((p) => p.includes(fileId));
    expect(blob).toBeDefined();
    now += 2 * MINUTE;
    await happens(async () => !(await blobFiles(t)).includes(blob as string));
    const res = await getFile(t, fileId);
    expect(res.statusCode).toBe(404);
  });
});
