import type { ColumnType, Generated } from 'kysely';

/** Row types of every table, as Kysely sees them. Timestamps are ISO 8601 text; booleans are 0/1. */
export interface AccountsTable {
  id: string;
  email: string;
  display_name: string;
  created_at: string;
  updated_at: string;
  /** The workspace whose invitation made the account, until someone signs into it; null for a claimed account. */
  unclaimed_via: string | null;
}

/** An account's password: `scrypt$…` with its parameters and salt (see access/passwords.ts). */
export interface AccountPasswordsTable {
  account_id: string;
  hash: string;
  updated_at: string;
}

/** A signed-in session: `hash` is the SHA-256 of the cookie's value, never the value itself. */
export interface SessionsTable {
  id: string;
  hash: string;
  account_id: string;
  user_agent: string;
  address: string;
  created_at: string;
  last_seen_at: string;
  /** The absolute end; the idle end is `last_seen_at` plus the idle limit. */
  expires_at: string;
  revoked_at: string | null;
}

/** One failed sign-in, counted against its key (`email:…` or `address:…`) while it is in the window. */
export interface SignInFailuresTable {
  key: string;
  failed_at: string;
  /** The attempt that reserved the row (rows from before attempts were reserved have none). */
  attempt: string | null;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  owner_id: string;
  about: string;
  contact_email: string;
  website: string;
  created_at: string;
  updated_at: string;
}

export interface MembersTable {
  id: string;
  workspace_id: string;
  account_id: string | null;
  email: string;
  role: string;
  created_at: string;
  updated_at: string;
}

