import type { AuditRecord } from '@parley/protocol';
import type { Kysely } from 'kysely';
import type { FileActor } from '../../access/file-policy.js';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import type { Cursor, Page } from '../../http/pagination.js';
import { type PageRequest, readPage } from '../../http/route-helpers.js';
import { newId } from '../../ids.js';
import { type AuditRow, auditRepo } from './repo.js';

/** Every action the audit trail records (the Admin API's `action` filter takes one of them). */
export const AUDIT_ACTIONS = [
  'CREATE_WORKSPACE',
  'UPDATE_WORKSPACE',
  'ADD_WORKSPACE_MEMBER',
  'UPDATE_WORKSPACE_MEMBER',
  'REMOVE_WORKSPACE_MEMBER',
  'ACCEPT_WORKSPACE_INVITATION',
  'RENEW_WORKSPACE_INVITATION',
  'CREATE_BOT',
  'UPDATE_BOT',
  'DELETE_BOT',
  'UPDATE_BOT_WEBCHAT',
  'CREATE_BOT_ACCESS_KEY',
  'REVOKE_BOT_ACCESS_KEY',
  'CREATE_INTEGRATION',
  'DELETE_INTEGRATION',
  'INSTALL_INTEGRATION',
  'UNINSTALL_INTEGRATION',
  'CREATE_INTEGRATION_KEY',
  'REVOKE_INTEGRATION_KEY',
  'CREATE_QA_ENTRY',
  'UPDATE_QA_ENTRY',
  'DELETE_QA_ENTRY',
  'UPDATE_CONVERSATION_HANDOFF',
  'CREATE_KNOWLEDGE_BASE',
  'UPDATE_KNOWLEDGE_BASE',
  'DELETE_KNOWLEDGE_BASE',
  'UPLOAD_FILE',
  'UPDATE_FILE',
  'DELETE_FILE',
] as const;

/** Audit actions recorded for Admin API mutations, and for members' changes to knowledge bases and files. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

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

/** A page query of the audit trail, narrowed to one action and/or one actor (account id). */
export type AuditQuery = PageRequest & { action?: string | undefined; userId?: string | undefined };

/** The audit trail: every Admin mutation writes one record, in the mutation's transaction. */
export interface AuditService {
  /** Writes one audit record; pass the transaction of the mutation so both commit together. */
  record(tx: Kysely<Database>, workspaceId: string, who: AuditWho, entry: AuditEntry): Promise<void>;
  /** Lists a workspace's audit records, newest first (manager and above), of one action or actor if asked. */
  list(actor: Actor, query: AuditQuery): Promise<Page<AuditRecord>>;
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

/** The stored form of an entry's value: text as it is, anything else as JSON. */
const storedValue = (value: unknown): string | null =>
  value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value);

/**
 * Records every Admin mutation and lists them, newest first.
 * @example await audit.record(tx, workspaceId, auditWho(actor), { action: 'CREATE_BOT', resourceId: id });
 */
export function auditService(db: Kysely<Database>, clock: () => Date): AuditService {
  return {
    async record(tx, workspaceId, who, entry) {
      await auditRepo(tx).insert({
        id: newId('audit'),
        workspace_id: workspaceId,
        recorded_at: clock().toISOString(),
        account_id: who.accountId,
        account_email: who.email ?? null,
        action: entry.action,
        resource_id: entry.resourceId,
        resource_name: entry.resourceName ?? null,
        value: storedValue(entry.value),
      });
    },

    async list(actor, query) {
      authorize(actor, 'audit.read');
      const rows = (limit: number, after: Cursor | undefined) =>
        auditRepo(db).list(actor.workspaceId, limit, after, {
          action: query.action,
          accountId: query.userId,
        });
      return readPage(query, { sort: 'id:desc', rows, key: (r) => [r.recorded_at, r.id], toItem: toRecord });
    },
  };
}

/** The audit identity of an actor. */
export function auditWho(actor: Actor): AuditWho {
  return actor.kind === 'member' ? { accountId: actor.accountId, email: actor.email } : { accountId: null };
}

/** Where a change through the Files API was made: by whom, in which workspace, on which bot. */
interface FilesApiChange {
  actor: FileActor;
  workspaceId: string;
  botId: string;
}

/**
 * Records a member's change made through the Files API (a file, a knowledge base: what people do in the
 * Console or with a personal access token), in `tx` with the change, its value carrying the bot's id. A bot
 * key's, a visitor's or a website sync's changes are the bot's own traffic: not recorded.
 */
export async function recordMemberChange(
  audit: AuditService | undefined,
  tx: Kysely<Database>,
  ctx: FilesApiChange,
  entry: { action: AuditAction; resourceId: string; resourceName: string; value?: Record<string, unknown> },
): Promise<void> {
  if (!audit || ctx.actor.kind !== 'member') return;
  await audit.record(
    tx,
    ctx.workspaceId,
    { accountId: ctx.actor.accountId },
    {
      ...entry,
      value: { botId: ctx.botId, ...entry.value },
    },
  );
}
