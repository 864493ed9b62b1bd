import type { ListMeta, LogEntry } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { accountCaller, caller, newBot, withTestApp } from '../../../../testkit/src/server/admin-calls.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import type { TestApp } from '../../../../testkit/src/server/harness.js';
import { badFields, expectError } from '../../../../testkit/src/server/wire.js';

/** A page of a bot's request log. */
type LogPage = { logs: LogEntry[]; meta: ListMeta };

describe('bot request logs', () => {
  const t = useTestApp();

  const logsUrl = (botId: string, query = '') => `/v1/admin/bots/${botId}/logs${query}`;

  /** A new bot of `app`'s bootstrap workspace, made by its owner. */
  const loggedBot = (app: TestApp = t) => newBot(app, 'Logged bot');

  async function logsOf(botId: string, query = '', app: TestApp = t): Promise<LogPage> {
    const res = await app.asOwner('GET', logsUrl(botId, query));
    expect(res.statusCode).toBe(200);
    return res.json() as LogPage;
  }

  /**
   * Runs `use` on a test app of its own (with `env`) whose clock starts at `start` and moves only by `advance(ms)`,
   * with a logged bot whose first request, a read, is made.
   */
  async function withClockedBot(
    start: string,
    env: Record<string, string>,
    use: (app: TestApp, botId: string, advance: (ms: number) => void) => Promise<void>,
  ): Promise<void> {
    let now = Date.parse(start);
    await withTestApp(
      async (app) => {
        const botId = await loggedBot(app);
        await app.asOwner('GET', `/v1/admin/bots/${botId}`);
        await use(app, botId, (ms) => {
          now += ms;
        });
      },
      { clock: () => new Date(now), env },
    );
  }

  /** The ids of the request_logs rows stored for `botId` (the lines still waiting written first). */
  const storedRows = async (botId: string) => {
    await t.app.services.logs.flush();
    return t.db.kysely.selectFrom('request_logs').select('id').where('bot_id', '=', botId).execute();
  };

  describe('GET /v1/admin/bots/{id}/logs', () => {
    it('answers one line per request about the bot, newest first, with the 400 as a warning', async () => {
      const botId = await loggedBot();
      const got = await t.asOwner('GET', `/v1/admin/bots/${botId}`);
      expect(got.statusCode).toBe(200);
      const put = await t.asOwner('PUT', `/v1/admin/bots/${botId}`, { description: 'logged' });
      expect(put.statusCode).toBe(200);
      const bad = await t.asOwner('PUT', `/v1/admin/bots/${botId}`, { status: 'sleeping' });
      expectError(bad, 400, 'InvalidPayload');

      const { logs, meta } = await logsOf(botId);
      expect(meta).toEqual({});
      expect(logs.map((l) => [l.operationId, l.method, l.statusCode])).toEqual([
        ['admin.updateBot', 'PUT', 400],
        ['admin.updateBot', 'PUT', 200],
        ['admin.getBot', 'GET', 200],
      ]);
      const [warn, update, read] = logs as [LogEntry, LogEntry, LogEntry];
      expect(warn).toEqual({
        id: expect.stringMatching(/^log_/),
        timestamp: expect.any(String),
        level: 'warn',
        message: expect.stringContaining(`PUT /v1/admin/bots/${botId} 400`),
        requestId: bad.headers['x-request-id'],
        operationId: 'admin.updateBot',
        method: 'PUT',
        path: `/v1/admin/bots/${botId}`,
        statusCode: 400,
        durationMs: expect.any(Number),
      });
      expect(update).toMatchObject({ level: 'info', requestId: put.headers['x-request-id'] });
      expect(read).toMatchObject({
        level: 'info',
        requestId: got.headers['x-request-id'],
        path: `/v1/admin/bots/${botId}`,
      });
      expect(read.durationMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(warn.timestamp)).toBeGreaterThanOrEqual(Date.parse(read.timestamp));
    });

    it('logs a request refused by the service (webhook mode without URL) as a warning', async () => {
      const botId = await loggedBot();
      const res = await t.asOwner('PUT', `/v1/admin/bots/${botId}`, { replyMode: 'webhook' });
      const body = expectError(res, 400, 'InvalidPayload');
      expect(badFields(body)).toContain('webhookUrl');
      const { logs } = await logsOf(botId);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ level: 'warn', statusCode: 400, operationId: 'admin.updateBot' });
    });

    it('records the sub-resources of the bot under their own operation ids', async () => {
      const botId = await loggedBot();
      await t.asOwner('GET', `/v1/admin/bots/${botId}/access-keys`);
      await t.asOwner('GET', `/v1/admin/bots/${botId}/webchat`);
      await t.asOwner('GET', `/v1/admin/bots/${botId}/integrations`);
      const { logs } = await logsOf(botId);
      expect(logs.map((l) => l.operationId)).toEqual([
        'admin.listBotIntegrations',
        'admin.getBotWebchat',
        'admin.listBotAccessKeys',
      ]);
    });

    it('does not log the reading of the logs themselves', async () => {
      const botId = await loggedBot();
      await logsOf(botId);
      await logsOf(botId);
      expect((await logsOf(botId)).logs).toEqual([]);
    });

    it('filters by level', async () => {
      const botId = await loggedBot();
      await t.asOwner('GET', `/v1/admin/bots/${botId}`);
      await t.asOwner('PUT', `/v1/admin/bots/${botId}`, { name: '' });
      await t.asOwner('GET', `/v1/admin/bots/${botId}`);
      const warn = await logsOf(botId, '?level=warn');
      expect(warn.logs).toHaveLength(1);
      expect(warn.logs[0]).toMatchObject({ level: 'warn', statusCode: 400 });
      const info = await logsOf(botId, '?level=info');
      expect(info.logs.map((l) => l.level)).toEqual(['info', 'info']);
      expect((await logsOf(botId, '?level=error')).logs).toEqual([]);
    });

    it('rejects an unknown level with 400 InvalidQuery naming level', async () => {
      const res = await t.asOwner('GET', logsUrl(t.botId, '?level=debug'));
      const body = expectError(res, 400, 'InvalidQuery');
      expect(badFields(body)).toContain('level');
    });

    it('filters by time with timeStart and timeEnd', async () => {
      await withClockedBot('2031-03-01T10:00:00.000Z', {}, async (app, botId, advance) => {
        advance(3_600_000);
        await app.asOwner('PUT', `/v1/admin/bots/${botId}`, { name: 'later' });
        advance(3_600_000);
        const later = await logsOf(botId, '?timeStart=2031-03-01T10:30:00Z', app);
        expect(later.logs.map((l) => l.operationId)).toEqual(['admin.updateBot']);
        const earlier = await logsOf(botId, '?timeEnd=2031-03-01T10:30:00Z', app);
        expect(earlier.logs.map((l) => l.operationId)).toEqual(['admin.getBot']);
        const bad = await app.asOwner('GET', logsUrl(botId, '?timeStart=yesterday'));
        expect(badFields(expectError(bad, 400, 'InvalidQuery'))).toContain('timeStart');
      });
    });

    it('pages through the lines without duplicates', async () => {
      const botId = await loggedBot();
      for (let i = 0; i < 5; i += 1) await t.asOwner('GET', `/v1/admin/bots/${botId}`);
      const all = (await logsOf(botId)).logs;
      expect(all).toHaveLength(5);
      const paged: LogEntry[] = [];
      let nextToken: string | undefined;
      let pages = 0;
      do {
        const page = await logsOf(
          botId,
          `?pageSize=2${nextToken ? `&nextToken=${encodeURIComponent(nextToken)}` : ''}`,
        );
        expect(page.logs.length).toBeLessThanOrEqual(2);
        paged.push(...page.logs);
        nextToken = page.meta.nextToken;
        pages += 1;
      } while (nextToken && pages < 10);
      expect(pages).toBe(3);
      expect(paged.map((l) => l.id)).toEqual(all.map((l) => l.id));
    });

    it('rejects a malformed nextToken with 400 InvalidQuery', async () => {
      expectError(await t.asOwner('GET', logsUrl(t.botId, '?nextToken=xyz')), 400, 'InvalidQuery');
    });

    it('keeps out requests by another tenant about an id it cannot see', async () => {
      const botId = await loggedBot();
      await t.asOwner('GET', `/v1/admin/bots/${botId}`);
      const other = await t.otherTenant();
      const foreign = caller(t, other.token, other.workspaceId);
      expectError(await foreign('GET', `/v1/admin/bots/${botId}`), 404, 'ResourceNotFound');
      expectError(
        await foreign('PUT', `/v1/admin/bots/${botId}`, { name: 'hijack' }),
        404,
        'ResourceNotFound',
      );
      expectError(await foreign('GET', `/v1/admin/bots/${botId}/access-keys`), 404, 'ResourceNotFound');
      expectError(await foreign('GET', logsUrl(botId)), 404, 'ResourceNotFound');
      const { logs } = await logsOf(botId);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ operationId: 'admin.getBot', statusCode: 200 });
    });

    it('keeps out requests with an invalid workspace header or token', async () => {
      const botId = await loggedBot();
      await caller(t, 'pat_wrong')('GET', `/v1/admin/bots/${botId}`);
      await accountCaller(t, t.owner.token)('GET', `/v1/admin/bots/${botId}`);
      expect((await logsOf(botId)).logs).toEqual([]);
    });

    it("answers 404 for another workspace's bot and for an unknown bot", async () => {
      const other = await t.otherTenant();
      expectError(await t.asOwner('GET', logsUrl(other.botId)), 404, 'ResourceNotFound');
      expectError(await t.asOwner('GET', logsUrl('no-such-bot')), 404, 'ResourceNotFound');
    });

    it('forbids a billing member (403) and lets a viewer read', async () => {
      const billing = await t.addMember('billing');
      const viewer = await t.addMember('viewer');
      const as = (token: string) => caller(t, token)('GET', logsUrl(t.botId));
      expectError(await as(billing.token), 403, 'Forbidden');
      expect((await as(viewer.token)).statusCode).toBe(200);
    });

    it('forbids a bot access key (403)', async () => {
      expectError(await caller(t, t.botKey)('GET', logsUrl(t.botId)), 403, 'Forbidden');
    });

    it('answers 401 without a token', async () => {
      expectError(
        await t.call({ method: 'GET', url: logsUrl(t.botId), workspaceId: t.workspaceId }),
        401,
        'Unauthorized',
      );
    });

    it('drops the logs of a deleted bot', async () => {
      const botId = await loggedBot();
      await t.asOwner('GET', `/v1/admin/bots/${botId}`);
      await t.asOwner('PUT', `/v1/admin/bots/${botId}`, { name: 'going' });
      expect((await logsOf(botId)).logs).toHaveLength(2);
      expect((await t.asOwner('DELETE', `/v1/admin/bots/${botId}`)).statusCode).toBe(200);
      expectError(await t.asOwner('GET', logsUrl(botId)), 404, 'ResourceNotFound');
      expect(await storedRows(botId)).toEqual([]);
    });

    it('drops the logs of the bots of a deleted workspace', async () => {
      const ws = await accountCaller(t, t.owner.token)('POST', '/v1/admin/workspaces', {
        name: 'Short-lived',
      });
      const workspaceId = (ws.json() as { id: string }).id;
      const as = caller(t, t.owner.token, workspaceId);
      const bot = await as('POST', '/v1/admin/bots', { name: 'x' });
      const botId = (bot.json() as { bot: { id: string } }).bot.id;
      await as('GET', `/v1/admin/bots/${botId}`);
      expect(await storedRows(botId)).toHaveLength(1);
      expect((await as('DELETE', `/v1/admin/workspaces/${workspaceId}`)).statusCode).toBe(200);
      expect(await storedRows(botId)).toEqual([]);
    });
  });

  describe('LogsService.prune', () => {
    it('removes the lines older than PARLEY_LOG_RETENTION_DAYS and keeps the newer ones', async () => {
      await withClockedBot(
        '2032-01-01T00:00:00.000Z',
        { PARLEY_LOG_RETENTION_DAYS: '2' },
        async (app, botId, advance) => {
          await app.asOwner('GET', `/v1/admin/bots/${botId}`);
          advance(1.5 * 86_400_000);
          await app.asOwner('PUT', `/v1/admin/bots/${botId}`, { name: 'newer' });
          expect(await app.app.services.logs.prune()).toBe(0);

          advance(1 * 86_400_000); // the first two lines are now 2.5 days old, the last one 1 day
          expect(await app.app.services.logs.prune()).toBe(2);
          const { logs } = await logsOf(botId, '', app);
          expect(logs.map((l) => l.operationId)).toEqual(['admin.updateBot']);
          expect(await app.app.services.logs.prune()).toBe(0);

          advance(2 * 86_400_000);
          expect(await app.app.services.logs.prune()).toBe(1);
          expect((await logsOf(botId, '', app)).logs).toEqual([]);
        },
      );
    });
  });
});
