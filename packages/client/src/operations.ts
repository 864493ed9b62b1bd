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
  /** Where a path parameter is read from when the input names it otherwise (`{ id: 'conversationId' }`). */
  readonly from?: Readonly<Record<string, string>> | undefined;
  /** Headers sent from input fields (`{ 'x-workspace-id': 'id' }`); a field not also in the path is not sent again. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** A POST or PUT that sends no body (its input is all path parameters). */
  readonly noBody?: true | undefined;
}

/** How an entry is sent besides its route: the `Operation` fields after its path. */
type SendRules = Pick<Operation, 'from' | 'headers' | 'noBody'>;

/** The names of the `{parameters}` of a path template. */
export type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The values of some path parameters, one non-empty string each. */
export type PathParams<Names extends string> = { readonly [K in Names]: string };

/** An operation written as its route: the method, a space and the path template (`GET /v1/admin/bots/{id}`). */
export type Route = `${HttpMethod} /${string}`;

/**
 * An entry of a table as written: the route, or the method and path apart with the operation id when it is
 * not `<api>.<name>` and the rules of how its input is sent.
 */
type OperationSpec = Route | ({ method: HttpMethod; path: string; operationId?: string } & SendRules);

/** A table as written: method name → its operation. */
type OperationSpecs = Readonly<Record<string, OperationSpec>>;

/** The path template of an entry. */
type PathOf<S> = S extends `${HttpMethod} ${infer P}`
  ? P
  : S extends { path: infer P extends string }
    ? P
    : never;

/** A table of operations, keyed by the name of the client method that sends each. */
export type Operations<T extends OperationSpecs> = {
  readonly [K in keyof T & string]: Operation<PathOf<T[K]>>;
};

/** The method and path of a route. */
function parseRoute(route: Route): { method: HttpMethod; path: string } {
  const space = route.indexOf(' ');
  return { method: route.slice(0, space) as HttpMethod, path: route.slice(space + 1) };
}

/**
 * Declares the operations of one API: each method name maps to its route (or its method and path); its
 * operation id is `<api>.<name>` unless given (where the client's name differs from the server's).
 * @example operations('admin', { getBot: 'GET /v1/admin/bots/{id}' })
 */
export function operations<const T extends OperationSpecs>(api: string, specs: T): Operations<T> {
  const table: Record<string, Operation> = {};
  for (const [name, spec] of Object.entries(specs)) {
    table[name] = { operationId: `${api}.${name}`, ...(typeof spec === 'string' ? parseRoute(spec) : spec) };
  }
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
  listBots: 'GET /v1/admin/bots',
  createBot: 'POST /v1/admin/bots',
  getBot: 'GET /v1/admin/bots/{id}',
  updateBot: 'PUT /v1/admin/bots/{id}',
  deleteBot: 'DELETE /v1/admin/bots/{id}',
  listBotAccessKeys: 'GET /v1/admin/bots/{id}/access-keys',
  createBotAccessKey: 'POST /v1/admin/bots/{id}/access-keys',
  revokeBotAccessKey: 'DELETE /v1/admin/bots/{id}/access-keys/{keyId}',
  getBotWebchat: 'GET /v1/admin/bots/{id}/webchat',
  updateBotWebchat: 'PUT /v1/admin/bots/{id}/webchat',
  getBotChat: 'GET /v1/admin/bots/{id}/chat',
  rotateBotChatSecrets: { method: 'POST', path: '/v1/admin/bots/{id}/chat/rotate-secrets', noBody: true },
  getBotLogs: 'GET /v1/admin/bots/{id}/logs',
  listBotUsages: 'GET /v1/admin/bots/{id}/usages',
  listBotConversations: 'GET /v1/admin/bots/{id}/conversations',
  getBotConversationCounts: 'GET /v1/admin/bots/{id}/conversations/counts',
  getBotConversation: 'GET /v1/admin/bots/{id}/conversations/{conversationId}',
  listBotConversationMessages: 'GET /v1/admin/bots/{id}/conversations/{conversationId}/messages',
  getConversationHandoff: 'GET /v1/admin/bots/{id}/conversations/{conversationId}/handoff',
  changeConversationHandoff: 'POST /v1/admin/bots/{id}/conversations/{conversationId}/handoff',
  createAgentMessage: 'POST /v1/admin/bots/{id}/conversations/{conversationId}/messages',
  getBotInsights: 'GET /v1/admin/bots/{id}/insights',
  previewBotAnswer: 'POST /v1/admin/bots/{id}/answer-preview',
  listQaEntries: 'GET /v1/admin/bots/{id}/qa',
  createQaEntry: 'POST /v1/admin/bots/{id}/qa',
  getQaEntry: 'GET /v1/admin/bots/{id}/qa/{entryId}',
  updateQaEntry: 'PUT /v1/admin/bots/{id}/qa/{entryId}',
  deleteQaEntry: 'DELETE /v1/admin/bots/{id}/qa/{entryId}',
});

