import { type Kysely, type Migration, sql } from 'kysely';

// Upload reservations end (security issue #31): a pending upload holds quota only until its upload URL,
// resumable session or upload in flight expires (`upload_expires_at`), and chat uploads are counted apart,
// per chat user (`chat_user_id`). Files waiting for an upload before this get 24 hours from their upsert (or
// their resumable session's expiry); chat users' files are those owned by a `cuser_` id.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('files').addColumn('upload_expires_at', 'text').execute();
    await db.schema.alterTable('files').addColumn('chat_user_id', 'text').execute();
    await db.schema
      .createIndex('files_chat_user')
      .on('files')
      .columns(['bot_id', 'chat_user_id'])
      .where(sql.ref('chat_user_id'), 'is not', null)
      .execute();
    await db.schema
      .createIndex('files_upload_expires')
      .on('files')
      .column('upload_expires_at')
      .where(sql.ref('status'), '=', 'upload_pending')
      .execute();
    await sql`update files set chat_user_id = owner_id where owner_type = 'user' and owner_id like 'cuser\\_%' escape '\\'`.execute(
      db,
    );
    const pending = await sql<{ id: string; updated_at: string; session: string | null }>`
      select f.id, f.updated_at,
        (select max(u.expires_at) from file_uploads u
          where u.file_id = f.id and u.upload_version = f.upload_version and u.status = 'active') as session
      from files f where f.status = 'upload_pending'`.execute(db);
    for (const row of pending.rows) {
      const day = new Date(Date.parse(row.updated_at) + 86_400_000).toISOString();
      const until = row.session !== null && row.session > day ? row.session : day;
      await sql`update files set upload_expires_at = ${until} where id = ${row.id}`.execute(db);
    }
  },
};
