import type { BotReplies, BotSummary, ListBotsResponse } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { type Parley, startParley } from '../../testkit/src/client/servers.js';
import { useParley } from '../../testkit/src/client/use-parley.js';
import { signInCookie } from '../../testkit/src/shared/sessions.js';
import type { Client } from './client.js';
import {
  AlreadyExistsError,
  ApiError,
  ForbiddenError,
  isApiError,
  ResourceGoneError,
  ResourceNotFoundError,
  UnauthorizedError,
} from './errors.js';

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

describe('the client against the real server: bots', () => {
  let p: Parley;
  let client: Client;
  let requests = 0;
  const made: string[] = [];

  beforeAll(async () => {
    p = await startParley();
    client = p.client({
      fetch: (input, init) => {
        requests += 1;
        return fetch(input, init);
      },
    });
    // 11 bots + the bootstrap demo bot = 12 bots: three pages of 5.
    for (let i = 0; i < 11; i++) {
      const { bot } = await client.createBot({ name: `paging ${String(i).padStart(2, '0')}` });
      made.push(bot.id);
    }
  });
  afterAll(() => p.close());

  it('answers one page when awaited and walks the next pages with meta.nextToken', async () => {
    const first = await client.listBots({ pageSize: 5 });
    expectTypeOf(first).toEqualTypeOf<ListBotsResponse>();
    expect(first.bots).toHaveLength(5);
    expect(first.meta.nextToken).toEqual(expect.any(String));
    const ids = first.bots.map((b) => b.id);
    let token = first.meta.nextToken;
    let pages = 1;
    while (token) {
      const page = await client.listBots({ pageSize: 5, nextToken: token });
      ids.push(...page.bots.map((b) => b.id));
      token = page.meta.nextToken;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(new Set(ids).size).toBe(12);
    expect(ids).toEqual(expect.arrayContaining([...made, p.botId]));
  });

  it('iterates every bot across pages with for await, one request per page', async () => {
    const before = requests;
    const ids: string[] = [];
    for await (const bot of client.list.bots({ pageSize: 5 })) {
      expectTypeOf(bot).toEqualTypeOf<BotSummary>();
      ids.push(bot.id);
    }
    expect(requests - before).toBe(3);
    expect(new Set(ids).size).toBe(12);
    expect(ids).toEqual(expect.arrayContaining([...made, p.botId]));

    const again: string[] = [];
    for await (const bot of client.listBots({ pageSize: 5 })) again.push(bot.id);
    expect(again).toEqual(ids);
  });

  it('walks pages, collects with a limit, and starts from a given nextToken', async () => {
    const pages = [];
    for await (const page of client.listBots({ pageSize: 5 }).pages()) pages.push(page.bots.length);
    expect(pages).toEqual([5, 5, 2]);

    const before = requests;
    const seven = await client.list.bots({ pageSize: 5 }).collect({ limit: 7 });
    expect(seven).toHaveLength(7);
    expect(requests - before).toBe(2);

    const first = await client.listBots({ pageSize: 5 });
    const rest = await client.list.bots({ pageSize: 5, nextToken: first.meta.nextToken as string }).collect();
    expect(rest).toHaveLength(7);
  });

  it('sends nothing until a page promise is awaited or iterated, and fetches the first page once', async () => {
    const before = requests;
    const pending = client.listBots({ pageSize: 5 });
    expect(requests).toBe(before);
    const page = await pending;
    const ids: string[] = [];
    for await (const bot of pending) ids.push(bot.id);
    expect(ids.slice(0, 5)).toEqual(page.bots.map((b) => b.id));
    expect(requests - before).toBe(3);
  });

  it('sorts and filters by name', async () => {
    const asc = await client.list.bots({ sortField: 'name', sortDirection: 'asc', name: 'paging' }).collect();
    expect(asc.map((b) => b.name)).toEqual(made.map((_, i) => `paging ${String(i).padStart(2, '0')}`));
  });

  it('filters by tags with any-of, not and exists, encoded with dots and repeated keys', async () => {
    const tag = unique('t');
    const ids: Record<string, string> = {};
    for (const team of ['a', 'b', 'c']) {
      ids[team] = (await client.createBot({ name: `tagged ${team}`, tags: { [tag]: team } })).bot.id;
    }
    const names = async (tags: Parameters<Client['listBots']>[0]) =>
      (await client.list.bots(tags).collect()).map((b) => b.name).sort();
    expect(await names({ tags: { [tag]: 'a' } })).toEqual(['tagged a']);
    expect(await names({ tags: { [tag]: ['a', 'b'] } })).toEqual(['tagged a', 'tagged b']);
    expect(await names({ tags: { [tag]: { in: ['b', 'c'] } } })).toEqual(['tagged b', 'tagged c']);
    expect(await names({ tags: { [tag]: { exists: true, not: 'a' } } })).toEqual(['tagged b', 'tagged c']);
    expect(await names({ tags: { [tag]: { exists: true, not: ['a', 'c'] } } })).toEqual(['tagged b']);
    expect((await names({ tags: { [tag]: { exists: false } } })).length).toBe(12);
    for (const id of Object.values(ids)) await client.deleteBot({ id });
  });

  it('creates, reads, updates and deletes a bot', async () => {
    const { bot } = await client.createBot({ name: 'crud', description: 'd', tags: { env: 'x', team: 'y' } });
    expect(bot).toMatchObject({ name: 'crud', description: 'd', tags: { env: 'x', team: 'y' }, dev: false });
    expect((await client.getBot({ id: bot.id })).bot).toEqual(bot);
    const updated = await client.updateBot({ id: bot.id, name: 'crud 2', tags: { env: null, team: 'z' } });
    expect(updated.bot).toMatchObject({ id: bot.id, name: 'crud 2', tags: { team: 'z' } });
    expect(updated.bot.tags).not.toHaveProperty('env');
    // Source links: public by default, set on update, shown by list.
    expect(bot.sourceLinks).toBe('public');
    const linked = await client.updateBot({ id: bot.id, sourceLinks: 'all' });
    expect(linked.bot.sourceLinks).toBe('all');
    const listed = await client.listBots({ name: 'crud 2' });
    expect(listed.bots.map((b) => b.sourceLinks)).toEqual(['all']);
    // Reply texts: none of its own by default, set (and replaced as a whole) on update.
    expect(bot.replies).toEqual({});
    const replies: BotReplies = { notFound: 'Ask [us](mailto:help@example.com).', intro: 'Ours:' };
    expect((await client.updateBot({ id: bot.id, replies })).bot.replies).toEqual(replies);
    const bad = await client
      .updateBot({ id: bot.id, replies: { intro: '[x](javascript:1)' } })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, type: 'InvalidPayload' });
    expect((await client.getBot({ id: bot.id })).bot.replies).toEqual(replies);
    expect(await client.deleteBot({ id: bot.id })).toEqual({});
    const error = await client.getBot({ id: bot.id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
  });

  it('creates, lists and revokes bot access keys', async () => {
    const { key } = await client.createBotAccessKey({ id: p.botId, note: 'ci' });
    expect(key.value).toMatch(/^bak_/);
    const listed = await client.listBotAccessKeys({ id: p.botId });
    expect(listed.keys.map((k) => k.id)).toContain(key.id);
    expect(listed.keys.find((k) => k.id === key.id)).not.toHaveProperty('value');
    expect(await client.revokeBotAccessKey({ id: p.botId, keyId: key.id })).toEqual({});
    expect((await client.listBotAccessKeys({ id: p.botId })).keys.map((k) => k.id)).not.toContain(key.id);
  });

  it('replaces and reads the webchat configuration', async () => {
    const configuration = { botName: 'Helper', color: '#3276EA', radius: 2 };
    expect(await client.updateBotWebchat({ id: p.botId, configuration })).toEqual({ configuration });
    expect(await client.getBotWebchat({ id: p.botId })).toEqual({ configuration });
  });

  it("previews the bot's reply to a question without storing it", async () => {
    const preview = await client.previewBotAnswer({ id: p.botId, question: 'Where is the moon base?' });
    expect(preview).toMatchObject({ found: false, mode: 'not_found', sources: [], replyMode: 'knowledge' });
    expect(preview.text).toMatch(/couldn't find anything/);
    const error = await client.previewBotAnswer({ id: p.botId, question: ' ' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
  });

  it("reads a bot's request log, newest first, a page or every line", async () => {
    await client.getBot({ id: p.botId });
    const page = await client.getBotLogs({ id: p.botId, pageSize: 2 });
    expect(page.logs.length).toBe(2);
    expect(page.logs[0]).toMatchObject({ method: expect.any(String), statusCode: expect.any(Number) });
    const all = await client.list.botLogs({ id: p.botId, pageSize: 2 }).collect();
    expect(all.length).toBeGreaterThan(2);
    const times = all.map((l) => l.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("reads a bot's usage: the bytes its files store against the per-bot quota", async () => {
    const { usages } = await client.listBotUsages({ id: p.botId });
    expect(usages).toContainEqual(
      expect.objectContaining({ id: p.botId, type: 'storage_count', value: expect.any(Number) }),
    );
    await expect(client.listBotUsages({ id: 'bot_missing' })).rejects.toBeInstanceOf(ResourceNotFoundError);
  });

  it("reads a bot's insights for a period, 30 days by default, and names a bad period", async () => {
    const { insights } = await client.getBotInsights({ id: p.botId, period: '7d' });
    expect(insights).toMatchObject({ botId: p.botId, period: '7d', replies: expect.any(Object) });
    expect(insights.days).toHaveLength(7);
    expect((await client.getBotInsights({ id: p.botId })).insights.period).toBe('30d');
    const error = await client.getBotInsights({ id: p.botId, period: '1y' as '7d' }).catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(400);
    await expect(client.getBotInsights({ id: 'bot_missing' })).rejects.toBeInstanceOf(ResourceNotFoundError);
  });
});

describe('the client against the real server: workspaces, members, account, integrations', () => {
  const p = useParley();

  it('creates, lists, reads, updates and deletes a workspace, naming it in x-workspace-id', async () => {
    const ws = await p.admin.createWorkspace({ name: 'Second' });
    expect(ws).toMatchObject({ id: expect.stringMatching(/^wkspace_/), name: 'Second', role: 'owner' });
    const all = await p.admin.list.workspaces().collect();
    expect(all.map((w) => w.id)).toEqual(expect.arrayContaining([p.workspaceId, ws.id]));
    const onePage = await p.admin.listWorkspaces({ pageSize: 1 });
    expect(onePage.workspaces).toHaveLength(1);
    expect(onePage.meta.nextToken).toBeDefined();

    // The client's default workspace is the bootstrap one; the path's workspace wins.
    expect(await p.admin.getWorkspace({ id: ws.id })).toMatchObject({ id: ws.id, botCount: 0 });
    const updated = await p.admin.updateWorkspace({
      id: ws.id,
      about: 'Testing',
      website: 'https://x.example',
    });
    expect(updated).toMatchObject({ id: ws.id, about: 'Testing', website: 'https://x.example' });
    const usages = await p.admin.listWorkspaceUsages({ id: ws.id });
    expect(usages.usages.length).toBeGreaterThan(0);
    expect(usages.usages[0]).toMatchObject({ id: ws.id, type: expect.any(String) });

    expect(await p.admin.deleteWorkspace({ id: ws.id })).toEqual({});
    const gone = await p.admin.getWorkspace({ id: ws.id }).catch((e: unknown) => e);
    expect(isApiError(gone)).toBe(true);
    expect(gone).toBeInstanceOf(UnauthorizedError);
  });

  it('overrides the workspace per call and with p.admin.with', async () => {
    const ws = await p.admin.createWorkspace({ name: 'Third' });
    const { bot } = await p.admin.createBot({ name: 'in third' }, { workspaceId: ws.id });
    const page = await p.admin.listBots({}, { workspaceId: ws.id });
    expect(page.bots.map((b) => b.id)).toEqual([bot.id]);
    const third = p.admin.with({ workspaceId: ws.id });
    expect(third.workspaceId).toBe(ws.id);
    expect((await third.list.bots().collect()).map((b) => b.id)).toEqual([bot.id]);
    expect((await p.admin.list.bots().collect()).map((b) => b.id)).not.toContain(bot.id);
  });

  it('reads audit records newest first, a page or all', async () => {
    await p.admin.createBot({ name: 'audited' });
    const page = await p.admin.getAuditRecords({ id: p.workspaceId, pageSize: 1 });
    expect(page.records).toHaveLength(1);
    expect(page.records[0]).toMatchObject({ action: 'CREATE_BOT', resourceName: 'audited' });
    const all = await p.admin.list.auditRecords({ id: p.workspaceId, pageSize: 2 }).collect();
    expect(all.map((r) => r.action)).toContain('CREATE_WORKSPACE');
  });

  it('reads audit records of one action or one actor', async () => {
    const { records } = await p.admin.getAuditRecords({ id: p.workspaceId, action: 'CREATE_WORKSPACE' });
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.action === 'CREATE_WORKSPACE')).toBe(true);
    const none = await p.admin.getAuditRecords({ id: p.workspaceId, userId: 'user_nobody' });
    expect(none.records).toEqual([]);
  });

  it('invites a member who accepts, works with the new token, changes role and is removed', async () => {
    const email = `${unique('dev')}@example.com`;
    const added = await p.admin.addWorkspaceMember({ email, role: 'developer' });
    expect(added).toMatchObject({ email, role: 'developer', status: 'invited' });
    const code = added.invitation?.code as string;
    expect(code).toEqual(expect.any(String));

    const anonymous = p.client({ token: undefined, workspaceId: undefined });
    const password = 'the dev one password';
    const accepted = await anonymous.acceptInvitation({ code, displayName: 'Dev One', password });
    expect(accepted).toEqual({ email, workspaceId: p.workspaceId });
    const again = await anonymous.acceptInvitation({ code, password }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ResourceGoneError);

    // Then the person signs in, and makes a token with the session (a script's way in).
    const cookie = await signInCookie(p.apiUrl, email, password);
    const session = p.client({
      token: undefined,
      workspaceId: undefined,
      headers: { cookie, origin: p.apiUrl },
    });
    const { pat } = await session.createPersonalAccessToken({ note: 'scripts' });
    const dev = p.client({ token: pat.value, workspaceId: accepted.workspaceId });
    expect(await dev.getWorkspaceMember()).toMatchObject({
      id: added.id,
      role: 'developer',
      status: 'active',
    });
    expect((await dev.getAccount()).account).toMatchObject({ email, displayName: 'Dev One' });
    const { bot } = await dev.createBot({ name: 'by dev' });
    expect(bot.createdBy).toBe((await dev.getAccount()).account.id);

    const members = await p.admin.list.workspaceMembers({ pageSize: 1 }).collect();
    expect(members.map((m) => m.email)).toEqual(expect.arrayContaining([email, p.owner.email]));
    expect(await p.admin.getWorkspaceMemberById({ id: added.id })).toMatchObject({ email });

    expect(await p.admin.updateWorkspaceMember({ id: added.id, role: 'viewer' })).toMatchObject({
      role: 'viewer',
    });
    await expect(dev.createBot({ name: 'no longer' })).rejects.toBeInstanceOf(ForbiddenError);
    expect(await p.admin.removeWorkspaceMember({ id: added.id })).toEqual({});
    await expect(dev.listBots()).rejects.toBeInstanceOf(UnauthorizedError);

    const duplicate = await p.admin
      .addWorkspaceMember({ email: p.owner.email, role: 'viewer' })
      .catch((e) => e);
    expect(duplicate).toBeInstanceOf(AlreadyExistsError);
  });

  it('reads and updates the account and manages personal access tokens', async () => {
    const { account } = await p.admin.getAccount();
    expect(account.email).toBe(p.owner.email);
    expect((await p.admin.updateAccount({ displayName: 'The Owner' })).account.displayName).toBe('The Owner');

    const { pat } = await p.admin.createPersonalAccessToken({ note: 'ci' });
    expect(pat.value).toMatch(/^pat_/);
    const listed = await p.admin.listPersonalAccessTokens();
    expect(listed.pats.map((t) => t.id)).toContain(pat.id);
    const other = p.admin.with({ token: pat.value });
    expect((await other.getAccount()).account.id).toBe(account.id);
    expect(await p.admin.deletePersonalAccessToken({ id: pat.id })).toEqual({});
    await expect(other.getAccount()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('creates an integration, installs it on a bot, manages its keys, and removes it', async () => {
    const name = unique('crm');
    const { integration } = await p.admin.createIntegration({ name, description: 'CRM sync' });
    expect(integration).toMatchObject({ name, workspaceId: p.workspaceId });
    expect((await p.admin.getIntegration({ id: integration.id })).integration).toEqual(integration);
    const all = await p.admin.list.integrations({ pageSize: 1 }).collect();
    expect(all.map((i) => i.id)).toContain(integration.id);
    await expect(p.admin.createIntegration({ name })).rejects.toBeInstanceOf(AlreadyExistsError);

    const ref = { id: p.botId, integrationId: integration.id };
    expect((await p.admin.installIntegration(ref)).installation).toMatchObject({
      ...{ botId: p.botId },
      name,
    });
    expect(
      (await p.admin.listBotIntegrations({ id: p.botId })).integrations.map((i) => i.integrationId),
    ).toContain(integration.id);
    const { key } = await p.admin.createIntegrationKey({ ...ref, note: 'sync' });
    expect(key.value).toMatch(/^iak_/);
    expect((await p.admin.listIntegrationKeys(ref)).keys.map((k) => k.id)).toEqual([key.id]);
    expect(await p.admin.revokeIntegrationKey({ ...ref, keyId: key.id })).toEqual({});
    expect((await p.admin.listIntegrationKeys(ref)).keys).toEqual([]);
    expect(await p.admin.uninstallIntegration(ref)).toEqual({});
    expect(await p.admin.deleteIntegration({ id: integration.id })).toEqual({});
    const gone = await p.admin.getIntegration({ id: integration.id }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ResourceNotFoundError);
    expect(gone).toBeInstanceOf(ApiError);
  });
});
