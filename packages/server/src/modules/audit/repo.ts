import type { Kysely, Selectable } from 'kysely';
import { keysetPage } from '../../db/keyset.js';
import type { Database } from '../../db/schema.js';
import type { AuditRecordsTable } from '../../db/tables/platform.js';
import type { Cursor } from '../../http/pagination.js';

/** Audit record row. */
export type AuditRow = Selectable<AuditRecordsTable>;

/** What narrows a listing of the audit trail. */
export interface AuditFilter {
  action?: string | undefined;
  accountId?: string | undefined;
}

/** Queries of the audit trail. Ids are time-sortable, so newest first is `id desc`. */
export interface AuditRepo {
  insert(row: AuditRow): Promise<void>;
  /** `limit + 1` records of a workspace after the cursor, newest first; of one action or account if asked. */
  list(
    workspaceId: string,
    limit: number,
    after: Cursor | undefined,
    filter?: AuditFilter,
  ): Promise<AuditRow[]>;
}

/** The audit trail's queries over a database or a transaction. */
export function auditRepo(db: Kysely<Database>): AuditRepo {
  return {
    async insert(row) {
      await db.insertInto('audit_records').values(row).execute();
    },
    list(workspaceId, limit, after, filter = {}) {
      let query = db.selectFrom('audit_records').selectAll().where('workspace_id', '=', workspaceId);
      if (filter.action !== undefined) query = query.where('action', '=', filter.action);
      if (filter.accountId !== undefined) query = query.where('account_id', '=', filter.accountId);
      return keysetPage(query, { id: 'id', direction: 'desc' }, { limit, after });
    },
  };
}
