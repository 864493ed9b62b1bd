import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import { readPage } from '../../http/route-helpers.js';
import { newId } from '../../ids.js';
import { auditWho } from '../audit/service.js';
import { accountOf, type IdentityContext } from './context.js';
import type { IdentityWorkspaces, WorkspaceChanges } from './contract.js';
import { toWorkspace } from './records.js';
import { type AccountRow, identityRepo, type WorkspaceRow } from './repo.js';

/** Stores a workspace inside `tx` with `owner` as its owning member, and its audit record. */
export async function insertWorkspace(
  ctx: Pick<IdentityContext, 'now' | 'audit'>,
  tx: Kysely<Database>,
  owner: AccountRow,
  name: string,
): Promise<WorkspaceRow> {
  const at = ctx.now();
  const ws: WorkspaceRow = {
    id: newId('wkspace'),
    name,
    owner_id: owner.id,
    about: '',
    contact_email: '',
    website: '',
    created_at: at,
    updated_at: at,
  };
  const repo = identityRepo(tx);
  await repo.insertWorkspace(ws);
  await repo.insertMember({
    id: newId('member'),
    workspace_id: ws.id,
    account_id: owner.id,
    email: owner.email,
    role: 'owner',
    created_at: at,
    updated_at: at,
  });
  await ctx.audit.record(
    tx,
    ws.id,
    { accountId: owner.id, email: owner.email },
    { action: 'CREATE_WORKSPACE', resourceId: ws.id, resourceName: name },
  );
  return ws;
}

/** The workspace an actor acts in, when `id` names it and the actor may read it; 404 for any other id. */
export async function actorWorkspace(db: Kysely<Database>, actor: Actor, id: string): Promise<WorkspaceRow> {
  if (id !== actor.workspaceId) throw errors.notFound('Workspace', id);
  authorize(actor, 'workspace.read');
  const row = await identityRepo(db).workspaceById(id);
  if (!row) throw errors.notFound('Workspace', id);
  return row;
}

/** The columns an update of a workspace sets. */
function workspaceValues(body: WorkspaceChanges, at: string): Partial<WorkspaceRow> {
  const values: Partial<WorkspaceRow> = { updated_at: at };
  if (body.name !== undefined) values.name = body.name;
  if (body.about !== undefined) values.about = body.about;
  if (body.contactEmail !== undefined) values.contact_email = body.contactEmail;
  if (body.website !== undefined) values.website = body.website;
  return values;
}

/** Workspaces: listed and created by accounts, read, updated and deleted by their members. */
export function identityWorkspaces(ctx: IdentityContext): IdentityWorkspaces {
  const { db, now, audit } = ctx;

  async function getWorkspace(actor: Actor, id: string) {
    const row = await actorWorkspace(db, actor, id);
    const role = actor.kind === 'member' ? actor.role : undefined;
    return toWorkspace(row, await identityRepo(db).countBots(id), role);
  }

  return {
    async listWorkspaces(principal, query) {
      const account = await accountOf(db, principal);
      const repo = identityRepo(db);
      return readPage(query, {
        sort: 'createdAt:asc',
        rows: (limit, after) => repo.workspacesOf(account.id, limit, after),
        key: (r) => [r.created_at, r.id],
        toItem: async (r) => toWorkspace(r, await repo.countBots(r.id), r.role),
      });
    },

    async createWorkspace(principal, body) {
      const account = await accountOf(db, principal);
      const ws = await db.transaction().execute((tx) => insertWorkspace(ctx, tx, account, body.name));
      return toWorkspace(ws, 0, 'owner');
    },

    getWorkspace,

    async updateWorkspace(actor, id, body) {
      await actorWorkspace(db, actor, id);
      authorize(actor, 'workspace.update');
      await db.transaction().execute(async (tx) => {
        await identityRepo(tx).updateWorkspace(id, workspaceValues(body, now()));
        await audit.record(tx, id, auditWho(actor), {
          action: 'UPDATE_WORKSPACE',
          resourceId: id,
          resourceName: body.name ?? null,
          value: body,
        });
      });
      return getWorkspace(actor, id);
    },

    async deleteWorkspace(actor, id) {
      await actorWorkspace(db, actor, id);
      authorize(actor, 'workspace.delete');
      await db.transaction().execute((tx) => identityRepo(tx).deleteWorkspace(id, now()));
    },
  };
}
