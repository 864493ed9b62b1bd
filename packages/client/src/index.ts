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
export type * from '@parley/protocol/operations/io/admin';
export type * from '@parley/protocol/operations/io/files';
export type * from '@parley/protocol/operations/io/inbox';
export type * from '@parley/protocol/operations/io/qa';
export * from './chat.js';
export * from './chat-types.js';
export * from './client.js';
export * from './errors.js';
export { DEFAULT_TIMEOUT_MS, type HttpMethod, type RequestOptions } from './http.js';
export * from './local-errors.js';
export * from './pagination.js';
export { encodeQuery, type QueryValue } from './query.js';
export {
  DEFAULT_RESUMABLE_ATTEMPTS,
  DEFAULT_RESUMABLE_CHUNK_SIZE,
  DEFAULT_RESUMABLE_THRESHOLD,
  type ResumableOptions,
} from './resumable-options.js';
export { DEFAULT_RETRY, type RetryOptions } from './retry.js';
export type { UploadProgress, UploadSource } from './transfer.js';
