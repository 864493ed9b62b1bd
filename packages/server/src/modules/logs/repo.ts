import { type Kysely, type Selectable, sql } from 'kysely';
import { keysetPage } from '../../db/keyset.js';
import type { Database } from '../../db/schema.js';
import type { RequestLogsTable } from '../../db/tables/platform.js';
import type { Cursor } from '../../http/pagination.js';

/** Request log row. */
export type LogRow = Selectable<RequestLogsTable>;

/** Queries of the per-bot request log. */
export function logsRepo(db: Kysely<Database>) {
  return {
    insert: (row: LogRow) => db.insertInto('request_logs').values(row).execute(),
    /**
     * Inserts `rows` in one statement, leaving out those of a bot that no longer exists: a row written behind
     * its request must not outlive the bot's deletion (which deletes its log). Same SQL on both dialects
     * (`values` columns are `column1`…; the casts type PostgreSQL's untyped parameters).
     */
    insertMany: async (rows: readonly LogRow[]): Promise<void> => {
      if (rows.length === 0) return;
      const values = rows.map(
        (r) =>
          sql`(${r.id}, ${r.bot_id}, ${r.timestamp}, ${r.level}, ${r.message}, ${r.request_id}, ${r.operation_id}, ${r.method}, ${r.path}, ${r.status_code}, ${r.duration_ms})`,
      );
      await sql`insert into request_logs (id, bot_id, "timestamp", level, message, request_id, operation_id, method, path, status_code, duration_ms)
        select column1, column2, column3, column4, column5, column6, column7, column8, column9,
          cast(column10 as integer), cast(column11 as double precision)
        from (values ${sql.join(values)}) as v
        where exists (select 1 from bots where bots.id = v.column2)`.execute(db);
    },
    list: (q: {
      botId: string;
      from?: string | undefined;
      to?: string | undefined;
      level?: string | undefined;
      limit: number;
      after?: Cursor | undefined;
    }) => {
      let query = db.selectFrom('request_logs').selectAll().where('bot_id', '=', q.botId);
      if (q.from) query = query.where('timestamp', '>=', q.from);
      if (q.to) query = query.where('timestamp', '<', q.to);
      if (q.level) query = query.where('level', '=', q.level);
      return keysetPage(query, { id: 'id', direction: 'desc' }, q);
    },
    pruneBefore: (before: string) =>
      db.deleteFrom('request_logs').where('timestamp', '<', before).executeTakeFirst(),
  };
}
