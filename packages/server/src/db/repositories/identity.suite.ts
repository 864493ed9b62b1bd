import { describe, expect, it } from 'vitest';
import { accountRow, botRow, workspaceRow } from '../../../../testkit/src/server/rows.js';
import { decodeCursor, toPage } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { auditRepo } from '../../modules/audit/repo.js';
import type { WorkspaceRow } from '../../modules/identity/repo.js';
import { integrationsRepo } from '../../modules/integrations/repo.js';
import { logsRepo } from '../../modules/logs/repo.js';
import { isUniqueViolation } from '../database.js';
import {
  at,
  compare,
  integrationRow,
  logLine,
  member,
  rejection,
  type SuiteRepos,
  token,
  unique,
} from './rows.suite.js';

/** The repository suite on accounts, tokens, workspaces and members. */
export function identityRepositoryCases({ kysely, identity, bots, tenant }: SuiteRepos): void {
  describe('accounts and tokens', () => {
    it('inserts an account and reads it back by id and by e-mail in any case', async () => {
      const row = accountRow({ email: `ada-${unique()}@example.com`, display_name: 'Ada' });
      await identity().insertAccount(row);
      expect(await identity().accountById(row.id)).toEqual(row);
      expect(await identity().accountByEmail(row.email.toUpperCase())).toEqual(row);
      expect(await identity().accountById('user_missing')).toBeUndefined();
    });

    it('rejects a second account with the same e-mail as a unique violation', async () => {
      const email = `dup-${unique()}@example.com`;
      await identity().insertAccount(accountRow({ email }));
      const error = await rejection(identity().insertAccount(accountRow({ email })));
      expect(isUniqueViolation(error)).toBe(true);
    });

    it('rejects a duplicate primary key as a unique violation', async () => {
      const row = accountRow();
      await identity().insertAccount(row);
      const error = await rejection(
        identity().insertAccount({ ...row, email: `other-${unique()}@example.com` }),
      );
      expect(isUniqueViolation(error)).toBe(true);
    });

    it('updates an account', async () => {
      const row = accountRow();
      await identity().insertAccount(row);
      await identity().updateAccount(row.id, { display_name: 'Renamed', updated_at: at(60) });
      expect(await identity().accountById(row.id)).toEqual({
        ...row,
        display_name: 'Renamed',
        updated_at: at(60),
      });
    });

    it('finds a token by its hash, and nothing for an unknown hash', async () => {
      const owner = accountRow();
      await identity().insertAccount(owner);
      const row = token({ account_id: owner.id, note: 'laptop', expires_at: at(3600) });
      await identity().insertToken(row);
      expect(await identity().tokenByHash(row.hash)).toEqual(row);
      expect(await identity().tokenById(row.id)).toEqual(row);
      expect(await identity().tokenByHash('hash-unknown')).toBeUndefined();
      expect(isUniqueViolation(await rejection(identity().insertToken(token({ hash: row.hash }))))).toBe(
        true,
      );
    });

    it('revokes a token once and leaves it out of the live tokens of its owner', async () => {
      const owner = accountRow();
      await identity().insertAccount(owner);
      const kept = token({ account_id: owner.id });
      const revoked = token({ account_id: owner.id });
      await identity().insertToken(kept);
      await identity().insertToken(revoked);
      const first = await identity().revokeTokens({ id: revoked.id }, at(10));
      expect(Number(first.numUpdatedRows)).toBe(1);
      const second = await identity().revokeTokens({ id: revoked.id }, at(20));
      expect(Number(second.numUpdatedRows)).toBe(0);
      expect((await identity().tokenByHash(revoked.hash))?.revoked_at).toBe(at(10));
      const live = await identity().tokensOf({ account_id: owner.id }, 'pat');
      expect(live.map((t) => t.id)).toEqual([kept.id]);
    });

    it('touches a token only when its last use is older than the threshold', async () => {
      const owner = accountRow();
      await identity().insertAccount(owner);
      const row = token({ account_id: owner.id });
      await identity().insertToken(row);
      await identity().touchToken(row.id, at(100), at(40));
      expect((await identity().tokenById(row.id))?.last_used_at).toBe(at(100));
      await identity().touchToken(row.id, at(120), at(60));
      expect((await identity().tokenById(row.id))?.last_used_at).toBe(at(100));
      await identity().touchToken(row.id, at(200), at(150));
      expect((await identity().tokenById(row.id))?.last_used_at).toBe(at(200));
    });
  });

  describe('workspaces and members', () => {
    it('reads a member with its account display name, by id, account and e-mail', async () => {
      const { owner, ws } = await tenant();
      const row = member(ws.id, owner.id, { email: owner.email, role: 'owner' });
      await identity().insertMember(row);
      const view = { ...row, display_name: owner.display_name, invitation_expires_at: null };
      expect(await identity().memberById(ws.id, row.id)).toEqual(view);
      expect(await identity().memberOfAccount(ws.id, owner.id)).toEqual(view);
      expect(await identity().memberByEmail(ws.id, owner.email.toUpperCase())).toEqual(row);
      expect(await identity().countMembers(ws.id)).toBe(1);
      expect(await identity().countOwners(ws.id)).toBe(1);
    });

    it('rejects the same e-mail twice in one workspace as a unique violation', async () => {
      const { ws } = await tenant();
      const email = `twice-${unique()}@example.com`;
      await identity().insertMember(member(ws.id, null, { email }));
      const error = await rejection(identity().insertMember(member(ws.id, null, { email })));
      expect(isUniqueViolation(error)).toBe(true);
    });

    it('lists the workspaces of an account by creation time with keyset pagination', async () => {
      const owner = accountRow();
      await identity().insertAccount(owner);
      const created: WorkspaceRow[] = [];
      for (let i = 0; i < 5; i++) {
        const ws = workspaceRow(owner.id, { name: `W${i}`, created_at: at(Math.floor(i / 2)) });
        await identity().insertWorkspace(ws);
        await identity().insertMember(member(ws.id, owner.id, { role: i === 0 ? 'owner' : 'viewer' }));
        created.push(ws);
      }
      const expected = [...created].sort(
        (a, b) => compare(a.created_at, b.created_at) || compare(a.id, b.id),
      );
      const seen: string[] = [];
      let nextToken: string | undefined;
      do {
        const rows = await identity().workspacesOf(owner.id, 2, decodeCursor(nextToken, 'createdAt:asc'));
        const page = toPage(rows, 2, 'createdAt:asc', (r) => [r.created_at, r.id]);
        seen.push(...page.items.map((w) => w.id));
        nextToken = page.nextToken;
      } while (nextToken);
      expect(seen).toEqual(expected.map((w) => w.id));
      const first = await identity().workspacesOf(owner.id, 10, undefined);
      expect(first.find((w) => w.id === created[0]?.id)?.role).toBe('owner');
    });

    it('updates a member role and links an invited member to an account', async () => {
      const { ws } = await tenant();
      const invited = member(ws.id, null, { role: 'viewer' });
      await identity().insertMember(invited);
      const joiner = accountRow();
      await identity().insertAccount(joiner);
      await identity().updateMemberRole(invited.id, 'manager', at(5));
      await identity().linkMember(invited.id, joiner.id, at(6));
      expect(await identity().memberById(ws.id, invited.id)).toEqual({
        ...invited,
        role: 'manager',
        account_id: joiner.id,
        updated_at: at(6),
        display_name: joiner.display_name,
        invitation_expires_at: null,
      });
    });

    it('deleting a workspace removes its members, invitations, bots, tags, keys, integrations, audit and logs', async () => {
      const { owner, ws } = await tenant();
      const other = await tenant();
      const m = member(ws.id, owner.id, { role: 'owner' });
      await identity().insertMember(m);
      await identity().insertInvitation({
        id: newId('inv'),
        member_id: m.id,
        code_hash: `code-${unique()}`,
        expires_at: at(999),
        created_at: at(0),
      });
      const doomed = botRow(ws.id);
      await bots().insert(doomed, { team: 'sales' });
      const survivor = botRow(other.ws.id);
      await bots().insert(survivor, { team: 'sales' });
      const botKey = token({ kind: 'bak', bot_id: doomed.id });
      const survivorKey = token({ kind: 'bak', bot_id: survivor.id });
      const pat = token({ account_id: owner.id });
      await identity().insertToken(botKey);
      await identity().insertToken(survivorKey);
      await identity().insertToken(pat);
      const integration = integrationRow(ws.id, owner.id, 'crm');
      await integrationsRepo(kysely()).insert(integration);
      await integrationsRepo(kysely()).install(doomed.id, integration.id, at(1));
      const integrationKey = token({ kind: 'iak', bot_id: doomed.id, integration_id: integration.id });
      await identity().insertToken(integrationKey);
      await auditRepo(kysely()).insert({
        id: newId('audit'),
        workspace_id: ws.id,
        recorded_at: at(0),
        account_id: owner.id,
        account_email: owner.email,
        action: 'CREATE_BOT',
        resource_id: doomed.id,
        resource_name: doomed.name,
        value: null,
      });
      await logsRepo(kysely()).insert(logLine(doomed.id, at(0)));
      await logsRepo(kysely()).insert(logLine(survivor.id, at(0)));

      await identity().deleteWorkspace(ws.id, new Date().toISOString());

      const k = kysely();
      expect(await identity().workspaceById(ws.id)).toBeUndefined();
      expect(await k.selectFrom('members').selectAll().where('workspace_id', '=', ws.id).execute()).toEqual(
        [],
      );
      expect(await k.selectFrom('invitations').selectAll().where('member_id', '=', m.id).execute()).toEqual(
        [],
      );
      expect(await bots().byId(ws.id, doomed.id)).toBeUndefined();
      expect(await k.selectFrom('bot_tags').selectAll().where('bot_id', '=', doomed.id).execute()).toEqual(
        [],
      );
      expect(await identity().tokenById(botKey.id)).toBeUndefined();
      expect(await identity().tokenById(integrationKey.id)).toBeUndefined();
      expect(await integrationsRepo(k).byId(ws.id, integration.id)).toBeUndefined();
      expect(await integrationsRepo(k).installation(doomed.id, integration.id)).toBeUndefined();
      expect(await auditRepo(k).list(ws.id, 10, undefined)).toEqual([]);
      expect(await logsRepo(k).list({ botId: doomed.id, limit: 10 })).toEqual([]);

      expect(await identity().accountById(owner.id)).toEqual(owner);
      expect(await identity().tokenById(pat.id)).toEqual(pat);
      expect(await identity().workspaceById(other.ws.id)).toEqual(other.ws);
      expect(await bots().byId(other.ws.id, survivor.id)).toEqual(survivor);
      expect((await bots().tagsOf([survivor.id])).get(survivor.id)).toEqual({ team: 'sales' });
      expect(await identity().tokenById(survivorKey.id)).toEqual(survivorKey);
      expect(await logsRepo(k).list({ botId: survivor.id, limit: 10 })).toHaveLength(1);
    });
  });
}