/** The rule of the operations on the workspace their path names: its id is sent as `x-workspace-id` too. */
const WORKSPACE_IN_PATH = { headers: { 'x-workspace-id': 'id' } } as const;

/** The workspaces and members part of the Admin API: one entry per method of `WorkspacesApi`. */
export const WORKSPACE_OPERATIONS = operations('admin', {
  listWorkspaces: 'GET /v1/admin/workspaces',
  createWorkspace: 'POST /v1/admin/workspaces',
  getWorkspace: { method: 'GET', path: '/v1/admin/workspaces/{id}', ...WORKSPACE_IN_PATH },
  updateWorkspace: { method: 'PUT', path: '/v1/admin/workspaces/{id}', ...WORKSPACE_IN_PATH },
  deleteWorkspace: { method: 'DELETE', path: '/v1/admin/workspaces/{id}', ...WORKSPACE_IN_PATH },
  listWorkspaceUsages: { method: 'GET', path: '/v1/admin/workspaces/{id}/usages', ...WORKSPACE_IN_PATH },
  getAuditRecords: { method: 'GET', path: '/v1/admin/workspaces/{id}/audit-records', ...WORKSPACE_IN_PATH },
  listWorkspaceMembers: 'GET /v1/admin/workspace-members',
  getWorkspaceMember: 'GET /v1/admin/workspace-members/me',
  getWorkspaceMemberById: 'GET /v1/admin/workspace-members/{id}',
  addWorkspaceMember: {
    method: 'POST',
    path: '/v1/admin/workspace-members',
    operationId: 'admin.createWorkspaceMember',
  },
  updateWorkspaceMember: 'PUT /v1/admin/workspace-members/{id}',
  removeWorkspaceMember: {
    method: 'DELETE',
    path: '/v1/admin/workspace-members/{id}',
    operationId: 'admin.deleteWorkspaceMember',
  },
});

/** The account part of the Admin API: one entry per method of `AccountApi`. */
export const ACCOUNT_OPERATIONS = operations('admin', {
  acceptInvitation: 'POST /v1/admin/account/invitations/accept',
  getAccount: 'GET /v1/admin/account/me',
  updateAccount: 'PUT /v1/admin/account/me',
  listPersonalAccessTokens: 'GET /v1/admin/account/pats',
  createPersonalAccessToken: 'POST /v1/admin/account/pats',
  deletePersonalAccessToken: 'DELETE /v1/admin/account/pats/{id}',
  signIn: 'POST /v1/admin/account/sessions',
  listSessions: 'GET /v1/admin/account/sessions',
  signOut: 'DELETE /v1/admin/account/sessions/current',
  revokeSession: 'DELETE /v1/admin/account/sessions/{id}',
  revokeAllSessions: 'DELETE /v1/admin/account/sessions',
  changePassword: 'PUT /v1/admin/account/password',
});

/** The integrations part of the Admin API: one entry per method of `IntegrationsApi`. */
export const INTEGRATION_OPERATIONS = operations('admin', {
  listIntegrations: 'GET /v1/admin/integrations',
  createIntegration: 'POST /v1/admin/integrations',
  getIntegration: 'GET /v1/admin/integrations/{id}',
  deleteIntegration: 'DELETE /v1/admin/integrations/{id}',
  listBotIntegrations: 'GET /v1/admin/bots/{id}/integrations',
  installIntegration: {
    method: 'PUT',
    path: '/v1/admin/bots/{id}/integrations/{integrationId}',
    noBody: true,
  },
  uninstallIntegration: 'DELETE /v1/admin/bots/{id}/integrations/{integrationId}',
  listIntegrationKeys: 'GET /v1/admin/bots/{id}/integrations/{integrationId}/keys',
  createIntegrationKey: 'POST /v1/admin/bots/{id}/integrations/{integrationId}/keys',
  revokeIntegrationKey: 'DELETE /v1/admin/bots/{id}/integrations/{integrationId}/keys/{keyId}',
});

/** The file records part of the Files API: one entry per method of `FilesApi`. */
export const FILE_OPERATIONS = operations('files', {
  upsertFile: 'PUT /v1/files',
  listFiles: 'GET /v1/files',
  getFile: 'GET /v1/files/{id}',
  updateFileMetadata: 'PUT /v1/files/{id}',
  deleteFile: 'DELETE /v1/files/{id}',
  copyFile: {
    method: 'POST',
    path: '/v1/files/{id}/{destinationKey}',
    headers: { 'x-destination-bot-id': 'destinationBotId' },
  },
  listFileTags: 'GET /v1/files/tags',
  listFileTagValues: 'GET /v1/files/tags/{tag}/values',
  searchFiles: 'GET /v1/files/search',
  listFilePassages: 'GET /v1/files/{id}/passages',
  setFilePassages: 'PUT /v1/files/{id}/passages',
  reindexFile: { method: 'PUT', path: '/v1/files/{id}/index', noBody: true },
});

