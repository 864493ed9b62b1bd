import {
  type ColumnDefinitionBuilder,
  type Kysely,
  type Migration,
  type MigrationProvider,
  PostgresAdapter,
  sql,
} from 'kysely';

/* Migrations are plain objects in code, portable across SQLite and PostgreSQL: text ids and ISO timestamps,
 * integers for booleans, JSON as text. Never edit a released migration; add a new one. */
const migrations: Record<string, Migration> = {
  '0001_identity_and_admin': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('about', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('contact_email', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('members')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('account_id', 'text', (c) => c.references('accounts.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('members_workspace_email', ['workspace_id', 'email'])
        .execute();
      await db.schema.createIndex('members_account').on('members').column('account_id').execute();
      await db.schema
        .createTable('invitations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('member_id', 'text', (c) => c.notNull().references('members.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('bots')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('dev', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('reply_mode', 'text', (c) => c.notNull())
        .addColumn('webhook_url', 'text')
        .addColumn('webchat_config', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deployed_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('bots_workspace_created')
        .on('bots')
        .columns(['workspace_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createTable('bot_tags')
        .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('bot_tags_pk', ['bot_id', 'key'])
        .execute();
      await db.schema.createIndex('bot_tags_key_value').on('bot_tags').columns(['key', 'value']).execute();
      await db.schema
        .createTable('integrations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('integrations_workspace_name', ['workspace_id', 'name'])
        .execute();
      await db.schema
        .createTable('installations')
        .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
        .addColumn('integration_id', 'text', (c) =>
          c.notNull().references('integrations.id').onDelete('cascade'),
        )
        .addColumn('installed_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('installations_pk', ['bot_id', 'integration_id'])
        .execute();
      await db.schema
        .createTable('tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', 'text', (c) => c.references('accounts.id').onDelete('cascade'))
        .addColumn('bot_id', 'text', (c) => c.references('bots.id').onDelete('cascade'))
        .addColumn('integration_id', 'text', (c) => c.references('integrations.id').onDelete('cascade'))
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('tokens_account').on('tokens').column('account_id').execute();
      await db.schema.createIndex('tokens_bot').on('tokens').column('bot_id').execute();
      await db.schema
        .createTable('audit_records')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('recorded_at', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text')
        .addColumn('account_email', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('resource_id', 'text')
        .addColumn('resource_name', 'text')
        .addColumn('value', 'text')
        .execute();
      await db.schema
        .createIndex('audit_workspace_id')
        .on('audit_records')
        .columns(['workspace_id', 'id'])
        .execute();
      await db.schema
        .createTable('request_logs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('bot_id', 'text', (c) => c.notNull())
        .addColumn('timestamp', 'text', (c) => c.notNull())
        .addColumn('level', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('operation_id', 'text')
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('duration_ms', 'double precision', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('request_logs_bot_id')
        .on('request_logs')
        .columns(['bot_id', 'id'])
        .execute();
      await db.schema.createIndex('request_logs_timestamp').on('request_logs').column('timestamp').execute();
      await db.schema
        .createTable('meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0002_files': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('files')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint')
        .addColumn('declared_size', 'bigint', (c) => c.notNull())
        .addColumn('sha256', 'text')
        .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('access_policies', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('index', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('indexing_configuration', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('failed_status_reason', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('owner_type', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text')
        .addColumn('blob_key', 'text')
        .addColumn('upload_version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('files_bot_key', ['bot_id', 'key'])
        .execute();
      await db.schema
        .createIndex('files_bot_created')
        .on('files')
        .columns(['bot_id', 'created_at', 'id'])
        .execute();
      await db.schema.createIndex('files_workspace').on('files').column('workspace_id').execute();
      await db.schema.createIndex('files_expires').on('files').column('expires_at').execute();
      await db.schema
        .createTable('file_tags')
        .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('file_tags_pk', ['file_id', 'key'])
        .execute();
      // Blobs to delete once their record is gone: durable, so a crash between the two never leaks bytes.
      await db.schema
        .createTable('blob_garbage')
        .addColumn('blob_key', 'text', (c) => c.primaryKey())
        .addColumn('queued_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('file_tags_key_value').on('file_tags').columns(['key', 'value']).execute();
    },
  },
  // Passages of indexed files and their full-text index. The vector table is made by the passage index
  // when an embedding model is first set, since its width is the model's (search/index/).
  '0003_passages': {
    async up(db: Kysely<unknown>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      if (postgres) {
        await sql`
          create table passages (
            id text primary key,
            file_id text not null references files(id) on delete cascade,
            bot_id text not null,
            position integer not null,
            subtype text not null,
            page_number integer,
            content text not null,
            breadcrumb text not null default '[]',
            model_id text,
            tsv tsvector not null,
            constraint passages_file_position unique (file_id, position)
          )`.execute(db);
        await sql`create index passages_tsv on passages using gin (tsv)`.execute(db);
      } else {
        // seq is the rowid shared with the FTS5 and vec0 tables.
        await sql`
          create table passages (
            seq integer primary key,
            id text not null unique,
            file_id text not null references files(id) on delete cascade,
            bot_id text not null,
            position integer not null,
            subtype text not null,
            page_number integer,
            content text not null,
            breadcrumb text not null default '[]',
            model_id text,
            constraint passages_file_position unique (file_id, position)
          )`.execute(db);
        await sql`
          create virtual table passages_fts using fts5(
            content, breadcrumb, content='passages', content_rowid='seq',
            tokenize='porter unicode61 remove_diacritics 2'
          )`.execute(db);
        await sql`
          create trigger passages_fts_insert after insert on passages begin
            insert into passages_fts(rowid, content, breadcrumb) values (new.seq, new.content, new.breadcrumb);
          end`.execute(db);
        await sql`
          create trigger passages_fts_delete after delete on passages begin
            insert into passages_fts(passages_fts, rowid, content, breadcrumb)
              values ('delete', old.seq, old.content, old.breadcrumb);
          end`.execute(db);
        await sql`
          create trigger passages_fts_update after update of content, breadcrumb on passages begin
            insert into passages_fts(passages_fts, rowid, content, breadcrumb)
              values ('delete', old.seq, old.content, old.breadcrumb);
            insert into passages_fts(rowid, content, breadcrumb) values (new.seq, new.content, new.breadcrumb);
          end`.execute(db);
      }
      await db.schema.createIndex('passages_bot').on('passages').column('bot_id').execute();
      // One row ('current'): the embedding model of the stored vectors and how they are stored.
      await db.schema
        .createTable('embedding_model')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('model_id', 'text', (c) => c.notNull())
        .addColumn('dimensions', 'integer', (c) => c.notNull())
        .addColumn('vector_store', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0004_jobs_and_knowledge_bases': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('run_after', 'text', (c) => c.notNull())
        .addColumn('locked_by', 'text')
        .addColumn('locked_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_claim').on('jobs').columns(['status', 'kind', 'run_after']).execute();
      await db.schema
        .alterTable('files')
        .addColumn('indexing_done', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('files')
        .addColumn('indexing_total', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('knowledge_bases')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('knowledge_bases_bot_name', ['bot_id', 'name'])
        .execute();
      await db.schema
        .createTable('knowledge_base_files')
        .addColumn('knowledge_base_id', 'text', (c) =>
          c.notNull().references('knowledge_bases.id').onDelete('cascade'),
        )
        .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
        .addColumn('linked_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('knowledge_base_files_pk', ['knowledge_base_id', 'file_id'])
        .execute();
      await db.schema
        .createIndex('knowledge_base_files_file')
        .on('knowledge_base_files')
        .column('file_id')
        .execute();
    },
  },
  // SQLite: a second full-text index, of tiles of 8 consecutive passages of a file (positions 0–7, 8–15, …),
  // whose bm25 the lexical search adds to each passage's own (search/index/sqlite-passage-index.ts). A tile's
  // rowid is the smallest seq of its passages. Contentless: the text is not stored twice; the passage index
  // writes the rows, a trigger deletes them. PostgreSQL is unchanged.
  '0005_passage_tiles': {
    async up(db: Kysely<unknown>) {
      if (db.getExecutor().adapter instanceof PostgresAdapter) return;
      await sql`
        create virtual table passage_tiles using fts5(
          text, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
        )`.execute(db);
      await sql`
        insert into passage_tiles(rowid, text)
        select min(seq), group_concat(content, char(10) order by position)
        from passages group by file_id, position / 8`.execute(db);
      await sql`
        create trigger passage_tiles_delete after delete on passages begin
          delete from passage_tiles where rowid = old.seq;
        end`.execute(db);
    },
  },
  // The Chat API (modules/chat): per-bot chat users and secrets, conversations, participants, messages,
  // events, and the durable signal log of the live streams (cursor = resume point, pruned after a retention).
  // Users and conversations are keyed per bot, since a site may choose their ids (verified identity,
  // get-or-create). A bot's chat data goes with the bot (cascade).
  '0006_chat': {
    async up(db: Kysely<unknown>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      const botRef = (c: ColumnDefinitionBuilder) => c.notNull().references('bots.id').onDelete('cascade');
      await db.schema
        .createTable('chat_secrets')
        .addColumn('bot_id', 'text', (c) => c.primaryKey().references('bots.id').onDelete('cascade'))
        .addColumn('user_key_secret', 'text', (c) => c.notNull())
        .addColumn('webhook_secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('rotated_at', 'text')
        .execute();
      await db.schema
        .createTable('chat_users')
        .addColumn('bot_id', 'text', botRef)
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('picture_url', 'text')
        .addColumn('data', 'text')
        .addColumn('user_key', 'text')
        .addColumn('is_bot', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_users_pk', ['bot_id', 'id'])
        .execute();
      await db.schema
        .createTable('chat_conversations')
        .addColumn('bot_id', 'text', botRef)
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_conversations_pk', ['bot_id', 'id'])
        .execute();
      await db.schema
        .createIndex('chat_conversations_bot_updated')
        .on('chat_conversations')
        .columns(['bot_id', 'updated_at', 'id'])
        .execute();
      await db.schema
        .createTable('chat_participants')
        .addColumn('bot_id', 'text', botRef)
        .addColumn('conversation_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('joined_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_participants_pk', ['bot_id', 'conversation_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('chat_participants_user')
        .on('chat_participants')
        .columns(['bot_id', 'user_id'])
        .execute();
      await db.schema
        .createTable('chat_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('bot_id', 'text', botRef)
        .addColumn('conversation_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('is_bot', 'integer', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('metadata', 'text')
        .addColumn('feedback', 'text')
        .addColumn('reply_to', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('chat_messages_conversation')
        .on('chat_messages')
        .columns(['bot_id', 'conversation_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('chat_messages_user')
        .on('chat_messages')
        .columns(['bot_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('chat_messages_reply_to')
        .on('chat_messages')
        .columns(['bot_id', 'reply_to'])
        .execute();
      await db.schema
        .createTable('chat_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('bot_id', 'text', botRef)
        .addColumn('conversation_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('chat_events_conversation')
        .on('chat_events')
        .columns(['bot_id', 'conversation_id'])
        .execute();
      // The cursor only grows (SQLite AUTOINCREMENT never reuses a pruned value; a PostgreSQL identity never does).
      await db.schema
        .createTable('chat_signals')
        .addColumn('cursor', postgres ? 'bigint' : 'integer', (c) =>
          postgres ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn('bot_id', 'text', botRef)
        .addColumn('conversation_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('admin_only', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('chat_signals_conversation')
        .on('chat_signals')
        .columns(['bot_id', 'conversation_id', 'cursor'])
        .execute();
      await db.schema.createIndex('chat_signals_created').on('chat_signals').column('created_at').execute();
    },
  },
  // What a file's committed bytes were uploaded as (media type, access policies), kept apart from the latest
  // upsert's fields: a re-upsert keeps serving the old bytes, as they were published, until new ones commit.
  '0007_file_served_content': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('files').addColumn('blob_content_type', 'text').execute();
      await db.schema.alterTable('files').addColumn('blob_access_policies', 'text').execute();
      await sql`update files set blob_content_type = content_type, blob_access_policies = access_policies
                where blob_key is not null and size is not null`.execute(db);
    },
  },
  // Human sign-in: an account's password (apart from the account row, so no listing ever reads it), the
  // sessions a sign-in opens (only the SHA-256 of the cookie's value is stored), and failed sign-ins by key
  // (an e-mail or a client address) for throttling across every process of a deployment.
  '0008_account_passwords_and_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('account_passwords')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('user_agent', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('sessions_account').on('sessions').columns(['account_id', 'id']).execute();
      await db.schema
        .createTable('sign_in_failures')
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('failed_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('sign_in_failures_key')
        .on('sign_in_failures')
        .columns(['key', 'failed_at'])
        .execute();
      await db.schema.createIndex('sign_in_failures_at').on('sign_in_failures').column('failed_at').execute();
    },
  },
  // What a bot reply records of how it was made (modules/chat, written by the chat reply job): `answer`, the
  // reply's answer mode (`not_found` when the knowledge base had nothing: the Console's "Not answered" and
  // insights read it), and `details`, the retrieval details of its `debug` signal as JSON (Admin API only,
  // kept as long as the message, unlike signals). Earlier not-found replies are marked from their text.
  '0009_chat_reply_details': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('chat_messages').addColumn('answer', 'text').execute();
      await db.schema.alterTable('chat_messages').addColumn('details', 'text').execute();
      const text = "I couldn't find anything about that in my knowledge base.";
      const notFound = JSON.stringify({ type: 'text', text });
      await sql`update chat_messages set answer = 'not_found'
                where is_bot = 1 and payload = ${notFound}`.execute(db);
    },
  },
  // A bot's messages by time (modules/chat repo-activity: insights over the last 7, 30 or 90 days read only the
  // period's messages, not all of the bot's).
  '0010_chat_messages_bot_time': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('chat_messages_bot_created')
        .on('chat_messages')
        .columns(['bot_id', 'created_at'])
        .execute();
    },
  },
  // SQLite: the bot inside both full-text indexes, so a lexical search matches (and scores) only its bot's
  // passages and tiles (search/index/sqlite-lexical.ts). A column `bot` holds one token per row, 'b', the
  // bot id's UTF-8 bytes in hex, '0' (one unicode61 token whatever the id; ending in a digit, porter leaves it
  // alone); it is ranked with weight 0. passages_fts reads it from the view passages_fts_source, so FTS5's
  // rebuild and integrity-check see what the triggers wrote. FTS5 tables cannot gain a column: both are
  // made again and refilled. PostgreSQL is unchanged.
  '0011_passage_fts_bot': {
    async up(db: Kysely<unknown>) {
      if (db.getExecutor().adapter instanceof PostgresAdapter) return;
      const tokenizer = sql.lit('porter unicode61 remove_diacritics 2');
      for (const name of ['passages_fts_insert', 'passages_fts_delete', 'passages_fts_update'])
        await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
      await sql`drop table passages_fts`.execute(db);
      // Run again over a database rolled back to before it (the migration tests do), the view is there already.
      await sql`drop view if exists passages_fts_source`.execute(db);
      await sql`
        create view passages_fts_source as
        select seq, content, breadcrumb, 'b' || hex(bot_id) || '0' as bot from passages`.execute(db);
      await sql`
        create virtual table passages_fts using fts5(
          content, breadcrumb, bot, content='passages_fts_source', content_rowid='seq', tokenize=${tokenizer}
        )`.execute(db);
      await sql`insert into passages_fts(passages_fts) values ('rebuild')`.execute(db);
      await sql`
        create trigger passages_fts_insert after insert on passages begin
          insert into passages_fts(rowid, content, breadcrumb, bot)
            values (new.seq, new.content, new.breadcrumb, 'b' || hex(new.bot_id) || '0');
        end`.execute(db);
      await sql`
        create trigger passages_fts_delete after delete on passages begin
          insert into passages_fts(passages_fts, rowid, content, breadcrumb, bot)
            values ('delete', old.seq, old.content, old.breadcrumb, 'b' || hex(old.bot_id) || '0');
        end`.execute(db);
      await sql`
        create trigger passages_fts_update after update of content, breadcrumb, bot_id on passages begin
          insert into passages_fts(passages_fts, rowid, content, breadcrumb, bot)
            values ('delete', old.seq, old.content, old.breadcrumb, 'b' || hex(old.bot_id) || '0');
          insert into passages_fts(rowid, content, breadcrumb, bot)
            values (new.seq, new.content, new.breadcrumb, 'b' || hex(new.bot_id) || '0');
        end`.execute(db);
      // The tiles' delete trigger (0005) names the table, so it keeps working on the new one.
      await sql`drop table passage_tiles`.execute(db);
      await sql`
        create virtual table passage_tiles using fts5(
          text, bot, content='', contentless_delete=1, tokenize=${tokenizer}
        )`.execute(db);
      await sql`
        insert into passage_tiles(rowid, text, bot)
        select min(seq), group_concat(content, char(10) order by position), 'b' || hex(min(bot_id)) || '0'
        from passages group by file_id, position / 8`.execute(db);
    },
  },
  // Rate limits shared by every process (http/rate-limit-store.ts): one counter per key and window, the end of
  // the window in epoch ms on the database's clock; the index lets the sweep delete ended windows cheaply.
  // Only PostgreSQL counts here (SQLite is one process, counted in memory); the table is made on both.
  '0012_rate_limits': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('rate_limits')
        .ifNotExists()
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('resets_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('rate_limits_resets_at')
        .ifNotExists()
        .on('rate_limits')
        .column('resets_at')
        .execute();
    },
  },
  // Resumable uploads (modules/files/resumable.ts): one session per upload version of a file, the bytes it has
  // received so far as parts (each a blob of its own under `uploads/`), joined into the file's blob at the end.
  '0013_resumable_uploads': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('file_uploads')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('file_id', 'text', (c) => c.notNull())
        .addColumn('upload_version', 'integer', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('offset', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('file_uploads_file_version', ['file_id', 'upload_version'])
        .execute();
      await db.schema
        .createIndex('file_uploads_expires')
        .ifNotExists()
        .on('file_uploads')
        .column('expires_at')
        .execute();
      await db.schema
        .createTable('file_upload_parts')
        .ifNotExists()
        .addColumn('upload_id', 'text', (c) => c.notNull())
        .addColumn('offset', 'bigint', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('blob_key', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('file_upload_parts_pk', ['upload_id', 'offset'])
        .execute();
    },
  },
  // SQLite: which files' passages changed, for the in-memory lexical index (search/index/lexical-memory-worker.ts),
  // which reads the files changed since the version it last saw. A row per file, its version the largest so
  // far plus one, written by triggers, so every connection's and process's writes (deletes by cascade too) are
  // seen. Every file with passages is listed at once, so a new index reads them all. PostgreSQL is unchanged.
  '0014_passage_changes': {
    async up(db: Kysely<unknown>) {
      if (db.getExecutor().adapter instanceof PostgresAdapter) return;
      await sql`
        create table if not exists passage_changes (file_id text primary key, version integer not null)`.execute(
        db,
      );
      await sql`create index if not exists passage_changes_version on passage_changes(version)`.execute(db);
      await sql`
        insert or replace into passage_changes(file_id, version)
        select file_id, row_number() over (order by file_id) from (select distinct file_id from passages)`.execute(
        db,
      );
      const bump = (row: 'new' | 'old') => sql`
        insert or replace into passage_changes(file_id, version)
          values (${sql.raw(row)}.file_id, coalesce((select max(version) from passage_changes), 0) + 1);`;
      await sql`
        create trigger if not exists passage_changes_insert after insert on passages begin ${bump('new')} end`.execute(
        db,
      );
      await sql`
        create trigger if not exists passage_changes_delete after delete on passages begin ${bump('old')} end`.execute(
        db,
      );
      await sql`
        create trigger if not exists passage_changes_update
        after update of content, breadcrumb, bot_id, file_id, position on passages begin
          ${bump('old')} ${bump('new')}
        end`.execute(db);
    },
  },
  // The passages without vectors (indexed with PARLEY_EMBEDDER=none), by file: the embedding model's keeper
  // asks every minute whether indexed files have any, which without this index reads every passage row.
  '0015_passages_unembedded': {
    async up(db: Kysely<unknown>) {
      await sql`create index if not exists passages_unembedded on passages(file_id) where model_id is null`.execute(
        db,
      );
    },
  },
  // A message's reply_to is set on the bot's answers only: the index of (bot, reply_to) had an entry, nearly
  // always NULL, for every message, and each message's commit wrote a page of it. It now holds the answers.
  '0016_chat_messages_reply_to_set': {
    async up(db: Kysely<unknown>) {
      await sql`drop index if exists chat_messages_reply_to`.execute(db);
      await sql`create index chat_messages_reply_to on chat_messages(bot_id, reply_to) where reply_to is not null`.execute(
        db,
      );
    },
  },
  // Which sources of a bot's answers are linked (security issue #31): every existing bot gets `public`, the
  // default (public_content files and a metadata sourceUrl only), no longer every private file.
  '0017_bots_source_links': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('bots')
        .addColumn('source_links', 'text', (c) => c.notNull().defaultTo('public'))
        .execute();
    },
  },
  // Upload reservations end (security issue #31): a pending upload holds quota only until its upload URL,
  // resumable session or upload in flight expires (`upload_expires_at`), and chat uploads are counted apart,
  // per chat user (`chat_user_id`). Files waiting for an upload before this get 24 hours from their upsert (or
  // their resumable session's expiry); chat users' files are those owned by a `cuser_` id.
  '0018_files_upload_reservations': {
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
  },
  // Sign-in throttling and invitation squatting (security issue #31, findings 5 and 8). `sign_in_failures.attempt`:
  // an attempt's rows are written (reserved) before its password is checked, so concurrent attempts cannot
  // overrun the limits, and a success takes back exactly its own rows. `accounts.unclaimed_via`: the workspace
  // whose invitation made the account, while nobody has signed into it (an invitation from another workspace
  // may then reset it); existing accounts are claimed.
  '0019_sign_in_attempts_and_unclaimed_accounts': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sign_in_failures').addColumn('attempt', 'text').execute();
      await db.schema
        .createIndex('sign_in_failures_attempt')
        .on('sign_in_failures')
        .column('attempt')
        .execute();
      await db.schema.alterTable('accounts').addColumn('unclaimed_via', 'text').execute();
    },
  },
  // Q&A entries of a bot (modules/qa, issue #34): an entry's wordings apart, one row each with its content
  // words and, once the `qa_embed` job ran, its vector (little-endian float32) and the model that made it;
  // `qa_revisions` counts each bot's changes, so every process knows when its cached wordings are stale.
  '0020_qa_entries': {
    async up(db: Kysely<unknown>) {
      const blob = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
      await db.schema
        .createTable('qa_entries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
        .addColumn('knowledge_base_id', 'text', (c) =>
          c.references('knowledge_bases.id').onDelete('set null'),
        )
        .addColumn('questions', 'text', (c) => c.notNull())
        .addColumn('answer', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('qa_entries_bot').on('qa_entries').columns(['bot_id', 'id']).execute();
      await db.schema
        .createTable('qa_wordings')
        .addColumn('entry_id', 'text', (c) => c.notNull().references('qa_entries.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('bot_id', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('terms', 'text', (c) => c.notNull())
        .addColumn('vector', sql.raw(blob))
        .addColumn('model_id', 'text')
        .addPrimaryKeyConstraint('qa_wordings_pk', ['entry_id', 'position'])
        .execute();
      await db.schema.createIndex('qa_wordings_bot').on('qa_wordings').column('bot_id').execute();
      await db.schema
        .createTable('qa_revisions')
        .addColumn('bot_id', 'text', (c) => c.primaryKey().references('bots.id').onDelete('cascade'))
        .addColumn('revision', 'integer', (c) => c.notNull())
        .execute();
    },
  },
  // Website sources of knowledge bases (issue #36): the source with its crawl state, progress and last runs;
  // and each page it crawled into a file, with what a conditional GET and the unchanged check need.
  '0023_knowledge_sources': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('knowledge_sources')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('knowledge_base_id', 'text', (c) =>
          c.notNull().references('knowledge_bases.id').onDelete('cascade'),
        )
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('schedule', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('stop_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('progress', 'text', (c) => c.notNull())
        .addColumn('runs', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('next_sync_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('knowledge_sources_kb')
        .on('knowledge_sources')
        .column('knowledge_base_id')
        .execute();
      await db.schema
        .createIndex('knowledge_sources_due')
        .on('knowledge_sources')
        .column('next_sync_at')
        .execute();
      await db.schema
        .createTable('knowledge_source_pages')
        .addColumn('source_id', 'text', (c) =>
          c.notNull().references('knowledge_sources.id').onDelete('cascade'),
        )
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('file_id', 'text', (c) => c.notNull())
        .addColumn('etag', 'text')
        .addColumn('last_modified', 'text')
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('gone_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('fetched_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('knowledge_source_pages_pk', ['source_id', 'url'])
        .execute();
    },
  },
  // Human handoff (issue #35): who owns a conversation, `bot` (the default), `pending` (waiting for a person
  // since `waiting_since`), `assigned` (to the account `assigned_to`, named `assigned_name`) or `resolved` (the
  // bot answers again); when a person first replied and when it was resolved. One column per statement: SQLite
  // adds one at a time.
  '0024_conversation_handoff': {
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
  },
  // The bot's own reply texts (issue #33, item 5): JSON {notFound?, intro?, clarify?}; `{}` (every default) for
  // existing bots.
  '0025_bots_replies': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('bots')
        .addColumn('replies', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
    },
  },
  // Human handoff, the rest of issue #35: a bot's handoff settings (JSON BotHandoff: wait, opening hours, the
  // not-found offer, the handoff webhook; `{}` for existing bots), when a person was first asked for in a
  // conversation (its earlier waits are taken as that time) and the e-mail address a visitor left.
  '0026_handoff_settings': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('bots')
        .addColumn('handoff', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      for (const name of ['handoff_requested_at', 'visitor_email'])
        await db.schema.alterTable('chat_conversations').addColumn(name, 'text').execute();
      await sql`update chat_conversations set handoff_requested_at = waiting_since where waiting_since is not null`.execute(
        db,
      );
    },
  },
  // Internal notes of the inbox desk (issue #35, item 4): what the workspace's people write beside a
  // conversation, never sent to its visitor (no Chat API reads this table); gone with the conversation or bot.
  '0027_conversation_notes': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('conversation_notes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
        .addColumn('conversation_id', 'text', (c) => c.notNull())
        .addColumn('author_id', 'text', (c) => c.notNull())
        .addColumn('author_name', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('conversation_notes_conversation')
        .on('conversation_notes')
        .columns(['bot_id', 'conversation_id', 'created_at', 'id'])
        .execute();
    },
  },
  // Languages (issue #38): the language of a file (detected from its text at indexing, or its metadata's
  // `language`; null before indexing or when unknown) and a passage's lexical tokens in that language
  // (search/language/tokens.ts; null for English and unknown), indexed beside its text: SQLite's FTS5 reads
  // `content || char(10) || terms` (the view, its triggers and the tiles; the existing rows have no terms, so
  // nothing is rebuilt); PostgreSQL's tsvector adds them as `simple` words when a passage is written.
  '0028_search_languages': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('files').addColumn('language', 'text').execute();
      await db.schema.alterTable('passages').addColumn('terms', 'text').execute();
      if (db.getExecutor().adapter instanceof PostgresAdapter) return;
      const text = (row: 'new' | 'old') =>
        sql.raw(`${row}.content || coalesce(char(10) || ${row}.terms, '')`);
      const bot = (row: 'new' | 'old') => sql.raw(`'b' || hex(${row}.bot_id) || '0'`);
      for (const name of ['passages_fts_insert', 'passages_fts_delete', 'passages_fts_update'])
        await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
      await sql`drop view if exists passages_fts_source`.execute(db);
      await sql`
        create view passages_fts_source as
        select seq, content || coalesce(char(10) || terms, '') as content, breadcrumb,
          'b' || hex(bot_id) || '0' as bot from passages`.execute(db);
      await sql`
        create trigger passages_fts_insert after insert on passages begin
          insert into passages_fts(rowid, content, breadcrumb, bot)
            values (new.seq, ${text('new')}, new.breadcrumb, ${bot('new')});
        end`.execute(db);
      await sql`
        create trigger passages_fts_delete after delete on passages begin
          insert into passages_fts(passages_fts, rowid, content, breadcrumb, bot)
            values ('delete', old.seq, ${text('old')}, old.breadcrumb, ${bot('old')});
        end`.execute(db);
      await sql`
        create trigger passages_fts_update after update of content, terms, breadcrumb, bot_id on passages begin
          insert into passages_fts(passages_fts, rowid, content, breadcrumb, bot)
            values ('delete', old.seq, ${text('old')}, old.breadcrumb, ${bot('old')});
          insert into passages_fts(rowid, content, breadcrumb, bot)
            values (new.seq, ${text('new')}, new.breadcrumb, ${bot('new')});
        end`.execute(db);
    },
  },
};

/** Supplies the in-code migrations to Kysely's Migrator. */
export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
