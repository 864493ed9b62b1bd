import type { HttpMethod } from './http.js';

/**
 * One operation of the API as the client sends it: the HTTP method, the path template and the operation id
 * of the server's OpenAPI document. Each API class has a table of them below, one entry per method, and
 * sends every request through it, so a test can hold the tables against `/openapi.json` (`drift.test.ts`).
 */
export interface Operation<P extends string = string> {
  readonly method: HttpMethod;
  /** The path as the OpenAPI document writes it, parameters in braces: `/v1/admin/bots/{id}`. */
  readonly path: P;
  /** The server's operation id, e.g. `admin.getBot`. */
  readonly operationId: string;
}

/** The names of the `{parameters}` of a path template. */
export type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The values of some path parameters, one non-empty string each. */
export type PathParams<Names extends string> = { readonly [K in Names]: string };

/** A table as written: method name → method and path, with the operation id when it is not `<api>.<name>`. */
type OperationSpecs = Readonly<Record<string, { method: HttpMethod; path: string; operationId?: string }>>;

/** A table of operations, keyed by the name of the client method that sends each. */
export type Operations<T extends OperationSpecs> = {
  readonly [K in keyof T & string]: Operation<T[K]['path']>;
};

/**
 * Declares the operations of one API: each method name maps to its method and path; its operation id is
 * `<api>.<name>` unless given (where the client's name differs from the server's).
 * @example operations('admin', { getBot: { method: 'GET', path: '/v1/admin/bots/{id}' } })
 */
export function operations<const T extends OperationSpecs>(api: string, specs: T): Operations<T> {
  const table: Record<string, Operation> = {};
  for (const [name, spec] of Object.entries(specs)) table[name] = { operationId: `${api}.${name}`, ...spec };
  return table as Operations<T>;
}

/**
 * Fills a path template, encoding each value as one path segment (a file key `docs/a.pdf` stays one).
 * @example fillPath('/v1/admin/bots/{id}', { id: 'bot_1' }) // '/v1/admin/bots/bot_1'
 */
export function fillPath(template: string, params: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '') {
      throw new TypeError(`Path parameter ${name} of ${template} must be a non-empty string`);
    }
    return encodeURIComponent(value);
  });
}

// ---- the tables: every operation the client sends, by API class ----

/** The bots part of the Admin API: one entry per method of `BotsApi`. */
export const BOT_OPERATIONS = operations('admin', {
  listBots: { method: 'GET', path: '/v1/admin/bots' },
  createBot: { method: 'POST', path: '/v1/admin/bots' },
  getBot: { method: 'GET', path: '/v1/admin/bots/{id}' },
  updateBot: { method: 'PUT', path: '/v1/admin/bots/{id}' },
  deleteBot: { method: 'DELETE', path: '/v1/admin/bots/{id}' },
  listBotAccessKeys: { method: 'GET', path: '/v1/admin/bots/{id}/access-keys' },
  createBotAccessKey: { method: 'POST', path: '/v1/admin/bots/{id}/access-keys' },
  revokeBotAccessKey: { method: 'DELETE', path: '/v1/admin/bots/{id}/access-keys/{keyId}' },
  getBotWebchat: { method: 'GET', path: '/v1/admin/bots/{id}/webchat' },
  updateBotWebchat: { method: 'PUT', path: '/v1/admin/bots/{id}/webchat' },
  getBotChat: { method: 'GET', path: '/v1/admin/bots/{id}/chat' },
  rotateBotChatSecrets: { method: 'POST', path: '/v1/admin/bots/{id}/chat/rotate-secrets' },
  getBotLogs: { method: 'GET', path: '/v1/admin/bots/{id}/logs' },
  listBotUsages: { method: 'GET', path: '/v1/admin/bots/{id}/usages' },
});

