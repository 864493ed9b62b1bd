import type { Migration, MigrationProvider } from 'kysely';
import { migration as m0003 } from './0003_passages.js';
import { migration as m0005 } from './0005_passage_tiles.js';
import { migration as m0006 } from './0006_chat.js';
import { migration as m0011 } from './0011_passage_fts_bot.js';
import { migration as m0014 } from './0014_passage_changes.js';
import { migration as m0018 } from './0018_files_upload_reservations.js';
import { migration as m0020 } from './0020_qa_entries.js';
import { migration as m0028 } from './0028_search_languages.js';
import { sqlMigrations } from './sql-file.js';

/* Migrations are portable across SQLite and PostgreSQL: text ids and ISO timestamps, integers for booleans,
 * JSON as text. A migration's id is its file's name: `NNNN_name.sql` when its statements are the same on both
 * engines, `NNNN_name.ts` (which may run a `.sql` file of the same name too) when they differ or need code.
 * Listed here in order. Never edit a released migration (schema-history.test.ts holds what each one made);
 * add a new one. */
const migrations: Record<string, Migration> = {
  ...sqlMigrations('0001_identity_and_admin', '0002_files'),
  '0003_passages': m0003,
  ...sqlMigrations('0004_jobs_and_knowledge_bases'),
  '0005_passage_tiles': m0005,
  '0006_chat': m0006,
  ...sqlMigrations(
    '0007_file_served_content',
    '0008_account_passwords_and_sessions',
    '0009_chat_reply_details',
    '0010_chat_messages_bot_time',
  ),
  '0011_passage_fts_bot': m0011,
  ...sqlMigrations('0012_rate_limits', '0013_resumable_uploads'),
  '0014_passage_changes': m0014,
  ...sqlMigrations('0015_passages_unembedded', '0016_chat_messages_reply_to_set', '0017_bots_source_links'),
  '0018_files_upload_reservations': m0018,
  ...sqlMigrations('0019_sign_in_attempts_and_unclaimed_accounts'),
  '0020_qa_entries': m0020,
  ...sqlMigrations(
    '0023_knowledge_sources',
    '0024_conversation_handoff',
    '0025_bots_replies',
    '0026_handoff_settings',
    '0027_conversation_notes',
  ),
  '0028_search_languages': m0028,
  ...sqlMigrations('0029_files_language'),
};

/** Supplies the migrations to Kysely's Migrator. */
export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
