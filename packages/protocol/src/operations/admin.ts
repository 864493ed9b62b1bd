import type { ListBotsResponse, Member, Workspace } from '../index.js';
import type {
  AcceptInvitationInput,
  AcceptInvitationResponse,
  AccountResponse,
  AddWorkspaceMemberInput,
  AddWorkspaceMemberResponse,
  BotAnswerPreview,
  BotChatSecretsResponse,
  BotIntegrationInput,
  BotResponse,
  BotWebchat,
  ChangePasswordInput,
  CreateBotAccessKeyInput,
  CreateBotInput,
  CreateIntegrationInput,
  CreateIntegrationKeyInput,
  CreateKeyResponse,
  CreatePersonalAccessTokenInput,
  CreatePersonalAccessTokenResponse,
  CreateWorkspaceInput,
  EmptyResponse,
  GetAuditRecordsInput,
  GetAuditRecordsResponse,
  GetBotInsightsInput,
  GetBotInsightsResponse,
  GetBotLogsInput,
  GetBotLogsResponse,
  IdInput,
  InstallIntegrationResponse,
  IntegrationResponse,
  ListBotIntegrationsResponse,
  ListBotsInput,
  ListBotUsagesResponse,
  ListIntegrationsResponse,
  ListKeysResponse,
  ListPersonalAccessTokensResponse,
  ListSessionsResponse,
  ListWorkspaceMembersResponse,
  ListWorkspacesResponse,
  ListWorkspaceUsagesResponse,
  NoInput,
  PageInput,
  PreviewBotAnswerInput,
  RevokeBotAccessKeyInput,
  RevokedSessionsResponse,
  RevokeIntegrationKeyInput,
  SignInInput,
  SignInResponse,
  UpdateAccountInput,
  UpdateBotInput,
  UpdateBotWebchatInput,
  UpdateWorkspaceInput,
  UpdateWorkspaceMemberInput,
  WorkspaceInvitation,
} from './io/admin.js';
import type {
  BotConversationCounts,
  BotConversationInput,
  ChangeConversationHandoffInput,
  ConversationHandoffResponse,
  CreateAgentMessageInput,
  CreateAgentMessageResponse,
  CreateConversationNoteInput,
  CreateConversationNoteResponse,
  GetBotConversationResponse,
  ListBotConversationMessagesInput,
  ListBotConversationMessagesPage,
  ListBotConversationsInput,
  ListBotConversationsPage,
  ListConversationNotesResponse,
  SetAgentTypingInput,
} from './io/inbox.js';
import type {
  CreateQaEntryInput,
  ListQaEntriesInput,
  ListQaEntriesPage,
  QaEntryAnswer,
  QaEntryInput,
  UpdateQaEntryInput,
} from './io/qa.js';
import { lists, operations, sends } from './operation.js';

