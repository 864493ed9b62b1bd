import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The chat tables whose rows are keyed by bot and id. */
type KeyedTable = 'chat_users' | 'chat_conversations' | 'chat_messages' | 'chat_events';
/** The key columns of those tables. */
interface Key {
  bot_id: string;
  id: string;
}

/**
 * Queries over one of the tables keyed by bot and id. Kysely cannot type a query over a table picked by a
 * type parameter, so these see only the two key columns every one of these tables has.
 */
export function keyedRows(db: Kysely<Database>) {
  const keyed = db as unknown as Kysely<Record<KeyedTable, Key>>;
  return {
    /** The row of this id, of this bot. */
    byId: <T extends KeyedTable>(table: T, botId: string, id: string) =>
      keyed
        .selectFrom(table as KeyedTable)
        .selectAll()
        .where('bot_id', '=', botId)
        .where('id', '=', id)
        .executeTakeFirst() as Promise<Selectable<Database[T]> | undefined>,
    /** Inserts a whole row (typed by the caller) unless one of the same bot and id exists; answers whether it was. */
    insertIfMissing: async (table: KeyedTable, row: Key): Promise<boolean> => {
      const result = await keyed
        .insertInto(table)
        .values(row)
        .onConflict((oc) => oc.columns(['bot_id', 'id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}
/** The queries over the keyed chat tables. */
export type KeyedRows = ReturnType<typeof keyedRows>;
