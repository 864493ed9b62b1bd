import { describe, expect, it } from 'vitest';
import { caller, expectInvalid, newBot } from '../../../../testkit/src/server/admin-calls.js';
import { expectNewToken, type TokenBody } from '../../../../testkit/src/server/admin-tokens.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

describe('bot access keys', () => {
  const t = useTestApp();

  /** Calls with a member's token in the bootstrap workspace. */
  const as = (m: { token: string }) => caller(t, m.token);

  const keysUrl = (botId: string) => `/v1/admin/bots/${botId}/access-keys`;

  async function createKey(note = 'test key'): Promise<TokenBody & { value: string }> {
    const res = await t.asOwner('POST', keysUrl(t.botId), { note });
    expect(res.statusCode).toBe(201);
    return (res.json() as { key: TokenBody & { value: string } }).key;
  }

  /** A request with a bot key on an Admin route: 403 while the key is valid, 401 once it is not. */
  const adminWithKey = (key: string) =>
    t.call({ method: 'GET', url: `/v1/admin/bots/${t.botId}`, token: key, workspaceId: t.workspaceId });

  describe('GET /v1/admin/bots/{id}/access-keys', () => {
    it('lists the keys of the bot, including the bootstrap key, never with values', async () => {
      const created = await createKey('listed');
      const res = await t.asOwner('GET', keysUrl(t.botId));
      expect(res.statusCode).toBe(200);
      const { keys } = res.json() as { keys: TokenBody[] };
      expect(keys.map((k) => k.note)).toEqual(expect.arrayContaining(['bootstrap', 'listed']));
      expect(keys.find((k) => k.id === created.id)).toEqual({
        id: created.id,
        note: 'listed',
        createdAt: created.createdAt,
        lastUsedAt: null,
        expiresAt: null,
      });
      for (const k of keys) expect(k).not.toHaveProperty('value');
      expect(res.body).not.toContain(created.value);
      expect(res.body).not.toContain(t.botKey);
    });

    it('lets a viewer list the keys', async () => {
      const viewer = await t.addMember('viewer');
      const res = await as(viewer)('GET', keysUrl(t.botId));
      expect(res.statusCode).toBe(200);
      expect((res.json() as { keys: TokenBody[] }).keys.length).toBeGreaterThan(0);
    });

    it('forbids a billing member to list the keys (403)', async () => {
      const billing = await t.addMember('billing');
      expectError(await as(billing)('GET', keysUrl(t.botId)), 403, 'Forbidden');
    });

    it('does not list the keys of another bot of the same workspace', async () => {
      const botId = await newBot(t, 'Keyless');
      const res = await t.asOwner('GET', keysUrl(botId));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ keys: [] });
    });

    it('answers 404 for an unknown bot', async () => {
      expectError(await t.asOwner('GET', keysUrl('no-such-bot')), 404, 'ResourceNotFound');
    });

    it('answers 401 without a token', async () => {
      const res = await t.call({ method: 'GET', url: keysUrl(t.botId), workspaceId: t.workspaceId });
      expectError(res, 401, 'Unauthorized');
    });
  });

  describe('POST /v1/admin/bots/{id}/access-keys', () => {
    it('creates a key whose value starts with bak_ and is shown only in this answer', async () => {
      const res = await t.asOwner('POST', keysUrl(t.botId), { note: 'deploy' });
      expect(res.statusCode).toBe(201);
      const { key } = res.json() as { key: TokenBody & { value: string } };
      expectNewToken(key, 'deploy', 'bak_');
      expect(key.value.length).toBeGreaterThan(40);
      expect(await t.app.services.identity.resolver.resolveToken(key.value)).toMatchObject({
        kind: 'bot',
        botId: t.botId,
        workspaceId: t.workspaceId,
      });
    });

    it('creates a key without a body', async () => {
      const res = await t.asOwner('POST', keysUrl(t.botId));
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ key: { note: '', value: expect.stringMatching(/^bak_/) } });
    });

    it('creates a key with a future expiry', async () => {
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const res = await t.asOwner('POST', keysUrl(t.botId), { expiresAt });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ key: { expiresAt } });
    });

    it('rejects an expiry in the past with 400 naming expiresAt', async () => {
      const res = await t.asOwner('POST', keysUrl(t.botId), { expiresAt: '2001-01-01T00:00:00Z' });
      expectInvalid(res, 'InvalidPayload', 'expiresAt');
    });

    it('rejects a note longer than 200 characters with 400 naming note', async () => {
      const res = await t.asOwner('POST', keysUrl(t.botId), { note: 'n'.repeat(201) });
      expectInvalid(res, 'InvalidPayload', 'note');
    });

    it('forbids a viewer to create a key (403)', async () => {
      const viewer = await t.addMember('viewer');
      const before = (await t.asOwner('GET', keysUrl(t.botId))).json() as { keys: TokenBody[] };
      const res = await as(viewer)('POST', keysUrl(t.botId), { note: 'by viewer' });
      const body = expectError(res, 403, 'Forbidden');
      expect(body.message).toContain('viewer');
      const after = (await t.asOwner('GET', keysUrl(t.botId))).json() as { keys: TokenBody[] };
      expect(after.keys.length).toBe(before.keys.length);
    });

    it('forbids a billing member to create a key (403)', async () => {
      const billing = await t.addMember('billing');
      expectError(await as(billing)('POST', keysUrl(t.botId), {}), 403, 'Forbidden');
    });

    it('lets a developer create a key', async () => {
      const dev = await t.addMember('developer');
      const res = await as(dev)('POST', keysUrl(t.botId), { note: 'by developer' });
      expect(res.statusCode).toBe(201);
    });

    it('forbids a bot key to create keys, even for its own bot (403)', async () => {
      const res = await caller(t, t.botKey)('POST', keysUrl(t.botId), {});
      expectError(res, 403, 'Forbidden');
    });

    it('answers 404 for an unknown bot', async () => {
      expectError(await t.asOwner('POST', keysUrl('no-such-bot'), {}), 404, 'ResourceNotFound');
    });
  });

  describe('DELETE /v1/admin/bots/{id}/access-keys/{keyId}', () => {
    it('revokes a key: on an Admin route it gets 403 while valid and 401 once revoked', async () => {
      const key = await createKey('to revoke');
      const before = expectError(await adminWithKey(key.value), 403, 'Forbidden');
      expect(before.message).toContain('bot access key');
      const del = await t.asOwner('DELETE', `${keysUrl(t.botId)}/${key.id}`);
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({});
      expectError(await adminWithKey(key.value), 401, 'Unauthorized');
      expect(await t.app.services.identity.resolver.resolveToken(key.value)).toBeUndefined();
      const list = (await t.asOwner('GET', keysUrl(t.botId))).json() as { keys: TokenBody[] };
      expect(list.keys.map((k) => k.id)).not.toContain(key.id);
      // The other keys of the bot keep working.
      expectError(await adminWithKey(t.botKey), 403, 'Forbidden');
    });

    it('answers 404 when the key is revoked twice', async () => {
      const key = await createKey();
      expect((await t.asOwner('DELETE', `${keysUrl(t.botId)}/${key.id}`)).statusCode).toBe(200);
      expectError(await t.asOwner('DELETE', `${keysUrl(t.botId)}/${key.id}`), 404, 'ResourceNotFound');
    });

    it('answers 404 for an unknown key id', async () => {
      expectError(await t.asOwner('DELETE', `${keysUrl(t.botId)}/tok_nope`), 404, 'ResourceNotFound');
    });

    it('answers 404 when the key belongs to another bot, which keeps it', async () => {
      const otherBotId = await newBot(t, 'Other bot');
      const key = await createKey('of the demo bot');
      expectError(await t.asOwner('DELETE', `${keysUrl(otherBotId)}/${key.id}`), 404, 'ResourceNotFound');
      expect(await t.app.services.identity.resolver.resolveToken(key.value)).toMatchObject({ kind: 'bot' });
    });

    it('answers 404 when a personal access token id is passed as a key id', async () => {
      const pats = (
        await t.call({ method: 'GET', url: '/v1/admin/account/pats', token: t.owner.token })
      ).json() as {
        pats: TokenBody[];
      };
      const patId = pats.pats[0]?.id ?? 'missing';
      expectError(await t.asOwner('DELETE', `${keysUrl(t.botId)}/${patId}`), 404, 'ResourceNotFound');
      expect((await t.asOwner('GET', '/v1/admin/bots')).statusCode).toBe(200);
    });

    it('forbids a viewer to revoke a key (403), which keeps working', async () => {
      const viewer = await t.addMember('viewer');
      const key = await createKey();
      expectError(await as(viewer)('DELETE', `${keysUrl(t.botId)}/${key.id}`), 403, 'Forbidden');
      expectError(await adminWithKey(key.value), 403, 'Forbidden');
    });
  });

  describe('another workspace', () => {
    it("answers 404 to every key operation on another workspace's bot", async () => {
      const other = await t.otherTenant();
      const created = await caller(t, other.token, other.workspaceId)('POST', keysUrl(other.botId), {
        note: 'theirs',
      });
      expect(created.statusCode).toBe(201);
      const theirs = (created.json() as { key: TokenBody & { value: string } }).key;

      expectError(await t.asOwner('GET', keysUrl(other.botId)), 404, 'ResourceNotFound');
      expectError(await t.asOwner('POST', keysUrl(other.botId), {}), 404, 'ResourceNotFound');
      expectError(await t.asOwner('DELETE', `${keysUrl(other.botId)}/${theirs.id}`), 404, 'ResourceNotFound');
      // Nor through my own bot's path.
      expectError(await t.asOwner('DELETE', `${keysUrl(t.botId)}/${theirs.id}`), 404, 'ResourceNotFound');
      expect(await t.app.services.identity.resolver.resolveToken(theirs.value)).toMatchObject({
        kind: 'bot',
        botId: other.botId,
      });
      // A bot read in the same request (the Chat API's path bot) stands in for the key's bot only when it is
      // that bot: another bot's key still resolves to its own bot and workspace.
      const resolver = t.app.services.identity.resolver;
      const mine = { id: t.botId, workspaceId: t.workspaceId };
      expect(await resolver.resolveToken(theirs.value, mine)).toMatchObject({
        kind: 'bot',
        botId: other.botId,
        workspaceId: other.workspaceId,
      });
      expect(await resolver.resolveToken(t.botKey, mine)).toEqual(await resolver.resolveToken(t.botKey));
      // The bot may be a read under way (the Chat API looks the key up meanwhile); a failed read fails the key
      // of that bot, not another's.
      expect(await resolver.resolveToken(t.botKey, Promise.resolve(mine))).toEqual(
        await resolver.resolveToken(t.botKey),
      );
      const failed = Promise.reject(new Error('the bot read failed'));
      failed.catch(() => undefined);
      await expect(resolver.resolveToken(t.botKey, failed)).rejects.toThrow('the bot read failed');
      expect(await resolver.resolveToken('bak_unknown', failed)).toBeUndefined();
    });

    it("answers 401 when a bot key is used with another workspace's id", async () => {
      const other = await t.otherTenant();
      const res = await caller(t, t.botKey, other.workspaceId)('GET', '/v1/admin/bots');
      expectError(res, 401, 'Unauthorized');
    });
  });

  describe('a deleted bot', () => {
    it('takes its keys with it', async () => {
      const botId = await newBot(t, 'Short-lived');
      const key = (await t.asOwner('POST', keysUrl(botId), {})).json() as { key: { value: string } };
      expect(await t.app.services.identity.resolver.resolveToken(key.key.value)).toMatchObject({ botId });
      expect((await t.asOwner('DELETE', `/v1/admin/bots/${botId}`)).statusCode).toBe(200);
      expect(await t.app.services.identity.resolver.resolveToken(key.key.value)).toBeUndefined();
      expectError(await t.asOwner('GET', keysUrl(botId)), 404, 'ResourceNotFound');
    });
  });
});