/** The bots part of the Admin API: one entry per method of `BotsApi`. */
export const BOT_OPERATIONS = /* @__PURE__ */ operations('admin', {
  /** Lists the workspace's bots (`GET /v1/admin/bots`): await for a page, `for await` for every bot. */
  listBots: lists<ListBotsInput | undefined, ListBotsResponse>('GET /v1/admin/bots', 'bots'),
  /** Creates a bot (`POST /v1/admin/bots`). */
  createBot: sends<CreateBotInput | undefined, BotResponse>('POST /v1/admin/bots'),
  /** Gets a bot with every field. */
  getBot: sends<IdInput, BotResponse>('GET /v1/admin/bots/{id}'),
  /** Changes a bot's fields; a `null` tag value removes that tag. */
  updateBot: sends<UpdateBotInput, BotResponse>('PUT /v1/admin/bots/{id}'),
  /** Deletes a bot. */
  deleteBot: sends<IdInput, EmptyResponse>('DELETE /v1/admin/bots/{id}'),
  /** Lists a bot's access keys (never their values). */
  listBotAccessKeys: sends<IdInput, ListKeysResponse>('GET /v1/admin/bots/{id}/access-keys'),
  /** Creates a bot access key (`bak_…`); `key.value` is shown only in this answer. */
  createBotAccessKey: sends<CreateBotAccessKeyInput, CreateKeyResponse>(
    'POST /v1/admin/bots/{id}/access-keys',
  ),
  /** Revokes a bot access key. */
  revokeBotAccessKey: sends<RevokeBotAccessKeyInput, EmptyResponse>(
    'DELETE /v1/admin/bots/{id}/access-keys/{keyId}',
  ),
  /** Gets a bot's dashboard webchat configuration. */
  getBotWebchat: sends<IdInput, BotWebchat>('GET /v1/admin/bots/{id}/webchat'),
  /** Replaces a bot's dashboard webchat configuration (every field is checked; bad ones are named). */
  updateBotWebchat: sends<UpdateBotWebchatInput, BotWebchat>('PUT /v1/admin/bots/{id}/webchat'),
  /** The bot's Chat API secrets: the user key secret (verified identity) and the webhook secret. */
  getBotChat: sends<IdInput, BotChatSecretsResponse>('GET /v1/admin/bots/{id}/chat'),
  /** Replaces both chat secrets of a bot: every user key signed with the old one stops working. */
  rotateBotChatSecrets: sends<IdInput, BotChatSecretsResponse>(
    'POST /v1/admin/bots/{id}/chat/rotate-secrets',
    { noBody: true },
  ),
  /** A bot's request log, newest first: await for a page, `for await` for every line. */
  getBotLogs: lists<GetBotLogsInput, GetBotLogsResponse>('GET /v1/admin/bots/{id}/logs', 'logs'),
  /** A bot's usage figures: its File Storage bytes (`storage_count`) against the per-bot quota. */
  listBotUsages: sends<IdInput, ListBotUsagesResponse>('GET /v1/admin/bots/{id}/usages'),
  /**
   * A bot's conversations, most recent activity first (`GET /v1/admin/bots/{id}/conversations`), each with
   * its latest message and flags; `feedback: 'negative'` and `unanswered: true` filter. Await for a page,
   * `for await` for every conversation.
   */
  listBotConversations: lists<ListBotConversationsInput, ListBotConversationsPage>(
    'GET /v1/admin/bots/{id}/conversations',
    'conversations',
  ),
  /**
   * How many conversations each tab of the inbox desk holds: `waiting` (for a person), `mine` (assigned to
   * you), `all` and `resolved`.
   */
  getBotConversationCounts: sends<IdInput, BotConversationCounts>(
    'GET /v1/admin/bots/{id}/conversations/counts',
  ),
  // Conversation exports (JSON or CSV, streamed): `Client.exportBotConversations`, not a request method.
  exportBotConversations: 'GET /v1/admin/bots/{id}/conversations/export',
  exportBotConversation: 'GET /v1/admin/bots/{id}/conversations/{conversationId}/export',
  // The inbox desk's live stream (Server-Sent Events): `Client.listenBotConversations`, not a request method.
  listenBotConversations: 'GET /v1/admin/bots/{id}/conversations/live',
  /** One conversation of a bot, as the inbox lists it. */
  getBotConversation: sends<BotConversationInput, GetBotConversationResponse>(
    'GET /v1/admin/bots/{id}/conversations/{conversationId}',
  ),
  /**
   * A conversation's transcript, oldest first: authors, texts, and for the bot's replies their sources,
   * answer mode, retrieval details and feedback. Await for a page, `for await` for every message.
   */
  listBotConversationMessages: lists<ListBotConversationMessagesInput, ListBotConversationMessagesPage>(
    'GET /v1/admin/bots/{id}/conversations/{conversationId}/messages',
    'messages',
  ),
  /**
   * Who answers a conversation (human handoff): `bot`, `pending` (waiting for a person), `assigned` (to a
   * person) or `resolved` (the bot answers again).
   */
  getConversationHandoff: sends<BotConversationInput, ConversationHandoffResponse>(
    'GET /v1/admin/bots/{id}/conversations/{conversationId}/handoff',
  ),
  /**
   * Changes who answers a conversation: `request`, `take` (yourself), `assign` (`memberId`), `hand_back` or
   * `resolve`; the visitor is told, the bot is silent while pending or assigned. 409 when the action does not
   * apply to the conversation's state.
   */
  changeConversationHandoff: sends<ChangeConversationHandoffInput, ConversationHandoffResponse>(
    'POST /v1/admin/bots/{id}/conversations/{conversationId}/handoff',
  ),
  /**
   * A person's message in a conversation, under their name; the conversation is theirs from then on (taken
   * over unless already assigned to them; 409 when another person has it).
   */
  createAgentMessage: sends<CreateAgentMessageInput, CreateAgentMessageResponse>(
    'POST /v1/admin/bots/{id}/conversations/{conversationId}/messages',
  ),
  /**
   * Tells the visitor whether you type a reply in a conversation assigned to you (the webchat shows "<your
   * name> is typing"); 409 when it is not assigned to you. Send it at most every few seconds.
   */
  setAgentTyping: sends<SetAgentTypingInput, EmptyResponse>(
    'POST /v1/admin/bots/{id}/conversations/{conversationId}/typing',
  ),
  /** A conversation's internal notes, oldest first: for the workspace's people, never shown to the visitor. */
  listConversationNotes: sends<BotConversationInput, ListConversationNotesResponse>(
    'GET /v1/admin/bots/{id}/conversations/{conversationId}/notes',
  ),
  /** Writes an internal note beside a conversation, under your name (roles that answer conversations). */
  createConversationNote: sends<CreateConversationNoteInput, CreateConversationNoteResponse>(
    'POST /v1/admin/bots/{id}/conversations/{conversationId}/notes',
  ),
  /**
   * What a bot's conversations say over the last 7, 30 or 90 days (`GET /v1/admin/bots/{id}/insights`):
   * conversations, messages, answered vs not-found replies, feedback, a per-day series and the top
   * unanswered questions grouped by similar wording or meaning.
   */
  getBotInsights: sends<GetBotInsightsInput, GetBotInsightsResponse>('GET /v1/admin/bots/{id}/insights'),
  /**
   * The reply the bot would give to `question` in a conversation (`POST /v1/admin/bots/{id}/answer-preview`):
   * its knowledge answers' text, sources and retrieval details; nothing is stored.
   */
  previewBotAnswer: sends<PreviewBotAnswerInput, BotAnswerPreview>('POST /v1/admin/bots/{id}/answer-preview'),
  /**
   * A bot's Q&A entries, oldest first (`GET /v1/admin/bots/{id}/qa`); `search` narrows to entries whose
   * wordings, answer or tags hold the text. Await for a page, `for await` for every entry.
   */
  listQaEntries: lists<ListQaEntriesInput, ListQaEntriesPage>('GET /v1/admin/bots/{id}/qa', 'entries'),
  /**
   * Adds a Q&A entry (`POST /v1/admin/bots/{id}/qa`): a visitor question close to one of its wordings is
   * answered with its answer (Markdown; links only to http(s), mailto: and tel:) before any passage search.
   */
  createQaEntry: sends<CreateQaEntryInput, QaEntryAnswer>('POST /v1/admin/bots/{id}/qa'),
  /** One Q&A entry of a bot. */
  getQaEntry: sends<QaEntryInput, QaEntryAnswer>('GET /v1/admin/bots/{id}/qa/{entryId}'),
  /** Replaces a Q&A entry's wordings and answer (absent `tags`, `enabled`, `knowledgeBaseId` are kept). */
  updateQaEntry: sends<UpdateQaEntryInput, QaEntryAnswer>('PUT /v1/admin/bots/{id}/qa/{entryId}'),
  /** Deletes a Q&A entry. */
  deleteQaEntry: sends<QaEntryInput, EmptyResponse>('DELETE /v1/admin/bots/{id}/qa/{entryId}'),
});

