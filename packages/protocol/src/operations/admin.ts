import { operations } from './operation.js';

/** The bots part of the Admin API: one entry per method of `BotsApi`. */
export const BOT_OPERATIONS = /* @__PURE__ */ operations('admin', {
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
  // Conversation exports (JSON or CSV, streamed): `Client.exportBotConversations`, not a request method.
  exportBotConversations: 'GET /v1/admin/bots/{id}/conversations/export',
  exportBotConversation: 'GET /v1/admin/bots/{id}/conversations/{conversationId}/export',
  // The inbox desk's live stream (Server-Sent Events): `Client.listenBotConversations`, not a request method.
  listenBotConversations: 'GET /v1/admin/bots/{id}/conversations/live',
  getBotConversation: 'GET /v1/admin/bots/{id}/conversations/{conversationId}',
  listBotConversationMessages: 'GET /v1/admin/bots/{id}/conversations/{conversationId}/messages',
  getConversationHandoff: 'GET /v1/admin/bots/{id}/conversations/{conversationId}/handoff',
  changeConversationHandoff: 'POST /v1/admin/bots/{id}/conversations/{conversationId}/handoff',
  createAgentMessage: 'POST /v1/admin/bots/{id}/conversations/{conversationId}/messages',
  setAgentTyping: 'POST /v1/admin/bots/{id}/conversations/{conversationId}/typing',
  listConversationNotes: 'GET /v1/admin/bots/{id}/conversations/{conversationId}/notes',
  createConversationNote: 'POST /v1/admin/bots/{id}/conversations/{conversationId}/notes',
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
export const WORKSPACE_OPERATIONS = /* @__PURE__ */ operations('admin', {
  listWorkspaces: { method: 'GET', path: '/v1/admin/workspaces', auth: 'account' },
  createWorkspace: { method: 'POST', path: '/v1/admin/workspaces', auth: 'account' },
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
  renewWorkspaceInvitation: {
    method: 'POST',
    path: '/v1/admin/workspace-members/{id}/invitation',
    noBody: true,
  },
  removeWorkspaceMember: {
    method: 'DELETE',
    path: '/v1/admin/workspace-members/{id}',
    operationId: 'admin.deleteWorkspaceMember',
  },
});

/** The account part of the Admin API: one entry per method of `AccountApi`. */
export const ACCOUNT_OPERATIONS = /* @__PURE__ */ operations(
  'admin',
  {
    acceptInvitation: { method: 'POST', path: '/v1/admin/account/invitations/accept', auth: 'optional' },
    getAccount: 'GET /v1/admin/account/me',
    updateAccount: 'PUT /v1/admin/account/me',
    listPersonalAccessTokens: 'GET /v1/admin/account/pats',
    createPersonalAccessToken: 'POST /v1/admin/account/pats',
    deletePersonalAccessToken: 'DELETE /v1/admin/account/pats/{id}',
    signIn: { method: 'POST', path: '/v1/admin/account/sessions', auth: 'none' },
    listSessions: 'GET /v1/admin/account/sessions',
    signOut: 'DELETE /v1/admin/account/sessions/current',
    revokeSession: 'DELETE /v1/admin/account/sessions/{id}',
    revokeAllSessions: 'DELETE /v1/admin/account/sessions',
    changePassword: 'PUT /v1/admin/account/password',
  },
  { auth: 'account' },
);

/** The integrations part of the Admin API: one entry per method of `IntegrationsApi`. */
export const INTEGRATION_OPERATIONS = /* @__PURE__ */ operations('admin', {
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
