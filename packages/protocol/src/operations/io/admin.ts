import type { Static } from 'typebox';
import type {
  AcceptInvitationBody,
  Account,
  AddMemberBody,
  AnswerPreviewBody,
  AnswerPreviewResponse,
  AuditRecord,
  Bot,
  BotInsightsResponse,
  BotWebchatResponse,
  ChangePasswordBody,
  CreateBotBody,
  CreatedToken,
  CreateIntegrationBody,
  CreateTokenBody,
  CreateWorkspaceBody,
  InsightsPeriod,
  Installation,
  Integration,
  Invitation,
  ListBotsQuery,
  ListMeta,
  LogEntry,
  Member,
  Session,
  SignInBody,
  TokenInfo,
  UpdateAccountBody,
  UpdateBotBody,
  UpdateMemberBody,
  UpdateWorkspaceBody,
  Usage,
  WebchatConfiguration,
  Workspace,
} from '../../index.js';

// The inputs and answers of the Admin API's operations, as the client's methods take and answer them: an
// input is the union of an operation's path, query and body parameters; an answer is the wire envelope.

/**
 * A tag filter (listBots, listFiles and searchFiles): keys are AND-ed.
 * - `{ team: 'sales' }` the tag equals the value
 * - `{ team: ['sales', 'ops'] }` or `{ team: { in: [...] } }` any of the values
 * - `{ team: { not: 'x' } }` or `{ not: ['x', 'y'] }` none of the values
 * - `{ team: { exists: true } }` the tag is present (false: absent)
 */
export type TagFilter = Record<
  string,
  string | readonly string[] | { not?: string | readonly string[]; in?: readonly string[]; exists?: boolean }
>;

/** `{}`: the answer of delete, revoke and uninstall operations. */
export type EmptyResponse = Record<string, never>;

/** The empty input of operations that take no parameter. */
export type NoInput = Record<string, never>;

/** Cursor parameters of every paginated list. */
export type PageInput = {
  /** `meta.nextToken` of the previous page; undefined (or absent) for the first page. */
  nextToken?: Static<typeof ListBotsQuery>['nextToken'] | undefined;
  pageSize?: Static<typeof ListBotsQuery>['pageSize'] | undefined;
};

/** A resource named by its id in the path. */
export interface IdInput {
  id: string;
}

// ---- bots ----

/** Input of listBots: filters, sort and cursor; `tags` is a structured filter (see `TagFilter`). */
export type ListBotsInput = Omit<Static<typeof ListBotsQuery>, 'tags' | 'nextToken'> & {
  tags?: TagFilter;
  nextToken?: string | undefined;
};
/** Input of createBot. */
export type CreateBotInput = Static<typeof CreateBotBody>;
/** Answer of createBot, getBot and updateBot. */
export interface BotResponse {
  bot: Bot;
}
/** Input of updateBot: the bot id and the fields to change (a `null` tag value removes the tag). */
export type UpdateBotInput = IdInput & Static<typeof UpdateBotBody>;

/** Input of createBotAccessKey. */
export type CreateBotAccessKeyInput = IdInput & Static<typeof CreateTokenBody>;
/** Input of revokeBotAccessKey. */
export interface RevokeBotAccessKeyInput {
  id: string;
  keyId: string;
}
/** Answer of listBotAccessKeys and listIntegrationKeys (never the secret values). */
export interface ListKeysResponse {
  keys: TokenInfo[];
}
/** Answer of createBotAccessKey and createIntegrationKey: the only time `key.value` is shown. */
export interface CreateKeyResponse {
  key: CreatedToken;
}

/** Answer of getBotWebchat and updateBotWebchat. */
export type BotWebchat = Static<typeof BotWebchatResponse>;
/** Input of previewBotAnswer: the bot and the question. */
export type PreviewBotAnswerInput = IdInput & AnswerPreviewBody;
/** Answer of previewBotAnswer: the reply the bot would give (text, sources, debug), nothing stored. */
export type BotAnswerPreview = AnswerPreviewResponse;
/** Input of updateBotWebchat: replaces the whole dashboard configuration. */
export interface UpdateBotWebchatInput extends IdInput {
  configuration: WebchatConfiguration;
}

/** Input of getBotLogs. */
export type GetBotLogsInput = IdInput &
  PageInput & {
    /** Oldest timestamp (ISO 8601) to include. */
    timeStart?: string;
    /** Newest timestamp (ISO 8601) to include. */
    timeEnd?: string;
    level?: LogEntry['level'];
  };
/** Answer of getBotLogs: a page of the bot's request log, newest first. */
export interface GetBotLogsResponse {
  logs: LogEntry[];
  meta: ListMeta;
}

/** Input of getBotInsights: the bot and the period (the last 7, 30 or 90 days; default 30d). */
export type GetBotInsightsInput = IdInput & { period?: InsightsPeriod };
/** Answer of getBotInsights. */
export type GetBotInsightsResponse = BotInsightsResponse;

