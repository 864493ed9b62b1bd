// The tables a migrated database holds, as the dialect tests assert them.

/** The application's tables, on every dialect, by name. */
export const APP_TABLES = [
  'account_passwords',
  'accounts',
  'audit_records',
  'blob_garbage',
  'bot_tags',
  'bots',
  'chat_conversations',
  'chat_events',
  'chat_messages',
  'chat_participants',
  'chat_secrets',
  'chat_signals',
  'chat_users',
  'conversation_notes',
  'embedding_model',
  'file_tags',
  'file_upload_parts',
  'file_uploads',
  'files',
  'installations',
  'integrations',
  'invitations',
  'jobs',
  'knowledge_base_files',
  'knowledge_bases',
  'knowledge_source_pages',
  'knowledge_sources',
  'members',
  'meta',
  'passages',
  'qa_entries',
  'qa_revisions',
  'qa_wordings',
  'rate_limits',
  'request_logs',
  'sessions',
  'sign_in_failures',
  'tokens',
  'workspaces',
] as const;

/**
 * SQLite's full-text indexes (FTS5 virtual tables and their shadow tables) over passages and their tiles, and
 * the log of changed files the in-memory lexical index follows (migration 0014).
 */
export const SQLITE_FTS_TABLES = [
  ...['passage_tiles', 'passages_fts'].flatMap((name) => [
    name,
    ...['config', 'data', 'docsize', 'idx'].map((part) => `${name}_${part}`),
  ]),
  'passage_changes',
];

/** Names sorted as the databases' `order by name` sorts them (bytewise, `_` after letters' ASCII order). */
export function sortedNames(names: readonly string[]): string[] {
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
