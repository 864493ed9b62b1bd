import type { Kysely, Selectable } from 'kysely';
import { keysetPage } from '../../db/keyset.js';
import type { Database, RequestLogsTable } from '../../db/schema.js';
import type { Cursor } from '../../http/pagination.js';

/** Request log row. */
export type LogRow = Selectable<RequestLogsTable>;

/** Queries of the per-bot request log. */
export function logsRepo(db: Kysely<Database>) {
  return {
    insert: (row: LogRow) => db.insertInto('request_logs').values(row).execute(),
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
