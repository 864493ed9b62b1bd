import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The usage types of a workspace's chat this month (no quota: counted for people to see). */
export const CONVERSATION_USAGE = 'conversation_count';
export const MESSAGE_USAGE = 'message_count';

/**
 * A workspace's conversations started and messages sent (visitors', the bots', people's) this calendar month
 * (UTC), the month the usage figures' `period` names: a usage source for the workspace's usage.
 */
export function chatUsageSource(db: Kysely<Database>, clock: () => Date) {
  return async (workspaceId: string) => {
    const since = `${clock().toISOString().slice(0, 7)}-01T00:00:00.000Z`;
    const count = async (table: 'chat_conversations' | 'chat_messages') => {
      const row = await db
        .selectFrom(table)
        .innerJoin('bots', 'bots.id', `${table}.bot_id`)
        .where('bots.workspace_id', '=', workspaceId)
        .where(`${table}.created_at`, '>=', since)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    };
    return [
      { type: CONVERSATION_USAGE, value: await count('chat_conversations'), quota: null },
      { type: MESSAGE_USAGE, value: await count('chat_messages'), quota: null },
    ];
  };
}
