import type { Kysely, Migration } from 'kysely';

// Human handoff (issue #35): who owns a conversation, `bot` (the default), `pending` (waiting for a person
// since `waiting_since`), `assigned` (to the account `assigned_to`, named `assigned_name`) or `resolved` (the
// bot answers again); when a person first replied and when it was resolved. One column per statement: SQLite
// adds one at a time.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    const columns: Array<[string, boolean]> = [
      ['handoff_state', true],
      ['waiting_since', false],
      ['assigned_to', false],
      ['assigned_name', false],
      ['first_human_reply_at', false],
      ['resolved_at', false],
    ];
    for (const [name, isState] of columns)
      await db.schema
        .alterTable('chat_conversations')
        .addColumn(name, 'text', (c) => (isState ? c.notNull().defaultTo('bot') : c))
        .execute();
    await db.schema
      .createIndex('chat_conversations_bot_handoff')
      .on('chat_conversations')
      .columns(['bot_id', 'handoff_state', 'waiting_since'])
      .execute();
  },
};