/** The rule of the operations on the workspace their path names: its id is sent as `x-workspace-id` too. */
const WORKSPACE_IN_PATH = { headers: { 'x-workspace-id': 'id' } } as const;

/** The workspaces and members part of the Admin API: one entry per method of `WorkspacesApi`. */
export const WORKSPACE_OPERATIONS = /* @__PURE__ */ operations('admin', {
  /** Lists the workspaces the token's account belongs to (no `x-workspace-id` needed). */
  listWorkspaces: lists<PageInput | undefined, ListWorkspacesResponse>(
    'GET /v1/admin/workspaces',
    'workspaces',
    { auth: 'account' },
  ),
  /** Creates a workspace owned by the token's account; answers the workspace (no wrapper). */
  createWorkspace: sends<CreateWorkspaceInput, Workspace>('POST /v1/admin/workspaces', { auth: 'account' }),
  /** Gets a workspace (no wrapper). */
  getWorkspace: sends<IdInput, Workspace>('GET /v1/admin/workspaces/{id}', WORKSPACE_IN_PATH),
  /** Changes a workspace's settings; answers the workspace (no wrapper). */
  updateWorkspace: sends<UpdateWorkspaceInput, Workspace>('PUT /v1/admin/workspaces/{id}', WORKSPACE_IN_PATH),
  /** Deletes a workspace and everything in it (owner only). */
  deleteWorkspace: sends<IdInput, EmptyResponse>('DELETE /v1/admin/workspaces/{id}', WORKSPACE_IN_PATH),
  /** A workspace's usage figures for the current period. */
  listWorkspaceUsages: sends<IdInput, ListWorkspaceUsagesResponse>(
    'GET /v1/admin/workspaces/{id}/usages',
    WORKSPACE_IN_PATH,
  ),
  /** A workspace's audit records, newest first (manager and above): await for a page, `for await` for all. */
  getAuditRecords: lists<GetAuditRecordsInput, GetAuditRecordsResponse>(
    'GET /v1/admin/workspaces/{id}/audit-records',
    'records',
    WORKSPACE_IN_PATH,
  ),
  /** Lists the workspace's members and pending invitations. */
  listWorkspaceMembers: lists<PageInput | undefined, ListWorkspaceMembersResponse>(
    'GET /v1/admin/workspace-members',
    'members',
  ),
  /** The caller's own membership of the workspace (`GET /workspace-members/me`). */
  getWorkspaceMember: sends<NoInput | undefined, Member>('GET /v1/admin/workspace-members/me'),
  /** A member of the workspace by member id. */
  getWorkspaceMemberById: sends<IdInput, Member>('GET /v1/admin/workspace-members/{id}'),
  /**
   * Invites a member by e-mail: the answer carries a one-time `invitation.code` to hand to that person
   * (see `acceptInvitation`); the member is `invited` and holds no role until the person accepts.
   */
  addWorkspaceMember: sends<AddWorkspaceMemberInput, AddWorkspaceMemberResponse>(
    'POST /v1/admin/workspace-members',
    { operationId: 'admin.createWorkspaceMember' },
  ),
  /** Changes a member's role. */
  updateWorkspaceMember: sends<UpdateWorkspaceMemberInput, Member>('PUT /v1/admin/workspace-members/{id}'),
  /**
   * A new invitation code for a member who has not joined yet (valid 7 days); the earlier codes stop working.
   * Only a hash of a code is stored, so a lost code is never shown again: this issues another.
   */
  renewWorkspaceInvitation: sends<IdInput, WorkspaceInvitation>(
    'POST /v1/admin/workspace-members/{id}/invitation',
    { noBody: true },
  ),
  /** Removes a member (or withdraws an invitation). */
  removeWorkspaceMember: sends<IdInput, EmptyResponse>('DELETE /v1/admin/workspace-members/{id}', {
    operationId: 'admin.deleteWorkspaceMember',
  }),
});

