import type { MigrationProvider } from 'kysely';
import { migration as m0001 } from './0001_identity_and_admin.js';
import { migration as m0002 } from './0002_files.js';
import { migration as m0003 } from './0003_passages.js';
import { migration as m0004 } from './0004_jobs_and_knowledge_bases.js';
import { migration as m0005 } from './0005_passage_tiles.js';
import { migration as m0006 } from './0006_chat.js';
import { migration as m0007 } from './0007_file_served_content.js';
import { migration as m0008 } from './0008_account_passwords_and_sessions.js';
import { migration as m0009 } from './0009_chat_reply_details.js';
import { migration as m0010 } from './0010_chat_messages_bot_time.js';
import { migration as m0011 } from './0011_passage_fts_bot.js';
import { migration as m0012 } from './0012_rate_limits.js';
import { migration as m0013 } from './0013_resumable_uploads.js';
import { migration as m0014 } from './0014_passage_changes.js';
import { migration as m0015 } from './0015_passages_unembedded.js';
import { migration as m0016 } from './0016_chat_messages_reply_to_set.js';
import { migration as m0017 } from './0017_bots_source_links.js';
import { migration as m0018 } from './0018_files_upload_reservations.js';
import { migration as m0019 } from './0019_sign_in_attempts_and_unclaimed_accounts.js';
import { migration as m0020 } from './0020_qa_entries.js';
import { migration as m0023 } from './0023_knowledge_sources.js';
import { migration as m0024 } from './0024_conversation_handoff.js';
import { migration as m0025 } from './0025_bots_replies.js';
import { migration as m0026 } from './0026_handoff_settings.js';
import { migration as m0027 } from './0027_conversation_notes.js';
import { migration as m0028 } from './0028_search_languages.js';

/* Migrations are plain objects in code, portable across SQLite and PostgreSQL: text ids and ISO timestamps,
 * integers for booleans, JSON as text. One file per migration, listed here in order; a migration's id is its
 * file's name. Never edit a released migration; add a new one. */
const migrations = {
  '0001_identity_and_admin': m0001,
  '0002_files': m0002,
  '0003_passages': m0003,
  '0004_jobs_and_knowledge_bases': m0004,
  '0005_passage_tiles': m0005,
  '0006_chat': m0006,
  '0007_file_served_content': m0007,
  '0008_account_passwords_and_sessions': m0008,
  '0009_chat_reply_details': m0009,
  '0010_chat_messages_bot_time': m0010,
  '0011_passage_fts_bot': m0011,
  '0012_rate_limits': m0012,
  '0013_resumable_uploads': m0013,
  '0014_passage_changes': m0014,
  '0015_passages_unembedded': m0015,
  '0016_chat_messages_reply_to_set': m0016,
  '0017_bots_source_links': m0017,
  '0018_files_upload_reservations': m0018,
  '0019_sign_in_attempts_and_unclaimed_accounts': m0019,
  '0020_qa_entries': m0020,
  '0023_knowledge_sources': m0023,
  '0024_conversation_handoff': m0024,
  '0025_bots_replies': m0025,
  '0026_handoff_settings': m0026,
  '0027_conversation_notes': m0027,
  '0028_search_languages': m0028,
};

/** Supplies the in-code migrations to Kysely's Migrator. */
export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
