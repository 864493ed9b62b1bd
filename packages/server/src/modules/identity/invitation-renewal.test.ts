import { describe, expect, it } from 'vitest';
import { acceptInvitation, caller, uniqueEmail } from '../../../../testkit/src/server/admin-calls.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

/** Pending invitations: their expiry in the members list, and a new link for one (the old one stops working). */
describe('POST /v1/admin/workspace-members/{id}/invitation', () => {
  const t = useTestApp();
  const PASSWORD = 'an invitee password';

  async function invite(role = 'viewer') {
    const res = await t.asOwner('POST', '/v1/admin/workspace-members', { email: uniqueEmail(role), role });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; email: string; invitation: { code: string; expiresAt: string } };
  }
  const renew = (id: string) => t.asOwner('POST', `/v1/admin/workspace-members/${id}/invitation`);
  const listed = async (id: string) => {
    const res = await t.asOwner('GET', '/v1/admin/workspace-members?pageSize=100');
    return (res.json() as { members: Array<{ id: string; invitationExpiresAt?: string }> }).members.find(
      (m) => m.id === id,
    );
  };

  it('lists a pending member with the expiry of their invitation, and an active one without', async () => {
    const member = await invite();
    expect((await listed(member.id))?.invitationExpiresAt).toBe(member.invitation.expiresAt);
    const got = await t.asOwner('GET', `/v1/admin/workspace-members/${member.id}`);
    expect(got.json()).toMatchObject({ status: 'invited', invitationExpiresAt: member.invitation.expiresAt });
    expect((await acceptInvitation(t, { code: member.invitation.code, password: PASSWORD })).statusCode).toBe(
      201,
    );
    expect(await listed(member.id)).not.toHaveProperty('invitationExpiresAt');
  });

  it('issues a new code valid 7 days; the old one stops working, the new one joins; audited', async () => {
    const member = await invite();
    const res = await renew(member.id);
    expect(res.statusCode, res.body).toBe(201);
    const fresh = res.json() as { code: string; expiresAt: string };
    expect(fresh.code).not.toBe(member.invitation.code);
    expect(Date.parse(fresh.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);
    expect((await listed(member.id))?.invitationExpiresAt).toBe(fresh.expiresAt);
    expectError(
      await acceptInvitation(t, { code: member.invitation.code, password: PASSWORD }),
      404,
      'ResourceNotFound',
    );
    expect((await acceptInvitation(t, { code: fresh.code, password: PASSWORD })).statusCode).toBe(201);
    const audit = await t.asOwner(
      'GET',
      `/v1/admin/workspaces/${t.workspaceId}/audit-records?action=RENEW_WORKSPACE_INVITATION`,
    );
    expect(audit.json().records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ resourceId: member.id, resourceName: member.email }),
      ]),
    );
  });

  it('answers 409 once the member joined, 404 for an unknown member', async () => {
    const member = await invite();
    expect((await acceptInvitation(t, { code: member.invitation.code, password: PASSWORD })).statusCode).toBe(
      201,
    );
    expectError(await renew(member.id), 409, 'AlreadyExists');
    expectError(await renew('member_unknown'), 404, 'ResourceNotFound');
  });

  it('refuses whoever may not invite (403), and an administrator renewing an owner invitation', async () => {
    const member = await invite('owner');
    const developer = await t.addMember('developer');
    expectError(
      await caller(t, developer.token)('POST', `/v1/admin/workspace-members/${member.id}/invitation`),
      403,
      'Forbidden',
    );
    const admin = await t.addMember('administrator');
    expectError(
      await caller(t, admin.token)('POST', `/v1/admin/workspace-members/${member.id}/invitation`),
      403,
      'Forbidden',
    );
    expectError(
      await t.call({ method: 'POST', url: `/v1/admin/workspace-members/${member.id}/invitation` }),
      401,
      'Unauthorized',
    );
  });
});
