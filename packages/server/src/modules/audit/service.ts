import type { AuditRecord } from '@parley/protocol';
import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import { decodeCursor, type Page, toPage } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { type AuditRow, auditRepo } from './repo.js';

/** Audit actions recorded for Admin API mutations. */
export type AuditAction =
  | 'CREATE_WORKSPACE'
  | 'UPDATE_WORKSPACE'
  | 'ADD_WORKSPACE_MEMBER'
  | 'UPDATE_WORKSPACE_MEMBER'
  | 'REMOVE_WORKSPACE_MEMBER'
  | 'ACCEPT_WORKSPACE_INVITATION'
  | 'CREATE_BOT'
  | 'UPDATE_BOT'
  | 'DELETE_BOT'
  | 'UPDATE_BOT_WEBCHAT'
  | 'CREATE_BOT_ACCESS_KEY'
  | 'REVOKE_BOT_ACCESS_KEY'
  | 'CREATE_INTEGRATION'
  | 'DELETE_INTEGRATION'
  | 'INSTALL_INTEGRATION'
  | 'UNINSTALL_INTEGRATION'
  | 'CREATE_INTEGRATION_KEY'
  | 'REVOKE_INTEGRATION_KEY';

/** Who did it: an account (with e-mail) or nobody in particular (the system). */
export interface AuditWho {
  accountId: string | null;
  email?: string | null;
}

/** What an audit entry says happened. */
export interface AuditEntry {
  action: AuditAction;
  resourceId: string | null;
  resourceName?: string | null;
  value?: unknown;
}

function toRecord(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    recordedAt: row.recorded_at,
    userId: row.account_id,
    ...(row.account_email ? { userEmail: row.account_email } : {}),
    resourceId: row.resource_id,
    ...(row.resource_name ? { resourceName: row.resource_name } : {}),
    ...(row.value ? { value: row.value } : {}),
    action: row.action,
  };
}

/** Records every Admin mutation and lists them, newest first. */
export function auditService(db: Kysely<Database>, clock: () => Date) {
  return {
    /** Writes one audit record; pass the transaction of the mutation so both commit together. */
    async record(tx: Kysely<Database>, workspaceId: string, who: AuditWho, entry: AuditEntry): Promise<void> {
      await auditRepo(tx).insert({
        id: newId('audit'),
        workspace_id: workspaceId,
        recorded_at: clock().toISOString(),
        account_id: who.accountId,
        account_email: who.email ?? null,
        action: entry.action,
        resource_id: entry.resourceId,
        resource_name: entry.resourceName ?? null,
        value:
          entry.value === undefined
            ? null
            : typeof entry.value === 'string'
              ? entry.value
              : JSON.stringify(entry.value),
      });
    },
    /** Lists a workspace's audit records, newest first (manager and above). */
    async list(
      actor: Actor,
      query: { nextToken?: string | undefined; pageSize?: number | undefined },
    ): Promise<Page<AuditRecord>> {
      authorize(actor, 'audit.read');
      const limit = query.pageSize ?? 20;
      const after = decodeCursor(query.nextToken, 'id:desc');
      const rows = await auditRepo(db).list(actor.workspaceId, limit, after);
      const page = toPage(rows, limit, 'id:desc', (r) => [r.recorded_at, r.id]);
      return { items: page.items.map(toRecord), ...(page.nextToken ? { nextToken: page.nextToken } : {}) };
    },
  };
}
/** The audit service. */
export type AuditService = ReturnType<typeof auditService>;

/** The audit identity of an actor. */
export function auditWho(actor: Actor): AuditWho {
  return actor.kind === 'member' ? { accountId: actor.accountId, email: actor.email } : { accountId: null };
}
