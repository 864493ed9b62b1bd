import type {
  AuditRecord,
  BotSummary,
  Integration,
  ListBotsResponse as ListBotsPage,
  LogEntry,
  Member,
  Workspace,
} from '@parley/protocol';
import type {
  AcceptInvitationInput,
  AcceptInvitationResponse,
  AccountResponse,
  AddWorkspaceMemberInput,
  AddWorkspaceMemberResponse,
  BotIntegrationInput,
  BotResponse,
  BotWebchat,
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
  GetBotLogsInput,
  GetBotLogsResponse,
  IdInput,
  InstallIntegrationResponse,
  IntegrationResponse,
  ListBotIntegrationsResponse,
  ListBotsInput,
  ListIntegrationsResponse,
  ListKeysResponse,
  ListPersonalAccessTokensResponse,
  ListWorkspaceMembersResponse,
  ListWorkspacesResponse,
  ListWorkspaceUsagesResponse,
  PageInput,
  RevokeBotAccessKeyInput,
  RevokeIntegrationKeyInput,
  UpdateAccountInput,
  UpdateBotInput,
  UpdateBotWebchatInput,
  UpdateWorkspaceInput,
  UpdateWorkspaceMemberInput,
} from './admin-types.js';
import {
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  type HttpMethod,
  path,
  type RequestOptions,
  type RequestSpec,
  type RetryOptions,
  Transport,
} from './http.js';
import { PagePromise } from './pagination.js';

/** API URL when neither the `apiUrl` option nor `PARLEY_API_URL` is set: a local server's default address. */
export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

/** Options of a client. Every one is optional; unset ones fall back to environment variables where named. */
export interface ClientOptions {
  /** Personal access token (`pat_…`), bot access key (`bak_…`) or integration key (`iak_…`). Env `PARLEY_TOKEN`. */
  token?: string | undefined;
  /** Sent as `x-workspace-id` (workspace-scoped Admin operations need it). Env `PARLEY_WORKSPACE_ID`. */
  workspaceId?: string | undefined;
  /** Sent as `x-bot-id` (the Files and Chat APIs need it). Env `PARLEY_BOT_ID`. */
  botId?: string | undefined;
  /** Sent as `x-integration-id` (an integration acting on a bot). Env `PARLEY_INTEGRATION_ID`. */
  integrationId?: string | undefined;
  /** Base URL of the server, without `/v1`. Env `PARLEY_API_URL`; default `http://127.0.0.1:3000`. */
  apiUrl?: string | undefined;
  /** Per-attempt timeout in milliseconds; default 60000. `Infinity` turns it off. */
  timeout?: number | undefined;
  /** Retry settings; default 3 attempts, 500 ms base, 8 s cap, full jitter. `{ attempts: 1 }` turns retries off. */
  retry?: RetryOptions | undefined;
  /** Headers sent on every request. */
  headers?: Record<string, string> | undefined;
  /** A `fetch` to use instead of the global one (e.g. to add a proxy agent or instrument calls). */
  fetch?: typeof fetch | undefined;
}

/** The empty input of operations that take no parameter. */
export type NoInput = Record<string, never>;

function env(name: string): string | undefined {
  // `process` exists in Node, Deno and Bun; browsers have none, so only the options apply there.
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const value = proc?.env?.[name]?.trim();
  return value ? value : undefined;
}

function pick(option: string | undefined, envName: string): string | undefined {
  return option !== undefined && option !== '' ? option : env(envName);
}

/**
 * The Parley API client. One typed method per operation; inputs are the operation's path, query and body
 * parameters in one object, answers are the wire envelopes. Every method takes `RequestOptions` last
 * (abort signal, timeout, retry, headers, per-call `workspaceId`).
 *
 * Paginated lists answer a `PagePromise`: `await` it for one page, `for await` it for every item.
 * Failures throw `ApiError` subclasses (`ResourceNotFoundError`, …), `ConnectionError`, `TimeoutError`
 * or `AbortError`.
 * @example
 * const client = new Client({ token: 'pat_…', workspaceId: 'wkspace_…', apiUrl: 'http://127.0.0.1:3000' });
 * const { bot } = await client.createBot({ name: 'Support' });
 * for await (const b of client.listBots()) console.log(b.id, b.name);
 */
