import type { LogEntry } from '@parley/protocol';
import type { CompiledQuery } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newBot } from '../../../../testkit/src/server/admin-calls.js';
import { chatClient } from '../../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { createTestApp, type TestApp } from '../../../../testkit/src/server/harness.js';
import { testDatabases } from '../../../../testkit/src/server/postgres.js';

/** Every statement `t`'s app sends to its database that inserts into request_logs, as it is sent. */
function watchLogInserts(t: TestApp, fail?: () => boolean): { sql: string[] } {
  const executor = t.db.kysely.getExecutor();
  const original = executor.executeQuery.bind(executor);
  const seen: string[] = [];
  vi.spyOn(executor, 'executeQuery').mockImplementation(async (query: CompiledQuery) => {
    if (/insert into "?request_logs"?/i.test(query.sql)) {
      seen.push(query.sql);
      if (fail?.()) throw new Error('the database refused the request log');
    }
    return original(query);
  });
  return { sql: seen };
}

describe.each(testDatabases())('the request log, written behind the requests, on $name', ({ url }) => {
  const t = useTestApp(url ? { databaseUrl: url } : {});

  afterEach(() => {
    vi.restoreAllMocks();
  });

  const logsOf = async (botId: string): Promise<LogEntry[]> => {
    const res = await t.asOwner('GET', `/v1/admin/bots/${botId}/logs?pageSize=100`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { logs: LogEntry[] }).logs;
  };

  it('writes the lines of concurrent requests in one or two inserts, each readable at once', async () => {
    const botId = await newBot(t, 'Busy bot');
    await t.app.services.logs.flush();
    const inserts = watchLogInserts(t);
    const n = 40;
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: n }, () => t.asOwner('GET', `/v1/admin/bots/${botId}`)),
    );
    const elapsed = performance.now() - started;
    expect(answers.map((a) => a.statusCode)).toEqual(Array(n).fill(200));
    const logs = await logsOf(botId);
    expect(logs.map((l) => l.requestId).sort()).toEqual(answers.map((a) => a.headers['x-request-id']).sort());
    // One insert for all of them (the reading flushed them), plus one per 100 ms the requests took if the
    // delay ran out meanwhile; one row per insert would be 40.
    expect(inserts.sql.length).toBeGreaterThanOrEqual(1);
    expect(inserts.sql.length).toBeLessThanOrEqual(1 + Math.floor(elapsed / 100));
    expect(inserts.sql.length).toBeLessThan(n / 4);
  });

  it('makes a chat message readable in the log as soon as the POST answers', async () => {
    const chat = chatClient(t);
    const user = await chat.user();
    const conversationId = await chat.conversation(user);
    const res = await chat.call('POST', '/messages', {
      bot: true,
      body: { conversationId, payload: { type: 'text', text: 'hello' } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [line] = await logsOf(t.botId);
    expect(line).toMatchObject({ requestId: res.headers['x-request-id'], method: 'POST', statusCode: 201 });
  });

  it('answers the request when the log cannot be written, warns, and writes the line once it can', async () => {
    const botId = await newBot(t, 'Bot of a failing log');
    await t.app.services.logs.flush();
    let failing = true;
    const inserts = watchLogInserts(t, () => failing);
    const warn = vi.spyOn(t.app.log, 'warn');
    const res = await t.asOwner('GET', `/v1/admin/bots/${botId}`);
    expect(res.statusCode).toBe(200);
    await t.app.services.logs.flush();
    expect(inserts.sql).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({
        err: expect.objectContaining({ message: 'the database refused the request log' }),
      }),
      expect.stringMatching(/could not write the bot request log/),
    );
    failing = false;
    const logs = await logsOf(botId); // its flush is the retry
    expect(logs.map((l) => l.requestId)).toEqual([res.headers['x-request-id']]);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('does not write a waiting line of a bot deleted meanwhile', async () => {
    const botId = await newBot(t, 'Short-lived bot');
    await t.asOwner('GET', `/v1/admin/bots/${botId}`);
    expect((await t.asOwner('DELETE', `/v1/admin/bots/${botId}`)).statusCode).toBe(200);
    await t.app.services.logs.flush();
    const rows = await t.db.kysely
      .selectFrom('request_logs')
      .select('id')
      .where('bot_id', '=', botId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('writes the waiting lines when the app closes', async () => {
    const app = await createTestApp(url ? { databaseUrl: url } : {});
    try {
      const res = await app.asOwner('GET', `/v1/admin/bots/${app.botId}`);
      expect(res.statusCode).toBe(200);
      await app.app.close(); // what `parley serve` does on SIGTERM, before closing the database
      const rows = await app.db.kysely
        .selectFrom('request_logs')
        .select('request_id')
        .where('bot_id', '=', app.botId)
        .execute();
      expect(rows.map((r) => r.request_id)).toContain(res.headers['x-request-id']);
      expect(app.app.services.logs.writes.dropped).toBe(0);
    } finally {
      await app.close();
    }
  });
});