/** The account part of the Admin API: one entry per method of `AccountApi`. */
export const ACCOUNT_OPERATIONS = /* @__PURE__ */ operations(
  'admin',
  {
    /**
     * Redeems a one-time invitation code. Without a token it creates the account of the invited e-mail and
     * answers its first personal access token, e.g. for `client.with({ token: pat.value, workspaceId })`.
     * When an account already holds that e-mail, call it with that account's token (no `pat` then).
     */
    acceptInvitation: sends<AcceptInvitationInput, AcceptInvitationResponse>(
      'POST /v1/admin/account/invitations/accept',
      { auth: 'optional' },
    ),
    /** The token's account. */
    getAccount: sends<NoInput | undefined, AccountResponse>('GET /v1/admin/account/me'),
    /** Changes the token's account. */
    updateAccount: sends<UpdateAccountInput, AccountResponse>('PUT /v1/admin/account/me'),
    /** Lists the account's personal access tokens (never their values). */
    listPersonalAccessTokens: sends<NoInput | undefined, ListPersonalAccessTokensResponse>(
      'GET /v1/admin/account/pats',
    ),
    /** Creates a personal access token (`pat_…`); `pat.value` is shown only in this answer. */
    createPersonalAccessToken: sends<
      CreatePersonalAccessTokenInput | undefined,
      CreatePersonalAccessTokenResponse
    >('POST /v1/admin/account/pats'),
    /** Revokes a personal access token. */
    deletePersonalAccessToken: sends<IdInput, EmptyResponse>('DELETE /v1/admin/account/pats/{id}'),
    /**
     * Signs in with an e-mail and a password. In a browser on the service's origin the answer sets the session
     * cookie, which then authenticates the other calls of a client made without a token.
     */
    signIn: sends<SignInInput, SignInResponse>('POST /v1/admin/account/sessions', { auth: 'none' }),
    /** Lists the account's live sessions (`current`: the one of this request). */
    listSessions: sends<NoInput | undefined, ListSessionsResponse>('GET /v1/admin/account/sessions'),
    /** Signs out: ends the session of this request's cookie. */
    signOut: sends<NoInput | undefined, EmptyResponse>('DELETE /v1/admin/account/sessions/current'),
    /** Ends one of the account's sessions. */
    revokeSession: sends<IdInput, EmptyResponse>('DELETE /v1/admin/account/sessions/{id}'),
    /** Signs out everywhere: ends every session of the account. */
    revokeAllSessions: sends<NoInput | undefined, RevokedSessionsResponse>(
      'DELETE /v1/admin/account/sessions',
    ),
    /** Changes the account's password (`current` once it has one); the account's other sessions end. */
    changePassword: sends<ChangePasswordInput, RevokedSessionsResponse>('PUT /v1/admin/account/password'),
  },
  { auth: 'account' },
);