/** The workspaces and members part of the Admin API: one entry per method of `WorkspacesApi`. */
export const WORKSPACE_OPERATIONS = operations('admin', {
  listWorkspaces: { method: 'GET', path: '/v1/admin/workspaces' },
  createWorkspace: { method: 'POST', path: '/v1/admin/workspaces' },
  getWorkspace: { method: 'GET', path: '/v1/admin/workspaces/{id}' },
  updateWorkspace: { method: 'PUT', path: '/v1/admin/workspaces/{id}' },
  deleteWorkspace: { method: 'DELETE', path: '/v1/admin/workspaces/{id}' },
  listWorkspaceUsages: { method: 'GET', path: '/v1/admin/workspaces/{id}/usages' },
  getAuditRecords: { method: 'GET', path: '/v1/admin/workspaces/{id}/audit-records' },
  listWorkspaceMembers: { method: 'GET', path: '/v1/admin/workspace-members' },
  getWorkspaceMember: { method: 'GET', path: '/v1/admin/workspace-members/me' },
  getWorkspaceMemberById: { method: 'GET', path: '/v1/admin/workspace-members/{id}' },
  addWorkspaceMember: {
    method: 'POST',
    path: '/v1/admin/workspace-members',
    operationId: 'admin.createWorkspaceMember',
  },
  updateWorkspaceMember: { method: 'PUT', path: '/v1/admin/workspace-members/{id}' },
  removeWorkspaceMember: {
    method: 'DELETE',
    path: '/v1/admin/workspace-members/{id}',
    operationId: 'admin.deleteWorkspaceMember',
  },
});

/** The account part of the Admin API: one entry per method of `AccountApi`. */
export const ACCOUNT_OPERATIONS = operations('admin', {
  acceptInvitation: { method: 'POST', path: '/v1/admin/account/invitations/accept' },
  getAccount: { method: 'GET', path: '/v1/admin/account/me' },
  updateAccount: { method: 'PUT', path: '/v1/admin/account/me' },
  listPersonalAccessTokens: { method: 'GET', path: '/v1/admin/account/pats' },
  createPersonalAccessToken: { method: 'POST', path: '/v1/admin/account/pats' },
  deletePersonalAccessToken: { method: 'DELETE', path: '/v1/admin/account/pats/{id}' },
});

/** The integrations part of the Admin API: one entry per method of `IntegrationsApi`. */
export const INTEGRATION_OPERATIONS = operations('admin', {
  listIntegrations: { method: 'GET', path: '/v1/admin/integrations' },
  createIntegration: { method: 'POST', path: '/v1/admin/integrations' },
  getIntegration: { method: 'GET', path: '/v1/admin/integrations/{id}' },
  deleteIntegration: { method: 'DELETE', path: '/v1/admin/integrations/{id}' },
  listBotIntegrations: { method: 'GET', path: '/v1/admin/bots/{id}/integrations' },
  installIntegration: { method: 'PUT', path: '/v1/admin/bots/{id}/integrations/{integrationId}' },
  uninstallIntegration: { method: 'DELETE', path: '/v1/admin/bots/{id}/integrations/{integrationId}' },
  listIntegrationKeys: { method: 'GET', path: '/v1/admin/bots/{id}/integrations/{integrationId}/keys' },
  createIntegrationKey: { method: 'POST', path: '/v1/admin/bots/{id}/integrations/{integrationId}/keys' },
  revokeIntegrationKey: {
    method: 'DELETE',
    path: '/v1/admin/bots/{id}/integrations/{integrationId}/keys/{keyId}',
  },
});

/** The file records part of the Files API: one entry per method of `FilesApi`. */
export const FILE_OPERATIONS = operations('files', {
  upsertFile: { method: 'PUT', path: '/v1/files' },
  listFiles: { method: 'GET', path: '/v1/files' },
  getFile: { method: 'GET', path: '/v1/files/{id}' },
  updateFileMetadata: { method: 'PUT', path: '/v1/files/{id}' },
  deleteFile: { method: 'DELETE', path: '/v1/files/{id}' },
  copyFile: { method: 'POST', path: '/v1/files/{id}/{destinationKey}' },
  listFileTags: { method: 'GET', path: '/v1/files/tags' },
  listFileTagValues: { method: 'GET', path: '/v1/files/tags/{tag}/values' },
  searchFiles: { method: 'GET', path: '/v1/files/search' },
  listFilePassages: { method: 'GET', path: '/v1/files/{id}/passages' },
  setFilePassages: { method: 'PUT', path: '/v1/files/{id}/passages' },
  reindexFile: { method: 'PUT', path: '/v1/files/{id}/index' },
});

