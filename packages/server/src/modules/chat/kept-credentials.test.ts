import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../testkit/src/server/admin-calls.js';
import type { TokenBody } from '../../../../testkit/src/server/admin-tokens.js';
import { useClockedApp } from '../../../../testkit/src/server/clocked-app-fixture.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

/**
 * On SQLite the process keeps the token rows and bots' chat facts it read (every Chat API request needs both).
 * What is kept must never outlive a change: made through the API, by the time passing, or by another
 * connection to the database file (the CLI, a second process, a sqlite3 shell), the next request sees it.
 */
describe('kept tokens and bots on SQLite: the next request sees every change', () => {
  const { t, clock } = useClockedApp();
  /** Another connection to the app's database file. */
  let other: SQLite.Database;

  beforeAll(() => {
    other = new SQLite(join(t.dataDir, 'parley.db'));
    other.pragma('busy_timeout = 5000');
  });
  afterAll(() => other.close());

  const keysUrl = (botId: string) => `/v1/admin/bots/${botId}/access-keys`;

  async function newKey(
    body: { note?: string; expiresAt?: string } = {},
  ): Promise<TokenBody & { value: string }> {
    const res = await t.asOwner('POST', keysUrl(t.botId), { note: 'kept', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { key: TokenBody & { value: string } }).key;
  }

  /** A Chat API request as the bot, with `key` (twice first, so the second is answered from what is kept). */
  const listAsBot = (key: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url: `/v1/chat/${t.botId}/conversations`,
      headers: { authorization: `Bearer ${key}`, ...headers },
    });

  async function expectServed(key: string, headers: Record<string, string> = {}): Promise<void> {
    for (let i = 0; i < 2; i++) {
      const res = await listAsBot(key, headers);
      expect(res.statusCode, res.body).toBe(200);
    }
  }

  it('a key revoked through the Admin API answers 401 on the next request', async () => {
    const key = await newKey();
    await expectServed(key.value);
    expect((await t.asOwner('DELETE', `${keysUrl(t.botId)}/${key.id}`)).statusCode).toBe(200);
    expectError(await listAsBot(key.value), 401, 'Unauthorized');
  });

  it('a key revoked or deleted by another connection to the file answers 401 on the next request', async () => {
    const revoked = await newKey();
    await expectServed(revoked.value);
    other.prepare('update tokens set revoked_at = ? where id = ?').run(clock.now().toISOString(), revoked.id);
    expectError(await listAsBot(revoked.value), 401, 'Unauthorized');

    const deleted = await newKey();
    await expectServed(deleted.value);
    other.prepare('delete from tokens where id = ?').run(deleted.id);
    expectError(await listAsBot(deleted.value), 401, 'Unauthorized');
  });

  it('a key expires on time, and when another connection moves its expiry into the past', async () => {
    const timed = await newKey({ expiresAt: new Date(clock.ms + 3_600_000).toISOString() });
    await expectServed(timed.value);
    clock.advance(3_600_000);
    expectError(await listAsBot(timed.value), 401, 'Unauthorized');

    const moved = await newKey();
    await expectServed(moved.value);
    other
      .prepare('update tokens set expires_at = ? where id = ?')
      .run(new Date(clock.ms - 1).toISOString(), moved.id);
    expectError(await listAsBot(moved.value), 401, 'Unauthorized');
  });

  it('a bot disabled by another connection answers 403 at once, and serves again once it is enabled', async () => {
    const key = await newKey();
    await expectServed(key.value);
    other.prepare("update bots set status = 'disabled' where id = ?").run(t.botId);
    const refused = expectError(await listAsBot(key.value), 403, 'Forbidden');
    expect(refused.message).toContain('is disabled');
    other.prepare("update bots set status = 'active' where id = ?").run(t.botId);
    await expectServed(key.value);
  });

  it('a webchat adminKey changed through the Admin API is the one checked on the next request', async () => {
    const key = await newKey();
    const webchat = `/v1/admin/bots/${t.botId}/webchat`;
    expect(
      (await t.asOwner('PUT', webchat, { configuration: { adminKey: 'first-secret' } })).statusCode,
    ).toBe(200);
    await expectServed(key.value, { 'x-admin-key': 'first-secret' });
    expect(
      (await t.asOwner('PUT', webchat, { configuration: { adminKey: 'second-secret' } })).statusCode,
    ).toBe(200);
    expectError(await listAsBot(key.value, { 'x-admin-key': 'first-secret' }), 403, 'Forbidden');
    await expectServed(key.value, { 'x-admin-key': 'second-secret' });
  });

  it("a deleted workspace's bot answers 404 and its key 401 on the next request", async () => {
    const tenant = await t.otherTenant();
    const as = caller(t, tenant.token, tenant.workspaceId);
    const created = await as('POST', keysUrl(tenant.botId), { note: 'doomed' });
    expect(created.statusCode).toBe(201);
    const value = (created.json() as { key: { value: string } }).key.value;
    const list = () =>
      t.app.inject({
        method: 'GET',
        url: `/v1/chat/${tenant.botId}/conversations`,
        headers: { authorization: `Bearer ${value}` },
      });
    for (let i = 0; i < 2; i++) expect((await list()).statusCode).toBe(200);
    expect((await as('DELETE', `/v1/admin/workspaces/${tenant.workspaceId}`)).statusCode).toBe(200);
    expectError(await list(), 404, 'ResourceNotFound');
    expect(await t.app.services.identity.resolver.resolveToken(value)).toBeUndefined();
  });

  it('records a kept key’s use at most once a minute, as when every request read it', async () => {
    const key = await newKey();
    const lastUsed = async () => {
      const res = await t.asOwner('GET', keysUrl(t.botId));
      return (res.json() as { keys: TokenBody[] }).keys.find((k) => k.id === key.id)?.lastUsedAt;
    };
    const first = clock.now().toISOString();
    await expectServed(key.value);
    expect(await lastUsed()).toBe(first);
    clock.advance(30_000);
    await expectServed(key.value);
    expect(await lastUsed()).toBe(first);
    clock.advance(31_000);
    const second = clock.now().toISOString();
    await expectServed(key.value);
    expect(await lastUsed()).toBe(second);
  });
});
