import type { CompiledQuery } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { expectInvalid, uniqueEmail, withTestApp } from '../../../../testkit/src/server/admin-calls.js';
import { expectNewToken, type TokenBody } from '../../../../testkit/src/server/admin-tokens.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import type { TestApp } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

describe('account', () => {
  const t = useTestApp();

  /** A fresh account with its token, so tests do not share state. */
  async function freshAccount(displayName = 'Fresh') {
    const { account, token } = await t.app.services.identity.createAccount(uniqueEmail('acct'), displayName);
    return { account, token: token.value };
  }

  const get = (url: string, token?: string) => t.call({ method: 'GET', url, token });
  const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, body?: unknown) =>
    t.call({ method, url, token, body });

  describe('GET /v1/admin/account/me', () => {
    it('answers the account of the token, wrapped as {account}', async () => {
      const res = await get('/v1/admin/account/me', t.owner.token);
      expect(res.statusCode).toBe(200);
      const { account } = res.json() as { account: Record<string, unknown> };
      expect(account).toEqual({
        id: t.owner.accountId,
        email: t.owner.email,
        displayName: 'Owner',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    });

    it('needs no x-workspace-id', async () => {
      const { account, token } = await freshAccount('No Workspace');
      const res = await get('/v1/admin/account/me', token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ account: { id: account.id, displayName: 'No Workspace' } });
    });

    it('answers 401 without a token', async () => {
      const body = expectError(await get('/v1/admin/account/me'), 401, 'Unauthorized');
      expect(body.message).toContain('Authorization');
    });

    it('answers 401 to a malformed Authorization header', async () => {
      const res = await t.call({
        method: 'GET',
        url: '/v1/admin/account/me',
        headers: { authorization: 'Basic abc' },
      });
      expectError(res, 401, 'Unauthorized');
    });

    it('accepts the bearer scheme in any case', async () => {
      const res = await t.call({
        method: 'GET',
        url: '/v1/admin/account/me',
        headers: { authorization: `bearer ${t.owner.token}` },
      });
      expect(res.statusCode).toBe(200);
    });

    it('answers 403 to a bot access key, which has no account', async () => {
      expectError(await get('/v1/admin/account/me', t.botKey), 403, 'Forbidden');
    });
  });

  describe('PUT /v1/admin/account/me', () => {
    it('updates the display name and answers the account', async () => {
      const { account, token } = await freshAccount('Before');
      const res = await send('PUT', '/v1/admin/account/me', token, { displayName: 'After' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ account: { id: account.id, displayName: 'After' } });
      const again = await get('/v1/admin/account/me', token);
      expect(again.json()).toMatchObject({ account: { displayName: 'After' } });
    });

    it('rejects an empty display name with 400 naming displayName', async () => {
      const { token } = await freshAccount('Kept');
      const res = await send('PUT', '/v1/admin/account/me', token, { displayName: '' });
      expectInvalid(res, 'InvalidPayload', 'displayName');
      const again = await get('/v1/admin/account/me', token);
      expect(again.json()).toMatchObject({ account: { displayName: 'Kept' } });
    });

    it('rejects a body without a display name with 400 naming displayName', async () => {
      const { token } = await freshAccount();
      const res = await send('PUT', '/v1/admin/account/me', token, {});
      expectInvalid(res, 'InvalidPayload', 'displayName');
    });

    it('answers 401 without a token', async () => {
      expectError(
        await send('PUT', '/v1/admin/account/me', undefined, { displayName: 'x' }),
        401,
        'Unauthorized',
      );
    });

    it('answers 403 to a bot access key', async () => {
      expectError(
        await send('PUT', '/v1/admin/account/me', t.botKey, { displayName: 'x' }),
        403,
        'Forbidden',
      );
    });
  });

  describe('personal access tokens', () => {
    it('creates a PAT whose value is shown once and starts with pat_', async () => {
      const { token } = await freshAccount();
      const res = await send('POST', '/v1/admin/account/pats', token, { note: 'ci' });
      expect(res.statusCode).toBe(201);
      const { pat } = res.json() as { pat: TokenBody };
      expectNewToken(pat, 'ci', 'pat_');
      expect(Date.parse(pat.createdAt)).not.toBeNaN();
    });

    it('creates a PAT from a request without a body', async () => {
      const { token } = await freshAccount();
      const res = await send('POST', '/v1/admin/account/pats', token);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ pat: { note: '', value: expect.stringMatching(/^pat_/) } });
    });

    it('lists PATs without their values', async () => {
      const { token } = await freshAccount();
      const created = (await send('POST', '/v1/admin/account/pats', token, { note: 'listed' })).json() as {
        pat: TokenBody;
      };
      const res = await get('/v1/admin/account/pats', token);
      expect(res.statusCode).toBe(200);
      const { pats } = res.json() as { pats: TokenBody[] };
      expect(pats.map((p) => p.note)).toEqual(expect.arrayContaining(['first token', 'listed']));
      expect(pats.find((p) => p.id === created.pat.id)).toMatchObject({ note: 'listed' });
      for (const p of pats) expect(p).not.toHaveProperty('value');
      expect(res.body).not.toContain(created.pat.value ?? 'missing');
    });

    it("does not list another account's PATs", async () => {
      const a = await freshAccount();
      const b = await freshAccount();
      const created = (await send('POST', '/v1/admin/account/pats', a.token, { note: 'only a' })).json() as {
        pat: TokenBody;
      };
      const res = await get('/v1/admin/account/pats', b.token);
      const ids = (res.json() as { pats: TokenBody[] }).pats.map((p) => p.id);
      expect(ids).not.toContain(created.pat.id);
    });

    it('creates a PAT that authenticates as the same account', async () => {
      const { account, token } = await freshAccount();
      const { pat } = (await send('POST', '/v1/admin/account/pats', token, {})).json() as { pat: TokenBody };
      expect(pat.note).toBe('');
      const res = await get('/v1/admin/account/me', pat.value);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ account: { id: account.id } });
    });

    it('deletes a PAT, which then gets 401 while the other tokens keep working', async () => {
      const { token } = await freshAccount();
      const { pat } = (await send('POST', '/v1/admin/account/pats', token, { note: 'doomed' })).json() as {
        pat: TokenBody;
      };
      const del = await send('DELETE', `/v1/admin/account/pats/${pat.id}`, token);
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({});
      expectError(await get('/v1/admin/account/me', pat.value), 401, 'Unauthorized');
      expect((await get('/v1/admin/account/me', token)).statusCode).toBe(200);
      const list = (await get('/v1/admin/account/pats', token)).json() as { pats: TokenBody[] };
      expect(list.pats.map((p) => p.id)).not.toContain(pat.id);
    });

    it('lets a PAT delete itself, and then it gets 401', async () => {
      const { token } = await freshAccount();
      const list = (await get('/v1/admin/account/pats', token)).json() as { pats: TokenBody[] };
      const self = list.pats[0];
      expect(self).toBeDefined();
      expect((await send('DELETE', `/v1/admin/account/pats/${self?.id}`, token)).statusCode).toBe(200);
      expectError(await get('/v1/admin/account/me', token), 401, 'Unauthorized');
    });

    it('answers 404 when deleting an unknown PAT or one deleted already', async () => {
      const { token } = await freshAccount();
      expectError(await send('DELETE', '/v1/admin/account/pats/tok_nope', token), 404, 'ResourceNotFound');
      const { pat } = (await send('POST', '/v1/admin/account/pats', token, {})).json() as { pat: TokenBody };
      await send('DELETE', `/v1/admin/account/pats/${pat.id}`, token);
      expectError(await send('DELETE', `/v1/admin/account/pats/${pat.id}`, token), 404, 'ResourceNotFound');
    });

    it("answers 404 when deleting someone else's PAT, which keeps working", async () => {
      const a = await freshAccount();
      const b = await freshAccount();
      const { pat } = (await send('POST', '/v1/admin/account/pats', a.token, {})).json() as {
        pat: TokenBody;
      };
      expectError(await send('DELETE', `/v1/admin/account/pats/${pat.id}`, b.token), 404, 'ResourceNotFound');
      expect((await get('/v1/admin/account/me', pat.value)).statusCode).toBe(200);
    });

    it('answers 404 when a bot access key id is passed as a PAT id', async () => {
      const keys = (await t.asOwner('GET', `/v1/admin/bots/${t.botId}/access-keys`)).json() as {
        keys: TokenBody[];
      };
      const keyId = keys.keys[0]?.id ?? 'missing';
      expectError(
        await send('DELETE', `/v1/admin/account/pats/${keyId}`, t.owner.token),
        404,
        'ResourceNotFound',
      );
      expect(await t.app.services.identity.resolver.resolveToken(t.botKey)).toMatchObject({
        kind: 'bot',
        botId: t.botId,
      });
    });

    it('rejects an expiry in the past with 400 naming expiresAt', async () => {
      const { token } = await freshAccount();
      const res = await send('POST', '/v1/admin/account/pats', token, { expiresAt: '2000-01-01T00:00:00Z' });
      expectInvalid(res, 'InvalidPayload', 'expiresAt');
    });

    it('rejects an expiry that is not a timestamp with 400 naming expiresAt', async () => {
      const { token } = await freshAccount();
      const res = await send('POST', '/v1/admin/account/pats', token, { expiresAt: 'tomorrow' });
      expectInvalid(res, 'InvalidPayload', 'expiresAt');
    });

    it('rejects a note longer than 200 characters with 400 naming note', async () => {
      const { token } = await freshAccount();
      const res = await send('POST', '/v1/admin/account/pats', token, { note: 'x'.repeat(201) });
      expectInvalid(res, 'InvalidPayload', 'note');
    });

    it('answers 401 without a token and 403 to a bot access key', async () => {
      expectError(await send('POST', '/v1/admin/account/pats', undefined, {}), 401, 'Unauthorized');
      expectError(await send('POST', '/v1/admin/account/pats', t.botKey, {}), 403, 'Forbidden');
      expectError(await get('/v1/admin/account/pats', t.botKey), 403, 'Forbidden');
    });

    it('sets lastUsedAt once the PAT is used', async () => {
      const { token } = await freshAccount();
      const { pat } = (await send('POST', '/v1/admin/account/pats', token, { note: 'used' })).json() as {
        pat: TokenBody;
      };
      const before = (await get('/v1/admin/account/pats', token)).json() as { pats: TokenBody[] };
      expect(before.pats.find((p) => p.id === pat.id)?.lastUsedAt).toBeNull();
      expect((await get('/v1/admin/account/me', pat.value)).statusCode).toBe(200);
      const after = (await get('/v1/admin/account/pats', token)).json() as { pats: TokenBody[] };
      const used = after.pats.find((p) => p.id === pat.id);
      expect(used?.lastUsedAt).toEqual(expect.any(String));
      expect(Date.parse(used?.lastUsedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(pat.createdAt));
    });

    /** An app whose clock the test moves (from 2030-06-01), with a PAT of its owner made with `body`. */
    async function withClockedPat(
      body: Record<string, unknown>,
      use: (app: TestApp, pat: TokenBody, advance: (ms: number) => void) => Promise<void>,
    ): Promise<void> {
      let now = Date.parse('2030-06-01T00:00:00.000Z');
      await withTestApp(
        async (app) => {
          const created = await app.call({
            method: 'POST',
            url: '/v1/admin/account/pats',
            token: app.owner.token,
            body,
          });
          expect(created.statusCode).toBe(201);
          await use(app, (created.json() as { pat: TokenBody }).pat, (ms) => {
            now += ms;
          });
        },
        { clock: () => new Date(now) },
      );
    }

    it("records a PAT's use at most once a minute, with no statement for the uses in between", async () => {
      await withClockedPat({ note: 'busy' }, async (app, pat, advance) => {
        const executor = app.db.kysely.getExecutor();
        const original = executor.executeQuery.bind(executor);
        let touches = 0;
        vi.spyOn(executor, 'executeQuery').mockImplementation(async (query: CompiledQuery) => {
          if (/^update "tokens" set "last_used_at"/.test(query.sql)) touches++;
          return original(query);
        });
        const me = async () =>
          expect(
            (await app.call({ method: 'GET', url: '/v1/admin/account/me', token: pat.value })).statusCode,
          ).toBe(200);
        const lastUsed = async () =>
          (
            await app.db.kysely
              .selectFrom('tokens')
              .select('last_used_at')
              .where('id', '=', pat.id)
              .executeTakeFirstOrThrow()
          ).last_used_at;
        await me();
        expect([touches, await lastUsed()]).toEqual([1, '2030-06-01T00:00:00.000Z']);
        advance(30_000);
        await me();
        await me();
        expect([touches, await lastUsed()]).toEqual([1, '2030-06-01T00:00:00.000Z']);
        advance(31_000);
        await me();
        expect([touches, await lastUsed()]).toEqual([2, '2030-06-01T00:01:01.000Z']);
        vi.restoreAllMocks();
      });
    });

    it('keeps a PAT with a future expiry working until then, and answers 401 after', async () => {
      await withClockedPat(
        { note: 'short-lived', expiresAt: '2030-06-02T00:00:00.000Z' },
        async (app, pat, advance) => {
          expect(pat.expiresAt).toBe('2030-06-02T00:00:00.000Z');
          const me = () => app.call({ method: 'GET', url: '/v1/admin/account/me', token: pat.value });
          expect((await me()).statusCode).toBe(200);
          advance(2 * 86_400_000);
          expectError(await me(), 401, 'Unauthorized');
          const list = await app.call({
            method: 'GET',
            url: '/v1/admin/account/pats',
            token: app.owner.token,
          });
          expect((list.json() as { pats: TokenBody[] }).pats.find((p) => p.id === pat.id)).toMatchObject({
            expiresAt: '2030-06-02T00:00:00.000Z',
          });
        },
      );
    });
  });
});