/** Answer of listBotUsages. */
export interface ListBotUsagesResponse {
  usages: Usage[];
}

// ---- workspaces ----

/** Answer of listWorkspaces. */
export interface ListWorkspacesResponse {
  workspaces: Workspace[];
  meta: ListMeta;
}
/** Input of createWorkspace. */
export type CreateWorkspaceInput = Static<typeof CreateWorkspaceBody>;
/** Input of updateWorkspace. */
export type UpdateWorkspaceInput = IdInput & Static<typeof UpdateWorkspaceBody>;
/** Answer of listWorkspaceUsages. */
export interface ListWorkspaceUsagesResponse {
  usages: Usage[];
}
/** Input of getAuditRecords. */
export type GetAuditRecordsInput = IdInput &
  PageInput & {
    /** Only records of this action (`CREATE_BOT`…). */
    action?: string;
    /** Only records of this account (the actor's user id). */
    userId?: string;
  };
/** Answer of getAuditRecords: newest first. */
export interface GetAuditRecordsResponse {
  records: AuditRecord[];
  meta: ListMeta;
}

// ---- members and account ----

/** Answer of listWorkspaceMembers. */
export interface ListWorkspaceMembersResponse {
  members: Member[];
  meta: ListMeta;
}
/** Input of addWorkspaceMember. */
export type AddWorkspaceMemberInput = Static<typeof AddMemberBody>;
/** A one-time invitation code and when it expires (addWorkspaceMember, renewWorkspaceInvitation). */
export type WorkspaceInvitation = Static<typeof Invitation>;
/** Answer of addWorkspaceMember: the invited member and its one-time `invitation` code. */
export type AddWorkspaceMemberResponse = Member & { invitation?: WorkspaceInvitation };
/** Input of updateWorkspaceMember. */
export type UpdateWorkspaceMemberInput = IdInput & Static<typeof UpdateMemberBody>;
/** Input of acceptInvitation. */
export type AcceptInvitationInput = Static<typeof AcceptInvitationBody>;
/**
 * Answer of acceptInvitation: the invited e-mail and the workspace, and the account only when it accepted signed
 * in. An anonymous accept answers alike whether or not an account holds the e-mail; then sign in with the
 * e-mail and the `password` sent.
 */
export interface AcceptInvitationResponse {
  email: string;
  workspaceId: string;
  account?: Account;
}
/** Answer of getAccount and updateAccount. */
export interface AccountResponse {
  account: Account;
}
/** Input of updateAccount. */
export type UpdateAccountInput = Static<typeof UpdateAccountBody>;
/** Input of signIn. */
export type SignInInput = Static<typeof SignInBody>;
/** Answer of signIn: the account and its new session (the session's secret travels only in its cookie). */
export interface SignInResponse {
  account: Account;
  session: Session;
}
/** Answer of listSessions. */
export interface ListSessionsResponse {
  sessions: Session[];
}
/** Input of changePassword. */
export type ChangePasswordInput = Static<typeof ChangePasswordBody>;
/** Answer of changePassword and revokeAllSessions: how many sessions ended. */
export interface RevokedSessionsResponse {
  revokedSessions: number;
}
/** Answer of listPersonalAccessTokens (never the secret values). */
export interface ListPersonalAccessTokensResponse {
  pats: TokenInfo[];
}
/** Input of createPersonalAccessToken. */
export type CreatePersonalAccessTokenInput = Static<typeof CreateTokenBody>;
/** Answer of createPersonalAccessToken: the only time `pat.value` is shown. */
export interface CreatePersonalAccessTokenResponse {
  pat: CreatedToken;
}

// ---- integrations ----

/** Answer of listIntegrations. */
export interface ListIntegrationsResponse {
  integrations: Integration[];
  meta: ListMeta;
}
/** Input of createIntegration. */
export type CreateIntegrationInput = Static<typeof CreateIntegrationBody>;
/** Answer of createIntegration and getIntegration. */
export interface IntegrationResponse {
  integration: Integration;
}
/** An integration installed on a bot. */
export type InstallationInfo = Static<typeof Installation>;
/** Answer of listBotIntegrations. */
export interface ListBotIntegrationsResponse {
  integrations: InstallationInfo[];
}
/** Input of installIntegration, uninstallIntegration and listIntegrationKeys: the bot `id` and the integration. */
export interface BotIntegrationInput extends IdInput {
  integrationId: string;
}
/** Answer of installIntegration. */
export interface InstallIntegrationResponse {
  installation: InstallationInfo;
}
/** Input of createIntegrationKey. */
export type CreateIntegrationKeyInput = BotIntegrationInput & Static<typeof CreateTokenBody>;
/** Input of revokeIntegrationKey. */
export interface RevokeIntegrationKeyInput extends BotIntegrationInput {
  keyId: string;
}

// ---- chat secrets ----

/** Answer of getBotChat and rotateBotChatSecrets: the bot's Chat API secrets. */
export type { BotChatSecretsResponse } from '../../index.js';