export class Client {
  /** Base URL of the server (no trailing slash). */
  readonly apiUrl: string;
  /** Default `x-workspace-id`. */
  readonly workspaceId: string | undefined;
  /** Default `x-bot-id`. */
  readonly botId: string | undefined;
  /** Default `x-integration-id`. */
  readonly integrationId: string | undefined;
  /** Per-attempt timeout in milliseconds. */
  readonly timeout: number;

  readonly #options: ClientOptions;
  readonly #http: Transport;

  constructor(options: ClientOptions = {}) {
    this.#options = { ...options };
    const token = pick(options.token, 'PARLEY_TOKEN');
    this.apiUrl = (pick(options.apiUrl, 'PARLEY_API_URL') ?? DEFAULT_API_URL).replace(/\/+$/, '');
    this.workspaceId = pick(options.workspaceId, 'PARLEY_WORKSPACE_ID');
    this.botId = pick(options.botId, 'PARLEY_BOT_ID');
    this.integrationId = pick(options.integrationId, 'PARLEY_INTEGRATION_ID');
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    const retry = { ...DEFAULT_RETRY };
    for (const [key, value] of Object.entries(options.retry ?? {})) {
      if (value !== undefined) retry[key as keyof typeof retry] = value;
    }
    const headers: Record<string, string> = { ...options.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    if (this.workspaceId) headers['x-workspace-id'] = this.workspaceId;
    if (this.botId) headers['x-bot-id'] = this.botId;
    if (this.integrationId) headers['x-integration-id'] = this.integrationId;
    const custom = options.fetch;
    // Called through a wrapper: a browser's fetch throws "Illegal invocation" when called as a method of another object.
    const doFetch: typeof fetch = custom
      ? (input, init) => custom(input, init)
      : (input, init) => globalThis.fetch(input, init);
    this.#http = new Transport({
      apiUrl: this.apiUrl,
      timeout: this.timeout,
      retry,
      headers,
      fetch: doFetch,
    });
  }

  /**
   * A new client with some options changed, e.g. another workspace or token; the others are kept.
   * @example const other = client.with({ workspaceId: 'wkspace_other' });
   */
  with(overrides: ClientOptions): Client {
    return new Client({ ...this.#options, ...overrides });
  }

  /**
   * Every item of each paginated list, as async iterables (the names of the public client):
   * `client.list.bots(q)` is `client.listBots(q)`, typed for `for await` and `.collect()`.
   */
  readonly list = {
    /** Every bot of the workspace. */
    bots: (input?: ListBotsInput, options?: RequestOptions) => this.listBots(input, options),
    /** Every workspace of the account. */
    workspaces: (input?: PageInput, options?: RequestOptions) => this.listWorkspaces(input, options),
    /** Every member of the workspace. */
    workspaceMembers: (input?: PageInput, options?: RequestOptions) =>
      this.listWorkspaceMembers(input, options),
    /** Every integration of the workspace. */
    integrations: (input?: PageInput, options?: RequestOptions) => this.listIntegrations(input, options),
    /** Every audit record of a workspace, newest first. */
    auditRecords: (input: GetAuditRecordsInput, options?: RequestOptions) =>
      this.getAuditRecords(input, options),
    /** Every line of a bot's request log, newest first. */
    botLogs: (input: GetBotLogsInput, options?: RequestOptions) => this.getBotLogs(input, options),
  };

  private admin<T>(
    method: HttpMethod,
    p: string,
    spec: Omit<RequestSpec, 'method' | 'path'>,
    options: RequestOptions | undefined,
  ): Promise<T> {
    return this.#http.request<T>({ method, path: `/v1/admin${p}`, ...spec }, options);
  }

  private paged<Page extends { meta: { nextToken?: string } }, Item>(
    p: () => string,
    query: PageInput & Record<string, unknown>,
    itemsOf: (page: Page) => Item[],
    spec: Omit<RequestSpec, 'method' | 'path' | 'query'>,
    options: RequestOptions | undefined,
  ): PagePromise<Page, Item> {
    return new PagePromise<Page, Item>(
      async (nextToken) =>
        this.admin<Page>(
          'GET',
          p(),
          { ...spec, query: { ...(query as RequestSpec['query']), nextToken } },
          options,
        ),
      itemsOf,
      query.nextToken,
    );
  }

  // ---- bots ----

  /** Lists the workspace's bots (`GET /v1/admin/bots`): await for a page, `for await` for every bot. */
  listBots(input: ListBotsInput = {}, options?: RequestOptions): PagePromise<ListBotsPage, BotSummary> {
    return this.paged<ListBotsPage, BotSummary>(
      () => '/bots',
      input,
      (page) => page.bots,
      {},
      options,
    );
  }

  /** Creates a bot (`POST /v1/admin/bots`). */
  async createBot(input: CreateBotInput = {}, options?: RequestOptions): Promise<BotResponse> {
    return this.admin('POST', '/bots', { body: input }, options);
  }

  /** Gets a bot with every field. */
  async getBot({ id }: IdInput, options?: RequestOptions): Promise<BotResponse> {
    return this.admin('GET', path`/bots/${id}`, {}, options);
  }

  /** Changes a bot's fields; a `null` tag value removes that tag. */
  async updateBot({ id, ...body }: UpdateBotInput, options?: RequestOptions): Promise<BotResponse> {
    return this.admin('PUT', path`/bots/${id}`, { body }, options);
  }

  /** Deletes a bot. */
  async deleteBot({ id }: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.admin('DELETE', path`/bots/${id}`, {}, options);
  }

  /** Lists a bot's access keys (never their values). */
  async listBotAccessKeys({ id }: IdInput, options?: RequestOptions): Promise<ListKeysResponse> {
    return this.admin('GET', path`/bots/${id}/access-keys`, {}, options);
  }

  /** Creates a bot access key (`bak_…`); `key.value` is shown only in this answer. */
  async createBotAccessKey(
    { id, ...body }: CreateBotAccessKeyInput,
    options?: RequestOptions,
  ): Promise<CreateKeyResponse> {
    return this.admin('POST', path`/bots/${id}/access-keys`, { body }, options);
  }

  /** Revokes a bot access key. */
  async revokeBotAccessKey(
    { id, keyId }: RevokeBotAccessKeyInput,
    options?: RequestOptions,
  ): Promise<EmptyResponse> {
    return this.admin('DELETE', path`/bots/${id}/access-keys/${keyId}`, {}, options);
  }

  /** Gets a bot's dashboard webchat configuration. */
  async getBotWebchat({ id }: IdInput, options?: RequestOptions): Promise<BotWebchat> {
    return this.admin('GET', path`/bots/${id}/webchat`, {}, options);
  }

  /** Replaces a bot's dashboard webchat configuration (every field is checked; bad ones are named). */
  async updateBotWebchat(
    { id, configuration }: UpdateBotWebchatInput,
    options?: RequestOptions,
  ): Promise<BotWebchat> {
    return this.admin('PUT', path`/bots/${id}/webchat`, { body: { configuration } }, options);
  }

  /** A bot's request log, newest first: await for a page, `for await` for every line. */
  getBotLogs(
    { id, ...query }: GetBotLogsInput,
    options?: RequestOptions,
  ): PagePromise<GetBotLogsResponse, LogEntry> {
    return this.paged<GetBotLogsResponse, LogEntry>(
      () => path`/bots/${id}/logs`,
      query,
      (page) => page.logs,
      {},
      options,
    );
  }

  // ---- workspaces ----
  // Operations on a workspace named in the path send that id as `x-workspace-id`, whatever the default.

  /** Lists the workspaces the token's account belongs to (no `x-workspace-id` needed). */
  listWorkspaces(
    input: PageInput = {},
    options?: RequestOptions,
  ): PagePromise<ListWorkspacesResponse, Workspace> {
    return this.paged<ListWorkspacesResponse, Workspace>(
      () => '/workspaces',
      input,
      (page) => page.workspaces,
      {},
      options,
    );
  }

  /** Creates a workspace owned by the token's account; answers the workspace (no wrapper). */
  async createWorkspace(input: CreateWorkspaceInput, options?: RequestOptions): Promise<Workspace> {
    return this.admin('POST', '/workspaces', { body: input }, options);
  }

  /** Gets a workspace (no wrapper). */
  async getWorkspace({ id }: IdInput, options?: RequestOptions): Promise<Workspace> {
    return this.admin('GET', path`/workspaces/${id}`, { headers: { 'x-workspace-id': id } }, options);
  }

  /** Changes a workspace's settings; answers the workspace (no wrapper). */
  async updateWorkspace({ id, ...body }: UpdateWorkspaceInput, options?: RequestOptions): Promise<Workspace> {
    return this.admin('PUT', path`/workspaces/${id}`, { body, headers: { 'x-workspace-id': id } }, options);
  }

  /** Deletes a workspace and everything in it (owner only). */
  async deleteWorkspace({ id }: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.admin('DELETE', path`/workspaces/${id}`, { headers: { 'x-workspace-id': id } }, options);
  }

  /** A workspace's usage figures for the current period. */
  async listWorkspaceUsages({ id }: IdInput, options?: RequestOptions): Promise<ListWorkspaceUsagesResponse> {
    return this.admin('GET', path`/workspaces/${id}/usages`, { headers: { 'x-workspace-id': id } }, options);
  }

  /** A workspace's audit records, newest first (manager and above): await for a page, `for await` for all. */
  getAuditRecords(
    { id, ...query }: GetAuditRecordsInput,
    options?: RequestOptions,
  ): PagePromise<GetAuditRecordsResponse, AuditRecord> {
    return this.paged<GetAuditRecordsResponse, AuditRecord>(
      () => path`/workspaces/${id}/audit-records`,
      query,
      (page) => page.records,
      { headers: { 'x-workspace-id': id } },
      options,
    );
  }

  // ---- members ----

  /** Lists the workspace's members and pending invitations. */
  listWorkspaceMembers(
    input: PageInput = {},
    options?: RequestOptions,
  ): PagePromise<ListWorkspaceMembersResponse, Member> {
    return this.paged<ListWorkspaceMembersResponse, Member>(
      () => '/workspace-members',
      input,
      (page) => page.members,
      {},
      options,
    );
  }

  /** The caller's own membership of the workspace (`GET /workspace-members/me`). */
  async getWorkspaceMember(_input: NoInput = {}, options?: RequestOptions): Promise<Member> {
    return this.admin('GET', '/workspace-members/me', {}, options);
  }

  /** A member of the workspace by member id. */
  async getWorkspaceMemberById({ id }: IdInput, options?: RequestOptions): Promise<Member> {
    return this.admin('GET', path`/workspace-members/${id}`, {}, options);
  }

  /**
   * Adds a member by e-mail. When the e-mail has no account yet, the answer carries a one-time
   * `invitation.code` to hand to that person (see `acceptInvitation`).
   */
  async addWorkspaceMember(
    input: AddWorkspaceMemberInput,
    options?: RequestOptions,
  ): Promise<AddWorkspaceMemberResponse> {
    return this.admin('POST', '/workspace-members', { body: input }, options);
  }

  /** Changes a member's role. */
  async updateWorkspaceMember(
    { id, ...body }: UpdateWorkspaceMemberInput,
    options?: RequestOptions,
  ): Promise<Member> {
    return this.admin('PUT', path`/workspace-members/${id}`, { body }, options);
  }

  /** Removes a member (or withdraws an invitation). */
  async removeWorkspaceMember({ id }: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.admin('DELETE', path`/workspace-members/${id}`, {}, options);
  }

  // ---- account ----

  /**
   * Redeems a one-time invitation code (no token needed): creates the account and answers its first
   * personal access token, e.g. for `client.with({ token: pat.value, workspaceId })`.
   */
  async acceptInvitation(
    input: AcceptInvitationInput,
    options?: RequestOptions,
  ): Promise<AcceptInvitationResponse> {
    return this.admin('POST', '/account/invitations/accept', { body: input }, options);
  }

  /** The token's account. */
  async getAccount(_input: NoInput = {}, options?: RequestOptions): Promise<AccountResponse> {
    return this.admin('GET', '/account/me', {}, options);
  }

  /** Changes the token's account. */
  async updateAccount(input: UpdateAccountInput, options?: RequestOptions): Promise<AccountResponse> {
    return this.admin('PUT', '/account/me', { body: input }, options);
  }

  /** Lists the account's personal access tokens (never their values). */
  async listPersonalAccessTokens(
    _input: NoInput = {},
    options?: RequestOptions,
  ): Promise<ListPersonalAccessTokensResponse> {
    return this.admin('GET', '/account/pats', {}, options);
  }

  /** Creates a personal access token (`pat_…`); `pat.value` is shown only in this answer. */
  async createPersonalAccessToken(
    input: CreatePersonalAccessTokenInput = {},
    options?: RequestOptions,
  ): Promise<CreatePersonalAccessTokenResponse> {
    return this.admin('POST', '/account/pats', { body: input }, options);
  }

  /** Revokes a personal access token. */
  async deletePersonalAccessToken({ id }: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.admin('DELETE', path`/account/pats/${id}`, {}, options);
  }

  // ---- integrations ----

  /** Lists the workspace's integrations. */
  listIntegrations(
    input: PageInput = {},
    options?: RequestOptions,
  ): PagePromise<ListIntegrationsResponse, Integration> {
    return this.paged<ListIntegrationsResponse, Integration>(
      () => '/integrations',
      input,
      (page) => page.integrations,
      {},
      options,
    );
  }

  /** Creates an integration. */
  async createIntegration(
    input: CreateIntegrationInput,
    options?: RequestOptions,
  ): Promise<IntegrationResponse> {
    return this.admin('POST', '/integrations', { body: input }, options);
  }

  /** Gets an integration. */
  async getIntegration({ id }: IdInput, options?: RequestOptions): Promise<IntegrationResponse> {
    return this.admin('GET', path`/integrations/${id}`, {}, options);
  }

  /** Deletes an integration. */
  async deleteIntegration({ id }: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.admin('DELETE', path`/integrations/${id}`, {}, options);
  }

  /** Lists the integrations installed on a bot. */
  async listBotIntegrations({ id }: IdInput, options?: RequestOptions): Promise<ListBotIntegrationsResponse> {
    return this.admin('GET', path`/bots/${id}/integrations`, {}, options);
  }

  /** Installs an integration on bot `id`. */
  async installIntegration(
    { id, integrationId }: BotIntegrationInput,
    options?: RequestOptions,
  ): Promise<InstallIntegrationResponse> {
    return this.admin('PUT', path`/bots/${id}/integrations/${integrationId}`, {}, options);
  }

  /** Uninstalls an integration from bot `id`, revoking its keys there. */
  async uninstallIntegration(
    { id, integrationId }: BotIntegrationInput,
    options?: RequestOptions,
  ): Promise<EmptyResponse> {
    return this.admin('DELETE', path`/bots/${id}/integrations/${integrationId}`, {}, options);
  }

  /** Lists the keys of an integration installed on bot `id` (never their values). */
  async listIntegrationKeys(
    { id, integrationId }: BotIntegrationInput,
    options?: RequestOptions,
  ): Promise<ListKeysResponse> {
    return this.admin('GET', path`/bots/${id}/integrations/${integrationId}/keys`, {}, options);
  }

  /** Creates a key (`iak_…`) for an integration installed on bot `id`; `key.value` is shown only here. */
  async createIntegrationKey(
    { id, integrationId, ...body }: CreateIntegrationKeyInput,
    options?: RequestOptions,
  ): Promise<CreateKeyResponse> {
    return this.admin('POST', path`/bots/${id}/integrations/${integrationId}/keys`, { body }, options);
  }

  /** Revokes a key of an integration installed on bot `id`. */
  async revokeIntegrationKey(
    { id, integrationId, keyId }: RevokeIntegrationKeyInput,
    options?: RequestOptions,
  ): Promise<EmptyResponse> {
    return this.admin('DELETE', path`/bots/${id}/integrations/${integrationId}/keys/${keyId}`, {}, options);
  }
}