/** The knowledge bases part of the Files API: one entry per method of `KnowledgeBasesApi`. */
export const KNOWLEDGE_BASE_OPERATIONS = operations('files', {
  listKnowledgeBases: 'GET /v1/files/knowledge-bases',
  createKnowledgeBase: 'POST /v1/files/knowledge-bases',
  getKnowledgeBase: 'GET /v1/files/knowledge-bases/{id}',
  updateKnowledgeBase: 'PUT /v1/files/knowledge-bases/{id}',
  deleteKnowledgeBase: 'DELETE /v1/files/knowledge-bases/{id}',
  listKnowledgeBaseFiles: 'GET /v1/files/knowledge-bases/{id}/files',
  linkKnowledgeBaseFile: {
    method: 'PUT',
    path: '/v1/files/knowledge-bases/{id}/files/{fileId}',
    noBody: true,
  },
  unlinkKnowledgeBaseFile: 'DELETE /v1/files/knowledge-bases/{id}/files/{fileId}',
  createKnowledgeSource: 'POST /v1/files/knowledge-bases/{id}/sources',
  listKnowledgeSources: 'GET /v1/files/knowledge-bases/{id}/sources',
  getKnowledgeSource: 'GET /v1/files/knowledge-bases/{id}/sources/{sourceId}',
  syncKnowledgeSource: {
    method: 'POST',
    path: '/v1/files/knowledge-bases/{id}/sources/{sourceId}/sync',
    noBody: true,
  },
  stopKnowledgeSource: {
    method: 'POST',
    path: '/v1/files/knowledge-bases/{id}/sources/{sourceId}/stop',
    noBody: true,
  },
  deleteKnowledgeSource: 'DELETE /v1/files/knowledge-bases/{id}/sources/{sourceId}',
});

/** The rule of the chat operations under `/conversations/{id}`: the input names that id `conversationId`. */
const CONVERSATION_IN_PATH = { from: { id: 'conversationId' } } as const;

/** The Chat API of one bot (`/v1/chat/{botId}`; the chat client fills `botId`): one entry per method of `ChatClient`. */
export const CHAT_OPERATIONS = operations('chat', {
  createUser: 'POST /v1/chat/{botId}/users',
  getOrCreateUser: 'POST /v1/chat/{botId}/users/get-or-create',
  getUser: 'GET /v1/chat/{botId}/users/me',
  updateUser: 'PUT /v1/chat/{botId}/users/me',
  deleteUser: 'DELETE /v1/chat/{botId}/users/me',
  createConversation: 'POST /v1/chat/{botId}/conversations',
  getOrCreateConversation: 'POST /v1/chat/{botId}/conversations/get-or-create',
  listConversations: 'GET /v1/chat/{botId}/conversations',
  getConversation: 'GET /v1/chat/{botId}/conversations/{id}',
  deleteConversation: 'DELETE /v1/chat/{botId}/conversations/{id}',
  listMessages: {
    method: 'GET',
    path: '/v1/chat/{botId}/conversations/{id}/messages',
    ...CONVERSATION_IN_PATH,
  },
  createMessage: 'POST /v1/chat/{botId}/messages',
  getMessage: 'GET /v1/chat/{botId}/messages/{id}',
  deleteMessage: 'DELETE /v1/chat/{botId}/messages/{id}',
  setMessageFeedback: 'PUT /v1/chat/{botId}/messages/{id}/feedback',
  createEvent: 'POST /v1/chat/{botId}/events',
  getEvent: 'GET /v1/chat/{botId}/events/{id}',
  listParticipants: {
    method: 'GET',
    path: '/v1/chat/{botId}/conversations/{id}/participants',
    ...CONVERSATION_IN_PATH,
  },
  addParticipant: {
    method: 'POST',
    path: '/v1/chat/{botId}/conversations/{id}/participants',
    ...CONVERSATION_IN_PATH,
  },
  getParticipant: {
    method: 'GET',
    path: '/v1/chat/{botId}/conversations/{id}/participants/{userId}',
    ...CONVERSATION_IN_PATH,
  },
  removeParticipant: {
    method: 'DELETE',
    path: '/v1/chat/{botId}/conversations/{id}/participants/{userId}',
    ...CONVERSATION_IN_PATH,
  },
  createFile: 'POST /v1/chat/{botId}/files',
  listen: {
    method: 'GET',
    path: '/v1/chat/{botId}/conversations/{id}/listen',
    operationId: 'chat.listenConversation',
  },
});
