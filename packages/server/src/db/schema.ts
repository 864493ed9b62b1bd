import type {
  BotsTable,
  BotTagsTable,
  InstallationsTable,
  IntegrationsTable,
  TokensTable,
} from './tables/bots.js';
import type {
  ChatConversationsTable,
  ChatEventsTable,
  ChatMessagesTable,
  ChatParticipantsTable,
  ChatSecretsTable,
  ChatSignalsTable,
  ChatUsersTable,
  ConversationNotesTable,
} from './tables/chat.js';
import type {
  BlobGarbageTable,
  FilesTable,
  FileTagsTable,
  FileUploadPartsTable,
  FileUploadsTable,
} from './tables/files.js';
import type {
  AccountPasswordsTable,
  AccountsTable,
  InvitationsTable,
  MembersTable,
  SessionsTable,
  SignInFailuresTable,
  WorkspacesTable,
} from './tables/identity.js';
import type {
  EmbeddingModelTable,
  KnowledgeBaseFilesTable,
  KnowledgeBasesTable,
  KnowledgeSourcePagesTable,
  KnowledgeSourcesTable,
  PassagesTable,
} from './tables/knowledge.js';
import type { AuditRecordsTable, JobsTable, MetaTable, RequestLogsTable } from './tables/platform.js';
import type { QaEntriesTable, QaRevisionsTable, QaWordingsTable } from './tables/qa.js';

/* Row types of every table, as Kysely sees them, one file per area in tables/. Timestamps are ISO 8601 text;
 * booleans are 0/1. */

/** The whole database as Kysely sees it. */
export interface Database {
  accounts: AccountsTable;
  account_passwords: AccountPasswordsTable;
  sessions: SessionsTable;
  sign_in_failures: SignInFailuresTable;
  workspaces: WorkspacesTable;
  members: MembersTable;
  invitations: InvitationsTable;
  bots: BotsTable;
  bot_tags: BotTagsTable;
  tokens: TokensTable;
  integrations: IntegrationsTable;
  installations: InstallationsTable;
  audit_records: AuditRecordsTable;
  request_logs: RequestLogsTable;
  files: FilesTable;
  file_tags: FileTagsTable;
  blob_garbage: BlobGarbageTable;
  file_uploads: FileUploadsTable;
  file_upload_parts: FileUploadPartsTable;
  meta: MetaTable;
  jobs: JobsTable;
  knowledge_bases: KnowledgeBasesTable;
  knowledge_base_files: KnowledgeBaseFilesTable;
  knowledge_sources: KnowledgeSourcesTable;
  knowledge_source_pages: KnowledgeSourcePagesTable;
  qa_entries: QaEntriesTable;
  qa_wordings: QaWordingsTable;
  qa_revisions: QaRevisionsTable;
  passages: PassagesTable;
  embedding_model: EmbeddingModelTable;
  chat_secrets: ChatSecretsTable;
  chat_users: ChatUsersTable;
  chat_conversations: ChatConversationsTable;
  conversation_notes: ConversationNotesTable;
  chat_participants: ChatParticipantsTable;
  chat_messages: ChatMessagesTable;
  chat_events: ChatEventsTable;
  chat_signals: ChatSignalsTable;
}
