import { type Kysely, type Migration, sql } from 'kysely';

// What a bot reply records of how it was made (modules/chat, written by the chat reply job): `answer`, the
// reply's answer mode (`not_found` when the knowledge base had nothing: the Console's "Not answered" and
// insights read it), and `details`, the retrieval details of its `debug` signal as JSON (Admin API only,
// kept as long as the message, unlike signals). Earlier not-found replies are marked from their text.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('chat_messages').addColumn('answer', 'text').execute();
    await db.schema.alterTable('chat_messages').addColumn('details', 'text').execute();
    const text = "I couldn't find anything about that in my knowledge base.";
    const notFound = JSON.stringify({ type: 'text', text });
    await sql`update chat_messages set answer = 'not_found'
              where is_bot = 1 and payload = ${notFound}`.execute(db);
  },
};