/** The knowledge bases part of the Files API: one entry per method of `KnowledgeBasesApi`. */
export const KNOWLEDGE_BASE_OPERATIONS = operations('files', {
  listKnowledgeBases: { method: 'GET', path: '/v1/files/knowledge-bases' },
  createKnowledgeBase: { method: 'POST', path: '/v1/files/knowledge-bases' },
  getKnowledgeBase: { method: 'GET', path: '/v1/files/knowledge-bases/{id}' },
  updateKnowledgeBase: { method: 'PUT', path: '/v1/files/knowledge-bases/{id}' },
  deleteKnowledgeBase: { method: 'DELETE', path: '/v1/files/knowledge-bases/{id}' },
  listKnowledgeBaseFiles: { method: 'GET', path: '/v1/files/knowledge-bases/{id}/files' },
  linkKnowledgeBaseFile: { method: 'PUT', path: '/v1/files/knowledge-bases/{id}/files/{fileId}' },
  unlinkKnowledgeBaseFile: { method: 'DELETE', path: '/v1/files/knowledge-bases/{id}/files/{fileId}' },
});

/** The Chat API of one bot (`/v1/chat/{botId}`; the chat client fills `botId`): one entry per method of `ChatClient`. */
export const CHAT_OPERATIONS = operations('chat', {
  createUser: { method: 'POST', path: '/v1/chat/{botId}/users' },
  getOrCreateUser: { method: 'POST', path: '/v1/chat/{botId}/users/get-or-create' },
  getUser: { method: 'GET', path: '/v1/chat/{botId}/users/me' },
  updateUser: { method: 'PUT', path: '/v1/chat/{botId}/users/me' },
  deleteUser: { method: 'DELETE', path: '/v1/chat/{botId}/users/me' },
  createConversation: { method: 'POST', path: '/v1/chat/{botId}/conversations' },
  getOrCreateConversation: { method: 'POST', path: '/v1/chat/{botId}/conversations/get-or-create' },
  listConversations: { method: 'GET', path: '/v1/chat/{botId}/conversations' },
  getConversation: { method: 'GET', path: '/v1/chat/{botId}/conversations/{id}' },
  deleteConversation: { method: 'DELETE', path: '/v1/chat/{botId}/conversations/{id}' },
  listMessages: { method: 'GET', path: '/v1/chat/{botId}/conversations/{id}/messages' },
  createMessage: { method: 'POST', path: '/v1/chat/{botId}/messages' },
  getMessage: { method: 'GET', path: '/v1/chat/{botId}/messages/{id}' },
  deleteMessage: { method: 'DELETE', path: '/v1/chat/{botId}/messages/{id}' },
  setMessageFeedback: { method: 'PUT', path: '/v1/chat/{botId}/messages/{id}/feedback' },
  createEvent: { method: 'POST', path: '/v1/chat/{botId}/events' },
  getEvent: { method: 'GET', path: '/v1/chat/{botId}/events/{id}' },
  listParticipants: { method: 'GET', path: '/v1/chat/{botId}/conversations/{id}/participants' },
  addParticipant: { method: 'POST', path: '/v1/chat/{botId}/conversations/{id}/participants' },
  getParticipant: { method: 'GET', path: '/v1/chat/{botId}/conversations/{id}/participants/{userId}' },
  removeParticipant: { method: 'DELETE', path: '/v1/chat/{botId}/conversations/{id}/participants/{userId}' },
  createFile: { method: 'POST', path: '/v1/chat/{botId}/files' },
  listen: {
    method: 'GET',
    path: '/v1/chat/{botId}/conversations/{id}/listen',
    operationId: 'chat.listenConversation',
  },
});
