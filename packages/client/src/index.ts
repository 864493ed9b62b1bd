export type {
  Account,
  AuditRecord,
  Bot,
  BotInsights,
  BotReplies,
  BotReplyTexts,
  BotSourceLinks,
  BotSummary,
  ChatConversation,
  ChatEvent,
  ChatMessage,
  ChatSignal,
  ChatUser,
  CreatedToken,
  ErrorType,
  FileAccessPolicy,
  FileObject,
  FileStatus,
  InsightsDay,
  InsightsPeriod,
  Integration,
  KnowledgeBase,
  ListBotsResponse,
  ListMeta,
  LogEntry,
  Member,
  MessagePayload,
  Role,
  SearchMode,
  SearchPassage,
  TokenInfo,
  UnansweredQuestion,
  Usage,
  WebchatConfiguration,
  Workspace,
} from '@parley/protocol';
export * from './admin-types.js';
export * from './chat.js';
export * from './chat-types.js';
export * from './client.js';
export * from './errors.js';
export * from './files-types.js';
export { DEFAULT_TIMEOUT_MS, type HttpMethod, type RequestOptions } from './http.js';
export * from './inbox-types.js';
export * from './local-errors.js';
export * from './pagination.js';
export * from './qa-types.js';
export { encodeQuery, type QueryValue, type TagFilter } from './query.js';
export {
  DEFAULT_RESUMABLE_ATTEMPTS,
  DEFAULT_RESUMABLE_CHUNK_SIZE,
  DEFAULT_RESUMABLE_THRESHOLD,
  type ResumableOptions,
} from './resumable-options.js';
export { DEFAULT_RETRY, type RetryOptions } from './retry.js';
export type { UploadProgress, UploadSource } from './transfer.js';
