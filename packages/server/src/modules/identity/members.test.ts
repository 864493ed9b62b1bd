import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminCall } from '../../../../testkit/src/server/admin-calls.js';
import {
  acceptInvitation,
  accountCaller,
  caller,
  expectInvalid,
  uniqueEmail,
  withTestApp,
} from '../../../../testkit/src/server/admin-calls.js';
import { readAllPages } from '../../../../testkit/src/server/admin-pages.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { createTestApp, type TestApp, testDatabases } from '../../../../testkit/src/server/harness.js';
import { badFields, expectError } from '../../../../testkit/src/server/wire.js';

/** The password invitees choose in these tests. */
const PASSWORD = 'an invitee password';

interface MemberBody {
  id: string;
  userId?: string;
  email: string;
  displayName?: string;
  role: string;
  createdAt: string;
  status: 'active' | 'invited';
  invitation?: { code: string; expiresAt: string };
}

describe('workspace members', () => {
  const t = useTestApp();

  /** Calls with a member's token in the bootstrap workspace. */
  const as = (m: { token: string }) => caller(t, m.token);

  /** Invites an e-mail as the owner (of the bootstrap workspace unless `app` says) and answers the new member. */
  async function invite(role: string, email = uniqueEmail(role), app: TestApp = t): Promise<MemberBody> {
    const res = await app.asOwner('POST', '/v1/admin/workspace-members', { email, role });
    expect(res.statusCode).toBe(201);
    return res.json() as MemberBody;
  }

  const accept = (code: string, displayName?: string, password = PASSWORD) =>
    acceptInvitation(t, { code, password, ...(displayName ? { displayName } : {}) });

  /** Signs in (from an address of the test's own) and answers the session cookie. */
  async function signIn(email: string, password = PASSWORD, address = '10.9.0.1') {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/account/sessions',
      remoteAddress: address,
      payload: { email, password },
    });
    return { res, cookie: res.cookies.find((x) => x.name === 'parley_session')?.value ?? '' };
  }

  /** Gives a member a role, calling as `call` (the owner, a member…). */
  const putRole = (call: AdminCall, memberId: string, role: string) =>
    call('PUT', `/v1/admin/workspace-members/${memberId}`, { role });

  async function ownerMemberId(): Promise<string> {
    const me = await t.asOwner('GET', '/v1/admin/workspace-members/me');
    return (me.json() as MemberBody).id;
  }

  describe('GET /v1/admin/workspace-members', () => {
    it('lists the members of the workspace page by page, without duplicates', async () => {
      await withTestApp(async (app) => {
        const added: string[] = [];
        for (const role of ['viewer', 'developer', 'manager', 'billing']) {
          const res = await app.asOwner('POST', '/v1/admin/workspace-members', {
            email: uniqueEmail(role),
            role,
          });
          expect(res.statusCode).toBe(201);
          added.push((res.json() as MemberBody).id);
        }
        const { items: seen, pages } = await readAllPages<MemberBody>(
          (q) => app.asOwner('GET', `/v1/admin/workspace-members?${q}`),
          'members',
          2,
        );
        expect(pages).toBe(3);
        const ids = seen.map((m) => m.id);
        expect(new Set(ids).size).toBe(5);
        expect(ids).toEqual(expect.arrayContaining(added));
        expect(seen).toContainEqual(
          expect.objectContaining({
            userId: app.owner.accountId,
            email: app.owner.email,
            role: 'owner',
            status: 'active',
          }),
        );
        for (const m of seen.filter((x) => x.userId !== app.owner.accountId)) {
          expect(m.status).toBe('invited');
          expect(m).not.toHaveProperty('userId');
          expect(m).not.toHaveProperty('invitation');
        }
      });
    });

    it('lets a viewer and a billing member read the list', async () => {
      for (const role of ['viewer', 'billing'] as const) {
        const m = await t.addMember(role);
        const res = await as(m)('GET', '/v1/admin/workspace-members');
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ members: expect.any(Array), meta: expect.any(Object) });
      }
    });

    it("does not show another workspace's members", async () => {
      const other = await t.otherTenant();
      const res = await t.asOwner('GET', '/v1/admin/workspace-members?pageSize=100');
      const emails = (res.json() as { members: MemberBody[] }).members.map((m) => m.email);
      expect(emails).not.toContain(other.email);
    });

    it('answers 401 without x-workspace-id', async () => {
      const res = await t.call({ method: 'GET', url: '/v1/admin/workspace-members', token: t.owner.token });
      expectError(res, 401, 'Unauthorized');
    });

    it('answers 403 to a bot access key', async () => {
      const res = await caller(t, t.botKey)('GET', '/v1/admin/workspace-members');
      expectError(res, 403, 'Forbidden');
    });
  });

  describe('POST /v1/admin/workspace-members', () => {
    it('adds an unknown e-mail as an invited member with a one-time invitation, at top level', async () => {
      const email = uniqueEmail('Invitee').toUpperCase();
      const res = await t.asOwner('POST', '/v1/admin/workspace-members', { email, role: 'developer' });
      expect(res.statusCode).toBe(201);
      const m = res.json() as MemberBody;
      expect(m).toMatchObject({
        email: email.toLowerCase(),
        role: 'developer',
        status: 'invited',
        invitation: { code: expect.stringMatching(/^inv_/), expiresAt: expect.any(String) },
      });
      expect(m.id).toMatch(/^member_/);
      expect(m).not.toHaveProperty('userId');
      expect(m).not.toHaveProperty('member');
      const ttl = Date.parse(m.invitation?.expiresAt ?? '') - Date.now();
      expect(ttl).toBeGreaterThan(6 * 86_400_000);
      expect(ttl).toBeLessThanOrEqual(7 * 86_400_000);
    });

    it('invites an e-mail an account already holds: no role until that account accepts, signed in', async () => {
      const email = uniqueEmail('existing');
      const { account, token } = await t.app.services.identity.createAccount(email, 'Existing Person');
      const res = await t.asOwner('POST', '/v1/admin/workspace-members', { email, role: 'viewer' });
      expect(res.statusCode).toBe(201);
      const m = res.json() as MemberBody;
      expect(m).toMatchObject({ email, role: 'viewer', status: 'invited' });
      expect(m.invitation?.code).toMatch(/^inv_/);
      const meAs = () => caller(t, token.value)('GET', '/v1/admin/workspace-members/me');
      expectError(await meAs(), 401, 'Unauthorized');
      const accepted = await acceptInvitation(t, { code: m.invitation?.code }, token.value);
      expect(accepted.statusCode).toBe(201);
      expect(accepted.json()).toEqual({
        account: expect.objectContaining({ id: account.id, email }),
        email,
        workspaceId: t.workspaceId,
      });
      const me = await meAs();
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({
        id: m.id,
        role: 'viewer',
        status: 'active',
        displayName: 'Existing Person',
      });
    });

    it('rejects an e-mail that is already a member with 409 AlreadyExists, whatever its case', async () => {
      const email = uniqueEmail('dup');
      await invite('viewer', email);
      const again = await t.asOwner('POST', '/v1/admin/workspace-members', { email, role: 'developer' });
      expectError(again, 409, 'AlreadyExists');
      const upper = await t.asOwner('POST', '/v1/admin/workspace-members', {
        email: email.toUpperCase(),
        role: 'viewer',
      });
      expectError(upper, 409, 'AlreadyExists');
      const owner = await t.asOwner('POST', '/v1/admin/workspace-members', {
        email: t.owner.email,
        role: 'viewer',
      });
      expectError(owner, 409, 'AlreadyExists');
    });

    it('rejects an unknown role with 400 naming role', async () => {
      const res = await t.asOwner('POST', '/v1/admin/workspace-members', {
        email: uniqueEmail('r'),
        role: 'superuser',
      });
      expectInvalid(res, 'InvalidPayload', 'role');
    });

    it('rejects a malformed e-mail with 400 naming email', async () => {
      const res = await t.asOwner('POST', '/v1/admin/workspace-members', { email: 'nobody', role: 'viewer' });
      expectInvalid(res, 'InvalidPayload', 'email');
    });

    it('rejects a body without e-mail or role with 400 naming both', async () => {
      const res = await t.asOwner('POST', '/v1/admin/workspace-members', {});
      const body = expectError(res, 400, 'InvalidPayload');
      expect(badFields(body)).toEqual(expect.arrayContaining(['email', 'role']));
    });

    it.each(['manager', 'developer', 'viewer', 'billing'] as const)(
      'forbids a %s to add members (403)',
      async (role) => {
        const m = await t.addMember(role);
        const email = uniqueEmail(`by-${role}`);
        const res = await as(m)('POST', '/v1/admin/workspace-members', {
          email,
          role: 'viewer',
        });
        const body = expectError(res, 403, 'Forbidden');
        expect(body.message).toContain(role);
        const list = await t.asOwner('GET', '/v1/admin/workspace-members?pageSize=100');
        expect((list.json() as { members: MemberBody[] }).members.map((x) => x.email)).not.toContain(email);
      },
    );

    it('lets an administrator add a member but not an owner (403)', async () => {
      const admin = await t.addMember('administrator');
      const ok = await as(admin)('POST', '/v1/admin/workspace-members', {
        email: uniqueEmail('by-admin'),
        role: 'administrator',
      });
      expect(ok.statusCode).toBe(201);
      expect(ok.json()).toMatchObject({ role: 'administrator', status: 'invited' });
      const owner = await as(admin)('POST', '/v1/admin/workspace-members', {
        email: uniqueEmail('owner-by-admin'),
        role: 'owner',
      });
      const body = expectError(owner, 403, 'Forbidden');
      expect(body.message).toContain('owner');
    });

    it('lets an owner add another owner', async () => {
      const res = await t.asOwner('POST', '/v1/admin/workspace-members', {
        email: uniqueEmail('co-owner'),
        role: 'owner',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ role: 'owner', status: 'invited' });
    });
  });

  describe('GET /v1/admin/workspace-members/me and /{id}', () => {
    it("answers the caller's own membership", async () => {
      const res = await t.asOwner('GET', '/v1/admin/workspace-members/me');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        userId: t.owner.accountId,
        email: t.owner.email,
        role: 'owner',
        status: 'active',
        displayName: 'Owner',
      });
    });

    it("answers a member's own role to that member", async () => {
      const dev = await t.addMember('developer');
      const res = await as(dev)('GET', '/v1/admin/workspace-members/me');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: dev.memberId,
        userId: dev.accountId,
        email: dev.email,
        role: 'developer',
        status: 'active',
      });
    });

    it('answers 403 to a bot access key, which is no member', async () => {
      const res = await caller(t, t.botKey)('GET', '/v1/admin/workspace-members/me');
      expectError(res, 403, 'Forbidden');
    });

    it('answers one member by id, and 404 for an unknown id', async () => {
      const m = await invite('viewer');
      const res = await t.asOwner('GET', `/v1/admin/workspace-members/${m.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: m.id, email: m.email, role: 'viewer', status: 'invited' });
      expect(res.json()).not.toHaveProperty('invitation');
      const missing = await t.asOwner('GET', '/v1/admin/workspace-members/member_nope');
      expectError(missing, 404, 'ResourceNotFound');
    });
  });

  describe('PUT /v1/admin/workspace-members/{id}', () => {
    it("changes a member's role, and the member's rights follow", async () => {
      const m = await t.addMember('viewer');
      const before = await as(m)('POST', '/v1/admin/bots', { name: 'by viewer' });
      expectError(before, 403, 'Forbidden');
      const res = await putRole(t.asOwner, m.memberId, 'developer');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: m.memberId, role: 'developer', status: 'active' });
      const after = await as(m)('POST', '/v1/admin/bots', { name: 'by promoted viewer' });
      expect(after.statusCode).toBe(201);
    });

    it('rejects an unknown role with 400 naming role', async () => {
      const m = await invite('viewer');
      const res = await putRole(t.asOwner, m.id, 'god');
      expectInvalid(res, 'InvalidPayload', 'role');
    });

    it('answers 404 for an unknown member', async () => {
      const res = await t.asOwner('PUT', '/v1/admin/workspace-members/member_nope', { role: 'viewer' });
      expectError(res, 404, 'ResourceNotFound');
    });

    it('answers 404 for a member of another workspace and leaves it unchanged', async () => {
      await withTestApp(async (app) => {
        const other = await app.addMember('viewer');
        const res = await putRole(t.asOwner, other.memberId, 'administrator');
        expectError(res, 404, 'ResourceNotFound');
      });
    });

    it.each(['manager', 'developer', 'viewer', 'billing'] as const)(
      'forbids a %s to change roles (403)',
      async (role) => {
        const m = await t.addMember(role);
        const target = await invite('viewer');
        const res = await putRole(as(m), target.id, 'manager');
        expectError(res, 403, 'Forbidden');
        const self = await putRole(as(m), m.memberId, 'administrator');
        expectError(self, 403, 'Forbidden');
        const check = await t.asOwner('GET', `/v1/admin/workspace-members/${target.id}`);
        expect(check.json()).toMatchObject({ role: 'viewer' });
      },
    );

    it('lets an administrator change roles below owner but not grant or change the owner role (403)', async () => {
      const admin = await t.addMember('administrator');
      const target = await invite('viewer');
      const ok = await putRole(as(admin), target.id, 'manager');
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ role: 'manager' });
      const grant = await putRole(as(admin), target.id, 'owner');
      expectError(grant, 403, 'Forbidden');
      const self = await putRole(as(admin), admin.memberId, 'owner');
      expectError(self, 403, 'Forbidden');
      const demote = await putRole(as(admin), await ownerMemberId(), 'viewer');
      expectError(demote, 403, 'Forbidden');
      const me = await t.asOwner('GET', '/v1/admin/workspace-members/me');
      expect(me.json()).toMatchObject({ role: 'owner' });
    });

    it('lets an owner grant the owner role', async () => {
      const m = await t.addMember('developer');
      const res = await putRole(t.asOwner, m.memberId, 'owner');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ role: 'owner' });
    });
  });

  describe('DELETE /v1/admin/workspace-members/{id}', () => {
    it('removes a member; its token then gets 401 for that workspace', async () => {
      const m = await t.addMember('developer');
      expect((await as(m)('GET', '/v1/admin/bots')).statusCode).toBe(200);
      const res = await t.asOwner('DELETE', `/v1/admin/workspace-members/${m.memberId}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
      expectError(await as(m)('GET', '/v1/admin/bots'), 401, 'Unauthorized');
      expectError(await as(m)('GET', '/v1/admin/workspace-members/me'), 401, 'Unauthorized');
      expectError(
        await t.asOwner('GET', `/v1/admin/workspace-members/${m.memberId}`),
        404,
        'ResourceNotFound',
      );
      // The account itself still exists: its token still authenticates account routes.
      const account = await t.call({ method: 'GET', url: '/v1/admin/account/me', token: m.token });
      expect(account.statusCode).toBe(200);
    });

    it('removes an invited member, and its invitation code then no longer works (404)', async () => {
      const m = await invite('viewer');
      const res = await t.asOwner('DELETE', `/v1/admin/workspace-members/${m.id}`);
      expect(res.statusCode).toBe(200);
      expectError(await accept(m.invitation?.code ?? ''), 404, 'ResourceNotFound');
    });

    it('answers 404 for an unknown member and for one removed already', async () => {
      expectError(
        await t.asOwner('DELETE', '/v1/admin/workspace-members/member_nope'),
        404,
        'ResourceNotFound',
      );
      const m = await invite('viewer');
      await t.asOwner('DELETE', `/v1/admin/workspace-members/${m.id}`);
      expectError(await t.asOwner('DELETE', `/v1/admin/workspace-members/${m.id}`), 404, 'ResourceNotFound');
    });

    it.each(['manager', 'developer', 'viewer', 'billing'] as const)(
      'forbids a %s to remove members (403)',
      async (role) => {
        const m = await t.addMember(role);
        const target = await invite('viewer');
        const res = await as(m)('DELETE', `/v1/admin/workspace-members/${target.id}`);
        expectError(res, 403, 'Forbidden');
        expect((await t.asOwner('GET', `/v1/admin/workspace-members/${target.id}`)).statusCode).toBe(200);
      },
    );

    it('lets an administrator remove a member but not an owner (403)', async () => {
      const admin = await t.addMember('administrator');
      const target = await invite('developer');
      const ok = await as(admin)('DELETE', `/v1/admin/workspace-members/${target.id}`);
      expect(ok.statusCode).toBe(200);
      const res = await as(admin)('DELETE', `/v1/admin/workspace-members/${await ownerMemberId()}`);
      const body = expectError(res, 403, 'Forbidden');
      expect(body.message).toContain('owner');
      expect((await t.asOwner('GET', '/v1/admin/workspace-members/me')).statusCode).toBe(200);
    });
  });

  describe('the last owner', () => {
    it('cannot be demoted or removed, until another owner exists', async () => {
      await withTestApp(async (app) => {
        const me = (await app.asOwner('GET', '/v1/admin/workspace-members/me')).json() as MemberBody;
        const demote = await putRole(app.asOwner, me.id, 'administrator');
        const body = expectError(demote, 403, 'Forbidden');
        expect(body.message).toContain('owner');
        expectError(await app.asOwner('DELETE', `/v1/admin/workspace-members/${me.id}`), 403, 'Forbidden');

        // An owner who has not accepted the invitation yet does not count.
        const pending = await app.asOwner('POST', '/v1/admin/workspace-members', {
          email: uniqueEmail('pending-owner'),
          role: 'owner',
        });
        expect(pending.statusCode).toBe(201);
        const stillLast = await putRole(app.asOwner, me.id, 'administrator');
        expectError(stillLast, 403, 'Forbidden');

        const second = await app.addMember('owner');
        const ok = await putRole(app.asOwner, me.id, 'administrator');
        expect(ok.statusCode).toBe(200);
        expect(ok.json()).toMatchObject({ role: 'administrator' });

        // Now `second` is the last owner: it cannot remove itself either.
        const self = await caller(app, second.token)(
          'DELETE',
          `/v1/admin/workspace-members/${second.memberId}`,
        );
        expectError(self, 403, 'Forbidden');
        const owners = (
          (await app.asOwner('GET', '/v1/admin/workspace-members?pageSize=100')).json() as {
            members: MemberBody[];
          }
        ).members.filter((m) => m.role === 'owner' && m.status === 'active');
        expect(owners.map((m) => m.id)).toEqual([second.memberId]);
      });
    });

    it('lets one of two owners remove the other', async () => {
      await withTestApp(async (app) => {
        const second = await app.addMember('owner');
        const res = await app.asOwner('DELETE', `/v1/admin/workspace-members/${second.memberId}`);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({});
      });
    });
  });

  describe('POST /v1/admin/account/invitations/accept', () => {
    it('creates the account without a token: the answer names the e-mail and workspace, and the invitee signs in', async () => {
      const m = await invite('manager');
      const res = await accept(m.invitation?.code ?? '', 'New Manager');
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ email: m.email, workspaceId: t.workspaceId });
      const { res: signedIn, cookie } = await signIn(m.email);
      expect(signedIn.statusCode).toBe(201);
      const me = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/workspace-members/me',
        headers: { cookie: `parley_session=${cookie}`, 'x-workspace-id': t.workspaceId },
      });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({
        id: m.id,
        userId: (signedIn.json() as { account: { id: string } }).account.id,
        role: 'manager',
        status: 'active',
        displayName: 'New Manager',
      });
    });

    it('answers 400 naming password to an anonymous accept without one, and leaves the code unused', async () => {
      const m = await invite('viewer');
      expectInvalid(await acceptInvitation(t, { code: m.invitation?.code }), 'InvalidPayload', 'password');
      expect((await accept(m.invitation?.code ?? '')).statusCode).toBe(201);
    });

    it('answers an anonymous accept for an e-mail someone signed into as for a new one; it joins only with its password', async () => {
      const email = uniqueEmail('two-workspaces');
      const here = await invite('developer', email);
      const other = await t.otherTenant();
      const there = await caller(t, other.token, other.workspaceId)('POST', '/v1/admin/workspace-members', {
        email,
        role: 'viewer',
      });
      expect(there.statusCode).toBe(201);
      const joined = await accept((there.json() as MemberBody).invitation?.code ?? '');
      expect(joined.json()).toEqual({ email, workspaceId: other.workspaceId });
      expect((await signIn(email)).res.statusCode).toBe(201);

      // Someone else holding this workspace's code, with another password: the same answer, nothing joins.
      const body = await accept(here.invitation?.code ?? '', undefined, 'not the right password');
      expect(body.statusCode).toBe(201);
      expect(body.json()).toEqual({ email, workspaceId: t.workspaceId });
      const still = await t.asOwner('GET', `/v1/admin/workspace-members/${here.id}`);
      expect(still.json()).toMatchObject({ status: 'invited', role: 'developer' });
      expectError(await accept(here.invitation?.code ?? ''), 410, 'ResourceGone');
      expect((await signIn(email)).res.statusCode).toBe(201);

      // Invited again, the account's own password makes it join.
      expect((await t.asOwner('DELETE', `/v1/admin/workspace-members/${here.id}`)).statusCode).toBe(200);
      const again = await invite('developer', email);
      expect((await accept(again.invitation?.code ?? '')).json()).toEqual({
        email,
        workspaceId: t.workspaceId,
      });
      const now = await t.asOwner('GET', `/v1/admin/workspace-members/${again.id}`);
      expect(now.json()).toMatchObject({ status: 'active', role: 'developer' });
    });

    it('keeps a pending owner invitation for its e-mail alone, even when an account got that e-mail', async () => {
      const email = uniqueEmail('pending-owner');
      const pending = await invite('owner', email);
      const { token } = await t.app.services.identity.createAccount(email, 'Elsewhere');
      const admin = await t.addMember('administrator');
      expectError(
        await as(admin)('POST', '/v1/admin/workspace-members', { email, role: 'viewer' }),
        409,
        'AlreadyExists',
      );
      const still = await t.asOwner('GET', `/v1/admin/workspace-members/${pending.id}`);
      expect(still.json()).toMatchObject({ role: 'owner', status: 'invited' });
      const accepted = await acceptInvitation(t, { code: pending.invitation?.code }, token.value);
      expect(accepted.statusCode).toBe(201);
      const now = await t.asOwner('GET', `/v1/admin/workspace-members/${pending.id}`);
      expect(now.json()).toMatchObject({ role: 'owner', status: 'active' });
    });

    it('answers 410 ResourceGone when the same code is used again', async () => {
      const m = await invite('viewer');
      const code = m.invitation?.code ?? '';
      expect((await accept(code)).statusCode).toBe(201);
      const again = await accept(code);
      expectError(again, 410, 'ResourceGone');
    });

    it('answers 404 for an unknown code', async () => {
      expectError(await accept('inv_unknown'), 404, 'ResourceNotFound');
    });

    it('rejects a body without a code with 400 naming code', async () => {
      expectInvalid(await acceptInvitation(t, {}), 'InvalidPayload', 'code');
    });

    it('answers 410 ResourceGone for a code older than its 7 days', async () => {
      let now = Date.parse('2030-01-01T00:00:00.000Z');
      await withTestApp(
        async (app) => {
          const m = await invite('viewer', uniqueEmail('late'), app);
          expect(m.invitation?.expiresAt).toBe('2030-01-08T00:00:00.000Z');
          now += 8 * 86_400_000;
          const late = await acceptInvitation(app, { code: m.invitation?.code, password: PASSWORD });
          const body = expectError(late, 410, 'ResourceGone');
          expect(body.message).toContain('expired');
          const list = await app.asOwner('GET', `/v1/admin/workspace-members/${m.id}`);
          expect(list.json()).toMatchObject({ status: 'invited' });
        },
        { clock: () => new Date(now) },
      );
    });

    it('accepts a code still within its 7 days', async () => {
      let now = Date.parse('2030-01-01T00:00:00.000Z');
      await withTestApp(
        async (app) => {
          const m = await invite('viewer', uniqueEmail('in-time'), app);
          now += 6 * 86_400_000;
          const ok = await acceptInvitation(app, { code: m.invitation?.code, password: PASSWORD });
          expect(ok.statusCode).toBe(201);
        },
        { clock: () => new Date(now) },
      );
    });
  });
});

