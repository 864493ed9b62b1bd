import { type Kysely, type Migration, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { testDatabases } from '../../../../testkit/src/server/harness.js';
import { migrationProvider } from '../../db/migrations/index.js';
import { NOT_FOUND_TEXT } from '../answers/index.js';

describe.each(testDatabases())('migration 0009_chat_reply_details on $name', ({ url: databaseUrl }) => {
  const t = useTestApp(databaseUrl ? { databaseUrl } : {});

  it('marks the not-found replies stored before it as answer = not_found, and nothing else', async () => {
    const db = t.db.kysely;
    // The database as it was before the migration: without its columns and the index of 0010, neither
    // applied. Only those two run again (the later ones changed other tables and stay applied).
    await sql`drop index chat_messages_bot_created`.execute(db);
    await sql`alter table chat_messages drop column answer`.execute(db);
    await sql`alter table chat_messages drop column details`.execute(db);
    const row = (id: string, isBot: number, text: string) => ({
      id,
      bot_id: t.botId,
      conversation_id: 'conv_old',
      user_id: isBot ? `bot_${t.botId}` : 'visitor',
      is_bot: isBot,
      payload: JSON.stringify({ type: 'text', text }),
      metadata: null,
      feedback: null,
      reply_to: null,
      created_at: '2026-01-01T00:00:00.000Z',
    });
    await sql`insert into chat_messages (id, bot_id, conversation_id, user_id, is_bot, payload, created_at)
      values ${sql.join(
        [
          row('m1', 0, NOT_FOUND_TEXT),
          row('m2', 1, NOT_FOUND_TEXT),
          row('m3', 1, 'Here is what I found'),
        ].map(
          (r) =>
            sql`(${r.id}, ${r.bot_id}, ${r.conversation_id}, ${r.user_id}, ${r.is_bot}, ${r.payload}, ${r.created_at})`,
        ),
      )}`.execute(db);
    const migrations = await migrationProvider.getMigrations();
    for (const name of ['0009_chat_reply_details', '0010_chat_messages_bot_time'])
      await (migrations[name] as Migration).up(db as Kysely<unknown>);
    const marked = await db
      .selectFrom('chat_messages')
      .select(['id', 'answer', 'details'])
      .where('conversation_id', '=', 'conv_old')
      .orderBy('id')
      .execute();
    expect(marked).toEqual([
      { id: 'm1', answer: null, details: null },
      { id: 'm2', answer: 'not_found', details: null },
      { id: 'm3', answer: null, details: null },
    ]);
  });
});
