import type { Kysely, Selectable } from 'kysely';
import type { AuditRecordsTable, Database } from '../../db/schema.js';
import type { Cursor } from '../../http/pagination.js';

/** Audit record row. */
export type AuditRow = Selectable<AuditRecordsTable>;

/** Queries of the audit trail. Ids are time-sortable, so newest first is `id desc`. */
export function auditRepo(db: Kysely<Database>) {
  return {
    insert: (row: AuditRow) => db.insertInto('audit_records').values(row).execute(),
    list: (workspaceId: string, limit: number, after: Cursor | undefined) => {
      let q = db.selectFrom('audit_records').selectAll().where('workspace_id', '=', workspaceId);
      if (after) q = q.where('id', '<', after.id);
      return q
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
    },
  };
}
/** The audit repository. */
export type AuditRepo = ReturnType<typeof auditRepo>;