const databases = testDatabases();

describe.each(databases)(
  'invitations are accepted only by the person they name: no squatting, no enumeration ($name)',
  ({ url }) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(url ? { databaseUrl: url } : {});
    });
    afterAll(() => t.close());

    const accept = (code: string, token?: string, password: string | undefined = PASSWORD) =>
      acceptInvitation(t, { code, ...(token ? {} : { password }) }, token);
    const signIn = (email: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/admin/account/sessions',
        remoteAddress: '10.8.0.1',
        payload: { email, password },
      });
    const codeOf = (res: { json(): unknown }) => (res.json() as MemberBody).invitation?.code ?? '';

    /** A member of the bootstrap workspace invites `email` into a workspace of its own and redeems the code. */
    async function squat(email: string) {
      const squatter = await t.addMember('viewer');
      const ws = await accountCaller(t, squatter.token)('POST', '/v1/admin/workspaces', { name: 'Mine' });
      expect(ws.statusCode).toBe(201);
      const workspaceId = (ws.json() as { id: string }).id;
      const invite = (address: string) =>
        t.call({
          method: 'POST',
          url: '/v1/admin/workspace-members',
          token: squatter.token,
          workspaceId,
          body: { email: address, role: 'viewer' },
        });
      const invited = await invite(email);
      expect(invited.statusCode).toBe(201);
      const redeemed = await accept(codeOf(invited), undefined, 'the squatter password');
      expect(redeemed.statusCode).toBe(201);
      return { squatter, workspaceId, invite, redeemed };
    }

    it('answers an anonymous accept alike whether the e-mail has an account or not (status and body)', async () => {
      const taken = uniqueEmail('taken');
      await t.app.services.identity.createAccount(taken, 'Has An Account');
      await t.app.services.identity.setPassword(taken, 'the real password');
      const fresh = uniqueEmail('fresh');
      const { invite, workspaceId } = await squat(uniqueEmail('unused'));
      const answers = [];
      for (const email of [taken, fresh]) {
        const res = await accept(codeOf(await invite(email)), undefined, 'a guessed password');
        answers.push({ status: res.statusCode, body: res.json() as Record<string, unknown> });
      }
      expect(answers).toEqual([
        { status: 201, body: { email: taken, workspaceId } },
        { status: 201, body: { email: fresh, workspaceId } },
      ]);
      // The account was not touched: its password still signs in, the guessed one does not.
      expect((await signIn(taken, 'the real password')).statusCode).toBe(201);
      expectError(await signIn(taken, 'a guessed password'), 401, 'Unauthorized');
    });

    it('a squatted account nobody signed into goes to whoever redeems the next invitation from another workspace', async () => {
      const b = await t.otherTenant();
      const email = uniqueEmail('b-admin');
      const { squatter, workspaceId: squatterWorkspace } = await squat(email);
      const added = await caller(t, b.token, b.workspaceId)('POST', '/v1/admin/workspace-members', {
        email,
        role: 'administrator',
      });
      expect(added.json()).toMatchObject({ status: 'invited' });
      const redeemed = await accept(codeOf(added), undefined, 'the real owner password');
      expect(redeemed.json()).toEqual({ email, workspaceId: b.workspaceId });

      // The real owner signs in and is B's administrator; the squatter's password opens nothing any more.
      const owner = await signIn(email, 'the real owner password');
      expect(owner.statusCode).toBe(201);
      const cookie = owner.cookies.find((x) => x.name === 'parley_session')?.value;
      const me = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/workspace-members/me',
        headers: { cookie: `parley_session=${cookie}`, 'x-workspace-id': b.workspaceId },
      });
      expect(me.json()).toMatchObject({ email, role: 'administrator', status: 'active' });
      expectError(await signIn(email, 'the squatter password'), 401, 'Unauthorized');
      // Nothing the squatter set up stays with the account: it left the squatter's workspace.
      const members = await t.call({
        method: 'GET',
        url: '/v1/admin/workspace-members',
        token: squatter.token,
        workspaceId: squatterWorkspace,
      });
      expect((members.json() as { members: MemberBody[] }).members.map((m) => m.email)).not.toContain(email);

      // Signed into now: a further invitation elsewhere cannot reset it.
      const again = await squat(uniqueEmail('unused'));
      const third = await accept(codeOf(await again.invite(email)), undefined, 'the squatter password');
      expect(third.json()).toEqual({ email, workspaceId: again.workspaceId });
      expect((await signIn(email, 'the real owner password')).statusCode).toBe(201);
      expectError(await signIn(email, 'the squatter password'), 401, 'Unauthorized');
    });

    it('the workspace whose invitation made the account cannot reset it with another of its invitations', async () => {
      const email = uniqueEmail('same-workspace');
      const { squatter, workspaceId, invite } = await squat(email);
      const mine = caller(t, squatter.token, workspaceId);
      const listed = (await mine('GET', '/v1/admin/workspace-members')).json() as { members: MemberBody[] };
      const member = listed.members.find((m) => m.email === email);
      expect((await mine('DELETE', `/v1/admin/workspace-members/${member?.id}`)).statusCode).toBe(200);
      const res = await accept(codeOf(await invite(email)), undefined, 'another squatter password');
      expect(res.json()).toEqual({ email, workspaceId });
      expectError(await signIn(email, 'another squatter password'), 401, 'Unauthorized');
    });

    it('a viewer who registered a newcomer’s e-mail and signed in gains no role when an owner later adds that e-mail', async () => {
      const email = uniqueEmail('newhire');
      const { squatter } = await squat(email);
      const session = await signIn(email, 'the squatter password');
      expect(session.statusCode).toBe(201);
      const cookie = session.cookies.find((x) => x.name === 'parley_session')?.value;
      const added = await t.asOwner('POST', '/v1/admin/workspace-members', { email, role: 'administrator' });
      expect(added.json()).toMatchObject({ status: 'invited', role: 'administrator' });
      const here = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/workspace-members',
        headers: { cookie: `parley_session=${cookie}`, 'x-workspace-id': t.workspaceId },
      });
      expectError(here, 401, 'Unauthorized');
      // Nobody but the inviting administrator ever sees the code: not in the member list, not by id.
      const list = await caller(t, squatter.token)('GET', '/v1/admin/workspace-members');
      expect(list.statusCode).toBe(200);
      expect(JSON.stringify(list.json())).not.toContain('inv_');
    });

    it('refuses an invitation accepted with another account’s token (403) or a bot key (403), and changes nothing', async () => {
      const email = uniqueEmail('named');
      const invited = await t.asOwner('POST', '/v1/admin/workspace-members', { email, role: 'developer' });
      const m = invited.json() as MemberBody;
      const someone = await t.addMember('viewer');
      const wrong = expectError(await accept(m.invitation?.code ?? '', someone.token), 403, 'Forbidden');
      expect(wrong.message).toContain(`This invitation is for ${email}`);
      expectError(await accept(m.invitation?.code ?? '', t.botKey), 403, 'Forbidden');
      expectError(await accept(m.invitation?.code ?? '', 'pat_not_a_real_token'), 401, 'Unauthorized');
      const still = await t.asOwner('GET', `/v1/admin/workspace-members/${m.id}`);
      expect(still.json()).toMatchObject({ status: 'invited' });
      // The code still works for the person it names.
      const joined = await accept(m.invitation?.code ?? '');
      expect(joined.json()).toEqual({ email, workspaceId: t.workspaceId });
    });
  },
);