/** The integrations part of the Admin API: one entry per method of `IntegrationsApi`. */
export const INTEGRATION_OPERATIONS = /* @__PURE__ */ operations('admin', {
  /** Lists the workspace's integrations. */
  listIntegrations: lists<PageInput | undefined, ListIntegrationsResponse>(
    'GET /v1/admin/integrations',
    'integrations',
  ),
  /** Creates an integration. */
  createIntegration: sends<CreateIntegrationInput, IntegrationResponse>('POST /v1/admin/integrations'),
  /** Gets an integration. */
  getIntegration: sends<IdInput, IntegrationResponse>('GET /v1/admin/integrations/{id}'),
  /** Deletes an integration. */
  deleteIntegration: sends<IdInput, EmptyResponse>('DELETE /v1/admin/integrations/{id}'),
  /** Lists the integrations installed on a bot. */
  listBotIntegrations: sends<IdInput, ListBotIntegrationsResponse>('GET /v1/admin/bots/{id}/integrations'),
  /** Installs an integration on bot `id`. */
  installIntegration: sends<BotIntegrationInput, InstallIntegrationResponse>(
    'PUT /v1/admin/bots/{id}/integrations/{integrationId}',
    { noBody: true },
  ),
  /** Uninstalls an integration from bot `id`, revoking its keys there. */
  uninstallIntegration: sends<BotIntegrationInput, EmptyResponse>(
    'DELETE /v1/admin/bots/{id}/integrations/{integrationId}',
  ),
  /** Lists the keys of an integration installed on bot `id` (never their values). */
  listIntegrationKeys: sends<BotIntegrationInput, ListKeysResponse>(
    'GET /v1/admin/bots/{id}/integrations/{integrationId}/keys',
  ),
  /** Creates a key (`iak_…`) for an integration installed on bot `id`; `key.value` is shown only here. */
  createIntegrationKey: sends<CreateIntegrationKeyInput, CreateKeyResponse>(
    'POST /v1/admin/bots/{id}/integrations/{integrationId}/keys',
  ),
  /** Revokes a key of an integration installed on bot `id`. */
  revokeIntegrationKey: sends<RevokeIntegrationKeyInput, EmptyResponse>(
    'DELETE /v1/admin/bots/{id}/integrations/{integrationId}/keys/{keyId}',
  ),
});