export interface InvitationsTable {
  id: string;
  member_id: string;
  code_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface BotsTable {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  dev: number;
  status: string;
  created_by: string;
  reply_mode: string;
  webhook_url: string | null;
  /** none | public | all (BotSourceLinks); `public` when an insert leaves it out. */
  source_links: ColumnType<string, string | undefined, string>;
  /** The bot's reply texts, JSON (BotReplies); `{}` when an insert leaves it out. */
  replies: ColumnType<string, string | undefined, string>;
  /** The bot's human handoff settings, JSON (BotHandoff); `{}` when an insert leaves it out. */
  handoff: ColumnType<string, string | undefined, string>;
  webchat_config: string;
  created_at: string;
  updated_at: string;
  deployed_at: string;
}

export interface BotTagsTable {
  bot_id: string;
  key: string;
  value: string;
}

export interface TokensTable {
  id: string;
  kind: string;
  hash: string;
  account_id: string | null;
  bot_id: string | null;
  integration_id: string | null;
  note: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface IntegrationsTable {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface InstallationsTable {
  bot_id: string;
  integration_id: string;
  installed_at: string;
}

export interface AuditRecordsTable {
  id: string;
  workspace_id: string;
  recorded_at: string;
  account_id: string | null;
  account_email: string | null;
  action: string;
  resource_id: string | null;
  resource_name: string | null;
  value: string | null;
}

export interface RequestLogsTable {
  id: string;
  bot_id: string;
  timestamp: string;
  level: string;
  message: string;
  request_id: string;
  operation_id: string | null;
  method: string;
  path: string;
  status_code: number;
  duration_ms: number;
}

export interface FilesTable {
  id: string;
  bot_id: string;
  workspace_id: string;
  key: string;
  content_type: string;
  /**
   * Bytes of the committed content (blob_key); null until the first upload completes. A re-upsert keeps it
   * (the old bytes are still served) until its own upload commits.
   */
  size: number | null;
  /** Bytes announced by the latest upsert. */
  declared_size: number;
  sha256: string | null;
  metadata: string;
  access_policies: string;
  index: number;
  indexing_configuration: string | null;
  status: string;
  failed_status_reason: string | null;
  /** The document's language (ISO 639-1), detected at indexing or its metadata's `language`; null until known. */
  language: string | null;
  expires_at: string | null;
  owner_type: string;
  owner_id: string | null;
  /** Blob holding the committed content; null until an upload completes. */
  blob_key: string | null;
  /** Media type the committed content was uploaded with (content_type is the latest upsert's). */
  blob_content_type: string | null;
  /** Access policies (JSON) in force when the committed content was committed or last explicitly changed. */
  blob_access_policies: string | null;
  /** Bumped by every upsert: an upload URL is valid only for the version it was made for. */
  upload_version: number;
  /**
   * While `upload_pending`: until when the upload may still arrive (its upload URL's expiry, a resumable
   * session's, or an upload in flight's bound). Past it the file holds no quota and the sweep ends it
   * `upload_failed`. Null otherwise.
   */
  upload_expires_at: string | null;
  /** The chat user whose Chat API upload this is (counted apart from the team's files); null for the team's. */
  chat_user_id: string | null;
  /** Indexing progress: passages done of total, while indexing runs. */
  indexing_done: number;
  indexing_total: number;
  created_at: string;
  updated_at: string;
}

export interface FileTagsTable {
  file_id: string;
  key: string;
  value: string;
}

export interface BlobGarbageTable {
  blob_key: string;
  queued_at: string;
}

/** A resumable upload of one upload version of a file: its declared size and the bytes received so far. */
export interface FileUploadsTable {
  id: string;
  file_id: string;
  upload_version: number;
  size: number;
  offset: number;
  /** `active` while bytes are awaited, `completed` once the file holds them (kept until it expires). */
  status: string;
  created_at: string;
  updated_at: string;
  expires_at: string;
}

/** A part of a resumable upload: the bytes from `offset`, stored as the blob `blob_key`. */
export interface FileUploadPartsTable {
  upload_id: string;
  offset: number;
  size: number;
  blob_key: string;
}

/**
 * A passage of an indexed file. SQLite adds `seq` (the rowid shared with `passages_fts` and the vec0 table);
 * PostgreSQL adds `tsv` (its full-text vector). Both are written only by search/index/.
 */
export interface PassagesTable {
  id: string;
  file_id: string;
  bot_id: string;
  position: number;
  subtype: string;
  page_number: number | null;
  content: string;
  /** The passage's lexical tokens in its file's language (search/language/tokens.ts); null for English. */
  terms: string | null;
  /** JSON array of the titles above the passage. */
  breadcrumb: string;
  /** Embedding model of the passage's vector; null when it has none (yet). */
  model_id: string | null;
}

/** The embedding model of the stored vectors: one row, key 'current'. */
export interface EmbeddingModelTable {
  key: string;
  model_id: string;
  dimensions: number;
  /** 'sqlite-vec' | 'pgvector' | 'bytea'. */
  vector_store: string;
  updated_at: string;
}

export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  /** queued → running → done | failed (running again after a lost lease). */
  status: string;
  attempts: number;
  run_after: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface KnowledgeBasesTable {
  id: string;
  bot_id: string;
  name: string;
  tags: string;
  created_at: string;
  updated_at: string;
}

export interface KnowledgeBaseFilesTable {
  knowledge_base_id: string;
  file_id: string;
  linked_at: string;
}

/** A website source of a knowledge base (modules/knowledge, issue #36). */
export interface KnowledgeSourcesTable {
  id: string;
  bot_id: string;
  workspace_id: string;
  knowledge_base_id: string;
  type: string;
  url: string;
  /** JSON: include, exclude, maxPages, maxDepth, subdomains. */
  settings: string;
  schedule: string;
  /** idle, queued, running or stopping. */
  state: string;
  /** 0/1: a stop was asked for; the crawl ends at its next page. */
  stop_requested: number;
  /** JSON: the running (or last) crawl's counts and skipped pages. */
  progress: string;
  /** JSON array: the last runs' summaries, newest first. */
  runs: string;
  next_sync_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A page a website source crawled into a file of the bot. */
export interface KnowledgeSourcePagesTable {
  source_id: string;
  url: string;
  file_id: string;
  etag: string | null;
  last_modified: string | null;
  /** SHA-256 of the extracted text (or of the bytes of a PDF): an unchanged page is not indexed again. */
  content_hash: string;
  /** Syncs in a row that found the page gone (404/410); removed at 2. */
  gone_count: number;
  fetched_at: string;
}

/** A Q&A entry of a bot (modules/qa). */
export interface QaEntriesTable {
  id: string;
  bot_id: string;
  knowledge_base_id: string | null;
  /** JSON array of the wordings, in order. */
  questions: string;
  /** Markdown. */
  answer: string;
  /** JSON object. */
  tags: string;
  enabled: number;
  /** Lower-case wordings, answer and tags, for the list's search. */
  search_text: string;
  created_at: string;
  updated_at: string;
}

/** One wording of a Q&A entry: its content terms and, once embedded, its vector and the model's id. */
export interface QaWordingsTable {
  entry_id: string;
  position: number;
  bot_id: string;
  text: string;
  /** Space-separated stems of its content words. */
  terms: string;
  /** Little-endian float32 vector (null until the `qa_embed` job ran, or without an embedder). */
  vector: Buffer | Uint8Array | null;
  model_id: string | null;
}

/** How many times a bot's Q&A entries changed: a process's cached wordings of the bot hold while it stays. */
export interface QaRevisionsTable {
  bot_id: string;
  revision: number;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface ChatSecretsTable {
  bot_id: string;
  user_key_secret: string;
  webhook_secret: string;
  created_at: string;
  rotated_at: string | null;
}

export interface ChatUsersTable {
  bot_id: string;
  id: string;
  name: string | null;
  picture_url: string | null;
  /** JSON object or null. */
  data: string | null;
  user_key: string | null;
  is_bot: number;
  created_at: string;
  updated_at: string;
}

export interface ChatConversationsTable {
  bot_id: string;
  id: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  /** Who answers (HandoffState): bot | pending | assigned | resolved; `bot` when an insert leaves it out. */
  handoff_state: ColumnType<string, string | undefined, string>;
  /** Since when a visitor waits for a person (state pending). */
  waiting_since: ColumnType<string | null, string | null | undefined, string | null>;
  /** The account a conversation is assigned to, and that person's name as the visitor sees it. */
  assigned_to: ColumnType<string | null, string | null | undefined, string | null>;
  assigned_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a person first replied in it. */
  first_human_reply_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a person last resolved it. */
  resolved_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a person was first asked for in it (insights: handoff rate, wait to the first human reply). */
  handoff_requested_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The e-mail address the visitor left when nobody came (human handoff). */
  visitor_email: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An internal note of the inbox desk beside a conversation (never shown to its visitor). */
export interface ConversationNotesTable {
  id: string;
  bot_id: string;
  conversation_id: string;
  /** The account of the person who wrote it, and their name then. */
  author_id: string;
  author_name: string;
  text: string;
  created_at: string;
}

export interface ChatParticipantsTable {
  bot_id: string;
  conversation_id: string;
  user_id: string;
  joined_at: string;
}

export interface ChatMessagesTable {
  id: string;
  bot_id: string;
  conversation_id: string;
  user_id: string;
  is_bot: number;
  /** JSON message payload. */
  payload: string;
  metadata: string | null;
  feedback: string | null;
  /** The user message a bot reply answers (idempotent reply jobs). */
  reply_to: string | null;
  created_at: string;
  /** How a bot reply was made (its answer mode: `not_found`, `passages`, `generated`…); null otherwise. */
  answer: string | null;
  /** JSON: the retrieval details of a bot reply (what its `debug` signal carried); null otherwise. */
  details: string | null;
}

export interface ChatEventsTable {
  id: string;
  bot_id: string;
  conversation_id: string;
  user_id: string;
  payload: string;
  created_at: string;
}

export interface ChatSignalsTable {
  cursor: Generated<number>;
  bot_id: string;
  conversation_id: string;
  type: string;
  /** JSON signal data. */
  data: string;
  /** 1: only streams opened with the webchat adminKey receive it (debug). */
  admin_only: number;
  created_at: string;
}

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
