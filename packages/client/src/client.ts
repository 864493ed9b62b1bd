import type {
  AuditRecord,
  BotSummary,
  FileObject,
  Integration,
  KnowledgeBase,
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
  BotChatSecretsResponse,
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
import { fetchOf, pick, retryOf } from './env.js';
import { IndexingFailedError, TimeoutError } from './errors.js';
import type {
  CopyFileInput,
  CreateKnowledgeBaseInput,
  FileIdInput,
  FilePassageItem,
  FileResponse,
  KnowledgeBaseFileInput,
  KnowledgeBaseResponse,
  ListFilePassagesInput,
  ListFilePassagesResponse,
  ListFilesInput,
  ListFilesResponse,
  ListFileTagsResponse,
  ListFileTagValuesInput,
  ListFileTagValuesResponse,
  ListKnowledgeBaseFilesResponse,
  ListKnowledgeBasesResponse,
  SearchFilesInput,
  SearchFilesResponse,
  SetFilePassagesInput,
  UpdateFileMetadataInput,
  UpdateKnowledgeBaseInput,
  UpsertFileInput,
  UpsertFileResponse,
} from './files-types.js';
import {
  DEFAULT_TIMEOUT_MS,
  type HttpMethod,
  path,
  type RequestOptions,
  type RequestSpec,
  type RetryOptions,
  Transport,
} from './http.js';
import { PagePromise } from './pagination.js';
import { sleep } from './retry.js';
import { prepareSource, sendUpload, type UploadProgress, type UploadSource } from './transfer.js';

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

/** Input of `uploadFile`: the file's settings (as for `upsertFile`, without `size`), its bytes, and progress. */
export type UploadFileInput = Omit<UpsertFileInput, 'size'> &
  UploadSource & {
    /** Called as bytes go out: `{ loaded: 0, total }` first, then after each chunk, `loaded === total` last. */
    onProgress?: ((progress: UploadProgress) => void) | undefined;
  };

/** Options of `waitForIndexing`, besides those of each `getFile` it sends. */
export interface WaitForIndexingOptions extends RequestOptions {
  /** Longest wait in all, in milliseconds; then a `TimeoutError`. Default 300000 (5 minutes). */
  timeoutMs?: number | undefined;
  /** Pause between two reads of the file, in milliseconds. Default 1000. */
  intervalMs?: number | undefined;
  /** Called with the file after each read (see `file.status` and `file.indexingProgress`). */
  onProgress?: ((file: FileObject) => void) | undefined;
}

/** A download: the bytes as a web stream (read it, or cancel it), with their size and type. */
export interface DownloadedFile {
  /** The file's bytes; read it to the end or `cancel()` it to free the connection. */
  stream: ReadableStream<Uint8Array>;
  /** Bytes the stream will yield (the response's Content-Length). */
  size: number;
  /** The file's content type. */
  contentType: string;
  /** The file record the download URL came from. */
  file: FileObject;
  /** With a `range` asked: the bytes the stream holds (inclusive) and the file's whole size. */
  range?: { start: number; end: number; total: number };
}

/** Options of downloadFile: a byte range (inclusive `end`; omitted, to the end of the file). */
export interface DownloadFileOptions extends RequestOptions {
  range?: { start: number; end?: number };
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
    const retry = retryOf(options.retry);
    const headers: Record<string, string> = { ...options.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    if (this.workspaceId) headers['x-workspace-id'] = this.workspaceId;
    if (this.botId) headers['x-bot-id'] = this.botId;
    if (this.integrationId) headers['x-integration-id'] = this.integrationId;
    const custom = options.fetch;
    const doFetch = fetchOf(custom);
    this.#http = new Transport({
      apiUrl: this.apiUrl,
      timeout: this.timeout,
      retry,
      headers,
      fetch: doFetch,
      customFetch: custom !== undefined,
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
    /** Every file of the bot the caller may access. */
    files: (input?: ListFilesInput, options?: RequestOptions) => this.listFiles(input, options),
    /** Every tag key used by the bot's files. */
    fileTags: (input?: PageInput, options?: RequestOptions) => this.listFileTags(input, options),
    /** Every value of one tag key. */
    fileTagValues: (input: ListFileTagValuesInput, options?: RequestOptions) =>
      this.listFileTagValues(input, options),
    /** Every passage of a file, in order. */
    filePassages: (input: ListFilePassagesInput, options?: RequestOptions) =>
      this.listFilePassages(input, options),
    /** Every knowledge base of the bot. */
    knowledgeBases: (input?: PageInput, options?: RequestOptions) => this.listKnowledgeBases(input, options),
  };

  private admin<T>(
    method: HttpMethod,
    p: string,
    spec: Omit<RequestSpec, 'method' | 'path'>,
    options: RequestOptions | undefined,
  ): Promise<T> {
    return this.#http.request<T>({ method, path: `/v1/admin${p}`, ...spec }, options);
  }

  private files<T>(
    method: HttpMethod,
    p: string,
    spec: Omit<RequestSpec, 'method' | 'path'>,
    options: RequestOptions | undefined,
  ): Promise<T> {
    return this.#http.request<T>({ method, path: `/v1/files${p}`, ...spec }, options);
  }

  private paged<Page extends { meta: { nextToken?: string } }, Item>(
    p: () => string,
    query: PageInput & Record<string, unknown>,
    itemsOf: (page: Page) => Item[],
    spec: Omit<RequestSpec, 'method' | 'path' | 'query'>,
    options: RequestOptions | undefined,
    api: 'admin' | 'files' = 'admin',
  ): PagePromise<Page, Item> {
    return new PagePromise<Page, Item>(
      async (nextToken) =>
        this[api]<Page>(
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

  /** The bot's Chat API secrets: the user key secret (verified identity) and the webhook secret. */
  async getBotChat({ id }: IdInput, options?: RequestOptions): Promise<BotChatSecretsResponse> {
    return this.admin('GET', path`/bots/${id}/chat`, {}, options);
  }

  /** Replaces both chat secrets of a bot: every user key signed with the old one stops working. */
  async rotateBotChatSecrets({ id }: IdInput, options?: RequestOptions): Promise<BotChatSecretsResponse> {
    return this.admin('POST', path`/bots/${id}/chat/rotate-secrets`, {}, options);
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
   * Invites a member by e-mail: the answer carries a one-time `invitation.code` to hand to that person
   * (see `acceptInvitation`); the member is `invited` and holds no role until the person accepts.
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
   * Redeems a one-time invitation code. Without a token it creates the account of the invited e-mail and
   * answers its first personal access token, e.g. for `client.with({ token: pat.value, workspaceId })`.
   * When an account already holds that e-mail, call it with that account's token (no `pat` then).
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

  // ---- files (x-bot-id: the client's botId, or options.botId) ----

  /**
   * Creates a file record, or replaces the one with the same key (`PUT /v1/files`); answers it with the
   * `uploadUrl` to PUT exactly `size` bytes to. `uploadFile` does both steps.
   */
  async upsertFile(input: UpsertFileInput, options?: RequestOptions): Promise<UpsertFileResponse> {
    return this.files('PUT', '', { body: input }, options);
  }

  /**
   * Lists the bot's files the caller may access: await for a page, `for await` for every file.
   * `tags` filters like listBots' (`{ team: 'sales' }`, `{ team: { not: 'x' } }`, …).
   */
  listFiles(
    input: ListFilesInput = {},
    options?: RequestOptions,
  ): PagePromise<ListFilesResponse, FileObject> {
    return this.paged<ListFilesResponse, FileObject>(
      () => '',
      input,
      (page) => page.files,
      {},
      options,
      'files',
    );
  }

  /** Gets a file by id or key; its `url` downloads it (signed and short-lived unless `public_content`). */
  async getFile({ id }: FileIdInput, options?: RequestOptions): Promise<FileResponse> {
    return this.files('GET', path`/${id}`, {}, options);
  }

  /** Changes a file's tags, metadata, access policies or expiry; a `null` tag value removes the tag. */
  async updateFileMetadata(
    { id, ...body }: UpdateFileMetadataInput,
    options?: RequestOptions,
  ): Promise<FileResponse> {
    return this.files('PUT', path`/${id}`, { body }, options);
  }

  /** Deletes a file (id or key), its content and its passages. */
  async deleteFile({ id }: FileIdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.files('DELETE', path`/${id}`, {}, options);
  }

  /**
   * Copies a file to `destinationKey`, on the same bot or on `destinationBotId` (sent as
   * `x-destination-bot-id`); `overwrite` replaces a file already there (else 409 AlreadyExists).
   */
  async copyFile(
    { id, destinationKey, overwrite, destinationBotId }: CopyFileInput,
    options?: RequestOptions,
  ): Promise<FileResponse> {
    return this.files(
      'POST',
      path`/${id}/${destinationKey}`,
      {
        body: overwrite === undefined ? {} : { overwrite },
        headers: { 'x-destination-bot-id': destinationBotId },
      },
      options,
    );
  }

  /** The tag keys the bot's files use: await for a page, `for await` for every key. */
  listFileTags(input: PageInput = {}, options?: RequestOptions): PagePromise<ListFileTagsResponse, string> {
    return this.paged<ListFileTagsResponse, string>(
      () => '/tags',
      input,
      (page) => page.tags,
      {},
      options,
      'files',
    );
  }

  /** The values one tag key takes on the bot's files: await for a page, `for await` for every value. */
  listFileTagValues(
    { tag, ...query }: ListFileTagValuesInput,
    options?: RequestOptions,
  ): PagePromise<ListFileTagValuesResponse, string> {
    return this.paged<ListFileTagValuesResponse, string>(
      () => path`/tags/${tag}/values`,
      query,
      (page) => page.values,
      {},
      options,
      'files',
    );
  }

  /**
   * The passages of the indexed files the caller may read that best match `query` (at most 1 KB), best
   * first; `mode` picks hybrid (default), lexical or semantic ranking. `tags` filters the files,
   * `knowledgeBaseIds` keeps the files linked to those knowledge bases.
   */
  async searchFiles(input: SearchFilesInput, options?: RequestOptions): Promise<SearchFilesResponse> {
    return this.files('GET', '/search', { query: input }, options);
  }

  /** The stored passages of a file, in order: await for a page (`limit` ≤ 200), `for await` for all. */
  listFilePassages(
    { id, ...query }: ListFilePassagesInput,
    options?: RequestOptions,
  ): PagePromise<ListFilePassagesResponse, FilePassageItem> {
    return this.paged<ListFilePassagesResponse, FilePassageItem>(
      () => path`/${id}/passages`,
      query,
      (page) => page.passages,
      {},
      options,
      'files',
    );
  }

  /** Replaces a file's passages with your own chunks; they are embedded in the background. */
  async setFilePassages(
    { id, passages }: SetFilePassagesInput,
    options?: RequestOptions,
  ): Promise<FileResponse> {
    return this.files('PUT', path`/${id}/passages`, { body: { passages } }, options);
  }

  /** Indexes a file again without a new upload (after `indexing_failed`, or for a new model); turns `index` on. */
  async reindexFile({ id }: FileIdInput, options?: RequestOptions): Promise<FileResponse> {
    return this.files('PUT', path`/${id}/index`, {}, options);
  }

  // ---- knowledge bases ----

  /** The bot's knowledge bases: await for a page, `for await` for every one. */
  listKnowledgeBases(
    input: PageInput = {},
    options?: RequestOptions,
  ): PagePromise<ListKnowledgeBasesResponse, KnowledgeBase> {
    return this.paged<ListKnowledgeBasesResponse, KnowledgeBase>(
      () => '/knowledge-bases',
      input,
      (page) => page.knowledgeBases,
      {},
      options,
      'files',
    );
  }

  /** Creates a knowledge base: a named group of files searched together. */
  async createKnowledgeBase(
    input: CreateKnowledgeBaseInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse> {
    return this.files('POST', '/knowledge-bases', { body: input }, options);
  }

  /** Gets a knowledge base, with how many of its files are indexed, pending and failed. */
  async getKnowledgeBase({ id }: IdInput, options?: RequestOptions): Promise<KnowledgeBaseResponse> {
    return this.files('GET', path`/knowledge-bases/${id}`, {}, options);
  }

  /** Renames a knowledge base; `tags`, when given, replace its tags. */
  async updateKnowledgeBase(
    { id, ...body }: UpdateKnowledgeBaseInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse> {
    return this.files('PUT', path`/knowledge-bases/${id}`, { body }, options);
  }

  /** Deletes a knowledge base (its files stay). */
  async deleteKnowledgeBase({ id }: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.files('DELETE', path`/knowledge-bases/${id}`, {}, options);
  }

  /** The files linked to a knowledge base, with their indexing state. */
  async listKnowledgeBaseFiles(
    { id }: IdInput,
    options?: RequestOptions,
  ): Promise<ListKnowledgeBaseFilesResponse> {
    return this.files('GET', path`/knowledge-bases/${id}/files`, {}, options);
  }

  /** Links a file (id or key) to a knowledge base; a file that is not indexed starts indexing. */
  async linkKnowledgeBaseFile(
    { id, fileId }: KnowledgeBaseFileInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse> {
    return this.files('PUT', path`/knowledge-bases/${id}/files/${fileId}`, {}, options);
  }

  /** Unlinks a file from a knowledge base (the file stays). */
  async unlinkKnowledgeBaseFile(
    { id, fileId }: KnowledgeBaseFileInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse> {
    return this.files('DELETE', path`/knowledge-bases/${id}/files/${fileId}`, {}, options);
  }

  // ---- uploads, indexing and downloads ----

  /**
   * Uploads a file in one call: `upsertFile`, then the bytes streamed to its `uploadUrl`, then the final
   * file (`getFile`). The bytes come from `content` (string, bytes, Blob), `path` (Node: streamed from
   * disk, never held in memory) or `stream` (with its `size`). `onProgress` is told as bytes go out.
   *
   * The byte upload is retried like a PUT (connection errors, timeouts, 5xx, 429) except for a `stream`,
   * which can be read once; `timeout` there is an idle timeout (no byte moved for that long), so a large
   * file never times out while it moves. With `index: true`, follow with `waitForIndexing(file.id)`.
   * @example
   * const file = await client.uploadFile({ key: 'docs/guide.pdf', path: './guide.pdf', index: true,
   *   onProgress: ({ loaded, total }) => console.log(`${Math.round((100 * loaded) / total)}%`) });
   */
  async uploadFile(input: UploadFileInput, options: RequestOptions = {}): Promise<FileObject> {
    const {
      content,
      path: filePath,
      stream,
      onProgress,
      ...rest
    } = input as UploadFileInput & {
      content?: unknown;
      path?: unknown;
      stream?: unknown;
      size?: unknown;
    };
    const { size: _size, ...settings } = rest;
    const source = await prepareSource(input);
    const contentType = settings.contentType ?? source.contentType;
    const { file: pending } = await this.upsertFile(
      { ...settings, ...(contentType ? { contentType } : {}), size: source.size },
      options,
    );
    await sendUpload(this.#http, pending.uploadUrl, source, onProgress, options);
    const { file } = await this.getFile({ id: pending.id }, options);
    return file;
  }

  /**
   * Waits until a file is indexed, reading it every `intervalMs`: resolves with the file at
   * `indexing_completed`; rejects with `IndexingFailedError` (see `failedStatusReason`) at `indexing_failed`,
   * `upload_failed` or for a file with `index: false`, and with `TimeoutError` after `timeoutMs`.
   */
  async waitForIndexing(fileId: string, options: WaitForIndexingOptions = {}): Promise<FileObject> {
    const { timeoutMs = 300_000, intervalMs = 1000, onProgress, ...requestOptions } = options;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { file } = await this.getFile({ id: fileId }, requestOptions);
      onProgress?.(file);
      if (file.status === 'indexing_completed') return file;
      if (file.status === 'indexing_failed' || file.status === 'upload_failed') {
        throw new IndexingFailedError(file);
      }
      if (file.status === 'upload_completed' && !file.index) {
        throw new IndexingFailedError(
          file,
          `File ${file.id} (${file.key}) is not set to be indexed (index: false); reindexFile turns indexing on`,
        );
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new TimeoutError(`File ${file.id} was still ${file.status} after ${timeoutMs} ms`, timeoutMs);
      }
      await sleep(Math.min(intervalMs, left), requestOptions.signal);
    }
  }

  /**
   * Downloads a file (id or key) as a web `ReadableStream`, through the file's own `url` (the signed URL
   * of a private file, the permanent one of a `public_content` file). `timeout` covers the wait for the
   * answer's headers; the caller's `signal` also aborts the body.
   * @example
   * const { stream, size } = await client.downloadFile('docs/guide.pdf');
   * await pipeline(Readable.fromWeb(stream), createWriteStream('guide.pdf')); // Node
   * // Part of it (resuming, or reading a header): bytes 0–1023; a range past the end throws (416).
   * const head = await client.downloadFile('docs/guide.pdf', { range: { start: 0, end: 1023 } });
   */
  async downloadFile(file: string | FileIdInput, options: DownloadFileOptions = {}): Promise<DownloadedFile> {
    const { range, ...requestOptions } = options;
    if (range) {
      const { start, end } = range;
      if (
        !Number.isSafeInteger(start) ||
        start < 0 ||
        (end !== undefined && (!Number.isSafeInteger(end) || end < start))
      )
        throw new RangeError(`Invalid range ${JSON.stringify(range)}: want integers with 0 ≤ start ≤ end`);
    }
    const id = typeof file === 'string' ? file : file.id;
    const { file: record } = await this.getFile({ id }, requestOptions);
    const headers = () => {
      const h = new Headers({ accept: '*/*' });
      if (range) h.set('range', `bytes=${range.start}-${range.end ?? ''}`);
      return h;
    };
    const res = await this.#http.send<Response>(
      record.url,
      'GET',
      () => ({ method: 'GET', headers: headers() }),
      requestOptions,
      { raw: true },
    );
    const length = Number(res.headers.get('content-length') ?? Number.NaN);
    const stream =
      (res.body as ReadableStream<Uint8Array> | null) ??
      new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
    const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get('content-range') ?? '');
    return {
      stream,
      size: Number.isFinite(length) ? length : (record.size ?? 0),
      contentType: res.headers.get('content-type') ?? record.contentType,
      file: record,
      ...(res.status === 206 && contentRange
        ? {
            range: {
              start: Number(contentRange[1]),
              end: Number(contentRange[2]),
              total: Number(contentRange[3]),
            },
          }
        : {}),
    };
  }
}
