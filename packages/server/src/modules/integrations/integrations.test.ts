import { describe, expect, it } from 'vitest';
import {
  caller,
  expectInvalid,
  newBot,
  uniqueName,
  withTestApp,
} from '../../../../testkit/src/server/admin-calls.js';
import { expectNewToken, type TokenBody } from '../../../../testkit/src/server/admin-tokens.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

interface IntegrationBody {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
}

describe('integrations', () => {
  const t = useTestApp();

  /** Calls with a member's token in the bootstrap workspace. */
  const as = (m: { token: string }) => caller(t, m.token);

  async function createIntegration(name = uniqueName('int')): Promise<IntegrationBody> {
    const res = await t.asOwner('POST', '/v1/admin/integrations', { name });
    expect(res.statusCode).toBe(201);
    return (res.json() as { integration: IntegrationBody }).integration;
  }

  const installUrl = (botId: string, integrationId: string) =>
    `/v1/admin/bots/${botId}/integrations/${integrationId}`;

  async function installed(botId = t.botId): Promise<IntegrationBody> {
    const integration = await createIntegration();
    const res = await t.asOwner('PUT', installUrl(botId, integration.id));
    expect(res.statusCode).toBe(200);
    return integration;
  }

  async function newKey(botId: string, integrationId: string): Promise<TokenBody & { value: string }> {
    const res = await t.asOwner('POST', `${installUrl(botId, integrationId)}/keys`, { note: 'k' });
    expect(res.statusCode).toBe(201);
    return (res.json() as { key: TokenBody & { value: string } }).key;
  }

  describe('POST /v1/admin/integrations', () => {
    it('creates an integration, wrapped as {integration}', async () => {
      const res = await t.asOwner('POST', '/v1/admin/integrations', {
        name: 'slack-bridge',
        description: 'Relays to Slack',
      });
      expect(res.statusCode).toBe(201);
      const { integration } = res.json() as { integration: IntegrationBody };
      expect(integration).toEqual({
        id: expect.stringMatching(/^int_/),
        workspaceId: t.workspaceId,
        name: 'slack-bridge',
        description: 'Relays to Slack',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        createdBy: t.owner.accountId,
      });
    });

    it('rejects a name already used in the workspace with 409 AlreadyExists', async () => {
      const name = uniqueName('dup');
      await createIntegration(name);
      const res = await t.asOwner('POST', '/v1/admin/integrations', { name });
      const body = expectError(res, 409, 'AlreadyExists');
      expect(body.message).toContain(name);
    });

    it('allows the same name in another workspace', async () => {
      const name = uniqueName('shared');
      await createIntegration(name);
      const other = await t.otherTenant();
      const res = await caller(t, other.token, other.workspaceId)('POST', '/v1/admin/integrations', { name });
      expect(res.statusCode).toBe(201);
    });

    it.each(['Upper', 'with space', '-leading-dash', ''])(
      'rejects the name %j with 400 naming name',
      async (name) => {
        const res = await t.asOwner('POST', '/v1/admin/integrations', { name });
        expectInvalid(res, 'InvalidPayload', 'name');
      },
    );

    it('rejects a missing name with 400 naming name', async () => {
      expectInvalid(await t.asOwner('POST', '/v1/admin/integrations', {}), 'InvalidPayload', 'name');
    });

    it('forbids a viewer to create an integration (403)', async () => {
      const viewer = await t.addMember('viewer');
      const res = await as(viewer)('POST', '/v1/admin/integrations', { name: uniqueName('viewer') });
      expectError(res, 403, 'Forbidden');
    });

    it('lets a developer create an integration, recorded as its creator', async () => {
      const dev = await t.addMember('developer');
      const res = await as(dev)('POST', '/v1/admin/integrations', { name: uniqueName('dev') });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ integration: { createdBy: dev.accountId } });
    });
  });

  describe('GET /v1/admin/integrations and /{id}', () => {
    it('lists the integrations of the workspace page by page', async () => {
      await withTestApp(async (app) => {
        const ids: string[] = [];
        for (const name of ['a-one', 'b-two', 'c-three']) {
          const res = await app.asOwner('POST', '/v1/admin/integrations', { name });
          ids.push((res.json() as { integration: IntegrationBody }).integration.id);
        }
        const first = await app.asOwner('GET', '/v1/admin/integrations?pageSize=2');
        expect(first.statusCode).toBe(200);
        const p1 = first.json() as { integrations: IntegrationBody[]; meta: { nextToken?: string } };
        expect(p1.integrations).toHaveLength(2);
        expect(p1.meta.nextToken).toEqual(expect.any(String));
        const second = await app.asOwner(
          'GET',
          `/v1/admin/integrations?pageSize=2&nextToken=${encodeURIComponent(p1.meta.nextToken ?? '')}`,
        );
        const p2 = second.json() as { integrations: IntegrationBody[]; meta: { nextToken?: string } };
        expect(p2.meta).toEqual({});
        expect([...p1.integrations, ...p2.integrations].map((i) => i.id)).toEqual(ids);
      });
    });

    it("does not list another workspace's integrations", async () => {
      const other = await t.otherTenant();
      const theirs = await caller(t, other.token, other.workspaceId)('POST', '/v1/admin/integrations', {
        name: uniqueName('theirs'),
      });
      const theirId = (theirs.json() as { integration: IntegrationBody }).integration.id;
      const res = await t.asOwner('GET', '/v1/admin/integrations?pageSize=100');
      expect(res.statusCode).toBe(200);
      const ids = (res.json() as { integrations: IntegrationBody[] }).integrations.map((i) => i.id);
      expect(ids).not.toContain(theirId);
      expectError(await t.asOwner('GET', `/v1/admin/integrations/${theirId}`), 404, 'ResourceNotFound');
    });

    it('answers one integration by id', async () => {
      const integration = await createIntegration();
      const res = await t.asOwner('GET', `/v1/admin/integrations/${integration.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ integration });
    });

    it('lets a viewer read integrations', async () => {
      const viewer = await t.addMember('viewer');
      expect((await as(viewer)('GET', '/v1/admin/integrations')).statusCode).toBe(200);
    });

    it('forbids a billing member to read integrations (403)', async () => {
      const billing = await t.addMember('billing');
      expectError(await as(billing)('GET', '/v1/admin/integrations'), 403, 'Forbidden');
    });

    it('answers 404 for an unknown integration', async () => {
      expectError(await t.asOwner('GET', '/v1/admin/integrations/int_nope'), 404, 'ResourceNotFound');
    });
  });

  describe('DELETE /v1/admin/integrations/{id}', () => {
    it('deletes an integration, which is then gone', async () => {
      const integration = await createIntegration();
      const res = await t.asOwner('DELETE', `/v1/admin/integrations/${integration.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
      expectError(
        await t.asOwner('GET', `/v1/admin/integrations/${integration.id}`),
        404,
        'ResourceNotFound',
      );
      expectError(
        await t.asOwner('DELETE', `/v1/admin/integrations/${integration.id}`),
        404,
        'ResourceNotFound',
      );
    });

    it('lets a developer delete an integration it created, but not one created by others (403)', async () => {
      const dev = await t.addMember('developer');
      const own = await as(dev)('POST', '/v1/admin/integrations', { name: uniqueName('own') });
      const ownId = (own.json() as { integration: IntegrationBody }).integration.id;
      const ok = await as(dev)('DELETE', `/v1/admin/integrations/${ownId}`);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({});

      const ownersIntegration = await createIntegration();
      const res = await as(dev)('DELETE', `/v1/admin/integrations/${ownersIntegration.id}`);
      const body = expectError(res, 403, 'Forbidden');
      expect(body.message).toContain('created by others');
      expect((await t.asOwner('GET', `/v1/admin/integrations/${ownersIntegration.id}`)).statusCode).toBe(200);
    });

    it("lets an administrator delete another member's integration", async () => {
      const dev = await t.addMember('developer');
      const admin = await t.addMember('administrator');
      const created = await as(dev)('POST', '/v1/admin/integrations', { name: uniqueName('devs') });
      const id = (created.json() as { integration: IntegrationBody }).integration.id;
      expect((await as(admin)('DELETE', `/v1/admin/integrations/${id}`)).statusCode).toBe(200);
    });

    it('forbids a viewer to delete (403)', async () => {
      const viewer = await t.addMember('viewer');
      const integration = await createIntegration();
      expectError(await as(viewer)('DELETE', `/v1/admin/integrations/${integration.id}`), 403, 'Forbidden');
    });

    it('revokes the keys of an installed integration when it is deleted', async () => {
      const integration = await installed();
      const key = await newKey(t.botId, integration.id);
      expect(await t.app.services.identity.resolver.resolveToken(key.value)).toBeDefined();
      expect((await t.asOwner('DELETE', `/v1/admin/integrations/${integration.id}`)).statusCode).toBe(200);
      expect(await t.app.services.identity.resolver.resolveToken(key.value)).toBeUndefined();
      const list = (await t.asOwner('GET', `/v1/admin/bots/${t.botId}/integrations`)).json() as {
        integrations: Array<{ integrationId: string }>;
      };
      expect(list.integrations.map((i) => i.integrationId)).not.toContain(integration.id);
    });
  });

  describe('installing on a bot', () => {
    it('installs an integration on a bot and lists it among the bot integrations', async () => {
      const botId = await newBot(t, 'Integration bot');
      const integration = await createIntegration();
      const res = await t.asOwner('PUT', installUrl(botId, integration.id));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        installation: {
          integrationId: integration.id,
          botId,
          name: integration.name,
          installedAt: expect.any(String),
        },
      });
      const list = await t.asOwner('GET', `/v1/admin/bots/${botId}/integrations`);
      expect(list.statusCode).toBe(200);
      expect(list.json()).toEqual({
        integrations: [
          { integrationId: integration.id, botId, name: integration.name, installedAt: expect.any(String) },
        ],
      });
    });

    it('answers the existing installation when installing twice (PUT is idempotent)', async () => {
      const integration = await installed();
      const first = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/integrations`);
      const again = await t.asOwner('PUT', installUrl(t.botId, integration.id));
      expect(again.statusCode).toBe(200);
      const installation = (again.json() as { installation: { installedAt: string; integrationId: string } })
        .installation;
      expect(installation.integrationId).toBe(integration.id);
      const listed = (first.json() as { integrations: Array<{ integrationId: string; installedAt: string }> })
        .integrations;
      expect(listed.find((i) => i.integrationId === integration.id)?.installedAt).toBe(
        installation.installedAt,
      );
    });

    it('answers 404 for an unknown integration or an unknown bot', async () => {
      const integration = await createIntegration();
      expectError(await t.asOwner('PUT', installUrl(t.botId, 'int_nope')), 404, 'ResourceNotFound');
      expectError(await t.asOwner('PUT', installUrl('no-such-bot', integration.id)), 404, 'ResourceNotFound');
    });

    it("answers 404 when installing another workspace's integration, or on another workspace's bot", async () => {
      const other = await t.otherTenant();
      const theirs = await caller(t, other.token, other.workspaceId)('POST', '/v1/admin/integrations', {
        name: uniqueName('foreign'),
      });
      const theirId = (theirs.json() as { integration: IntegrationBody }).integration.id;
      expectError(await t.asOwner('PUT', installUrl(t.botId, theirId)), 404, 'ResourceNotFound');
      const mine = await createIntegration();
      expectError(await t.asOwner('PUT', installUrl(other.botId, mine.id)), 404, 'ResourceNotFound');
      expectError(
        await t.asOwner('GET', `/v1/admin/bots/${other.botId}/integrations`),
        404,
        'ResourceNotFound',
      );
    });

    it('forbids a viewer to install (403), but lets it list the installations', async () => {
      const viewer = await t.addMember('viewer');
      const integration = await createIntegration();
      expectError(await as(viewer)('PUT', installUrl(t.botId, integration.id)), 403, 'Forbidden');
      expect((await as(viewer)('GET', `/v1/admin/bots/${t.botId}/integrations`)).statusCode).toBe(200);
    });

    it('lets a developer install', async () => {
      const dev = await t.addMember('developer');
      const integration = await createIntegration();
      expect((await as(dev)('PUT', installUrl(t.botId, integration.id))).statusCode).toBe(200);
    });

    it('answers 404 when uninstalling an integration that is not installed', async () => {
      const integration = await createIntegration();
      expectError(await t.asOwner('DELETE', installUrl(t.botId, integration.id)), 404, 'ResourceNotFound');
    });
  });

  describe('integration keys', () => {
    it('creates a key whose value starts with iak_, shown once and never listed', async () => {
      const integration = await installed();
      const res = await t.asOwner('POST', `${installUrl(t.botId, integration.id)}/keys`, { note: 'prod' });
      expect(res.statusCode).toBe(201);
      const { key } = res.json() as { key: TokenBody & { value: string } };
      expectNewToken(key, 'prod', 'iak_');
      const list = await t.asOwner('GET', `${installUrl(t.botId, integration.id)}/keys`);
      expect(list.statusCode).toBe(200);
      const { keys } = list.json() as { keys: TokenBody[] };
      expect(keys.map((k) => k.id)).toEqual([key.id]);
      expect(keys[0]).not.toHaveProperty('value');
      expect(list.body).not.toContain(key.value);
    });

    it('resolves the key to an integration principal on that bot', async () => {
      const integration = await installed();
      const key = await newKey(t.botId, integration.id);
      const principal = await t.app.services.identity.resolver.resolveToken(key.value);
      expect(principal).toMatchObject({
        kind: 'integration',
        integrationId: integration.id,
        botId: t.botId,
        workspaceId: t.workspaceId,
        tokenId: key.id,
      });
    });

    it('answers 403 to an integration key on Admin routes', async () => {
      const integration = await installed();
      const key = await newKey(t.botId, integration.id);
      const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
        t.call({ method, url, token: key.value, workspaceId: t.workspaceId, body });
      const bots = expectError(await call('GET', '/v1/admin/bots'), 403, 'Forbidden');
      expect(bots.message).toContain('integration key');
      expectError(await call('GET', `/v1/admin/bots/${t.botId}`), 403, 'Forbidden');
      expectError(await call('GET', '/v1/admin/integrations'), 403, 'Forbidden');
      expectError(await call('POST', `${installUrl(t.botId, integration.id)}/keys`, {}), 403, 'Forbidden');
    });

    it('revokes one key on request; it then no longer resolves, and revoking again answers 404', async () => {
      const integration = await installed();
      const key = await newKey(t.botId, integration.id);
      const other = await newKey(t.botId, integration.id);
      const del = await t.asOwner('DELETE', `${installUrl(t.botId, integration.id)}/keys/${key.id}`);
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({});
      expect(await t.app.services.identity.resolver.resolveToken(key.value)).toBeUndefined();
      expect(await t.app.services.identity.resolver.resolveToken(other.value)).toBeDefined();
      expectError(
        await t.asOwner('DELETE', `${installUrl(t.botId, integration.id)}/keys/${key.id}`),
        404,
        'ResourceNotFound',
      );
    });

    it('answers 404 when revoking a bot access key through the integration key path', async () => {
      const integration = await installed();
      const keys = (await t.asOwner('GET', `/v1/admin/bots/${t.botId}/access-keys`)).json() as {
        keys: TokenBody[];
      };
      const botKeyId = keys.keys[0]?.id ?? 'missing';
      expectError(
        await t.asOwner('DELETE', `${installUrl(t.botId, integration.id)}/keys/${botKeyId}`),
        404,
        'ResourceNotFound',
      );
      expect(await t.app.services.identity.resolver.resolveToken(t.botKey)).toMatchObject({ kind: 'bot' });
    });

    it('uninstalling revokes every key of the integration on that bot', async () => {
      const botId = await newBot(t, 'Uninstall bot');
      const integration = await installed(botId);
      const k1 = await newKey(botId, integration.id);
      const k2 = await newKey(botId, integration.id);
      const del = await t.asOwner('DELETE', installUrl(botId, integration.id));
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({});
      expect(await t.app.services.identity.resolver.resolveToken(k1.value)).toBeUndefined();
      expect(await t.app.services.identity.resolver.resolveToken(k2.value)).toBeUndefined();
      expect((await t.asOwner('GET', `/v1/admin/bots/${botId}/integrations`)).json()).toEqual({
        integrations: [],
      });
      expectError(
        await t.asOwner('GET', `${installUrl(botId, integration.id)}/keys`),
        404,
        'ResourceNotFound',
      );
      // Reinstalling does not bring the old keys back.
      expect((await t.asOwner('PUT', installUrl(botId, integration.id))).statusCode).toBe(200);
      expect(await t.app.services.identity.resolver.resolveToken(k1.value)).toBeUndefined();
      expect((await t.asOwner('GET', `${installUrl(botId, integration.id)}/keys`)).json()).toEqual({
        keys: [],
      });
    });

    it('keeps the keys of the same integration on another bot when uninstalled from one', async () => {
      const botA = await newBot(t, 'A');
      const botB = await newBot(t, 'B');
      const integration = await createIntegration();
      await t.asOwner('PUT', installUrl(botA, integration.id));
      await t.asOwner('PUT', installUrl(botB, integration.id));
      const keyA = await newKey(botA, integration.id);
      const keyB = await newKey(botB, integration.id);
      await t.asOwner('DELETE', installUrl(botA, integration.id));
      expect(await t.app.services.identity.resolver.resolveToken(keyA.value)).toBeUndefined();
      expect(await t.app.services.identity.resolver.resolveToken(keyB.value)).toMatchObject({ botId: botB });
    });

    it('answers 404 to key operations of an integration that is not installed on the bot', async () => {
      const integration = await createIntegration();
      const url = `${installUrl(t.botId, integration.id)}/keys`;
      expectError(await t.asOwner('GET', url), 404, 'ResourceNotFound');
      expectError(await t.asOwner('POST', url, {}), 404, 'ResourceNotFound');
      expectError(await t.asOwner('DELETE', `${url}/tok_nope`), 404, 'ResourceNotFound');
    });

    it('forbids a viewer to create or revoke keys (403) but lets it list them', async () => {
      const viewer = await t.addMember('viewer');
      const integration = await installed();
      const key = await newKey(t.botId, integration.id);
      const url = `${installUrl(t.botId, integration.id)}/keys`;
      expect((await as(viewer)('GET', url)).statusCode).toBe(200);
      expectError(await as(viewer)('POST', url, {}), 403, 'Forbidden');
      expectError(await as(viewer)('DELETE', `${url}/${key.id}`), 403, 'Forbidden');
      expect(await t.app.services.identity.resolver.resolveToken(key.value)).toBeDefined();
    });

    it('rejects an expiry in the past with 400 naming expiresAt', async () => {
      const integration = await installed();
      const res = await t.asOwner('POST', `${installUrl(t.botId, integration.id)}/keys`, {
        expiresAt: '1999-12-31T23:59:59Z',
      });
      expectInvalid(res, 'InvalidPayload', 'expiresAt');
    });
  });
});
