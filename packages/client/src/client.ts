import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type {
  GetAuditRecordsInput,
  GetBotLogsInput,
  IdInput,
  ListBotsInput,
  PageInput,
} from '@parley/protocol/operations/io/admin';
import type {
  ListFilePassagesInput,
  ListFilesInput,
  ListFileTagValuesInput,
} from '@parley/protocol/operations/io/files';
import type { BotConversationsSignal } from '@parley/protocol/operations/io/inbox';
import { AccountApi } from './account-api.js';
import { BotsApi } from './bots-api.js';
import { apiUrlOf, type ConnectionOptions, composeApis, RequestCore, transportOf } from './core.js';
import { pick } from './env.js';
import type { ListenOptions } from './event-stream.js';
import { FileTransferApi } from './file-transfer-api.js';
import { FilesApi } from './files-api.js';
import type { RequestOptions } from './http.js';
import { IntegrationsApi } from './integrations-api.js';
import { KnowledgeBasesApi } from './knowledge-api.js';
import { encodeQuery } from './query.js';
import { WorkspacesApi } from './workspaces-api.js';

export { DEFAULT_API_URL } from './core.js';
export type {
  DownloadedFile,
  DownloadFileOptions,
  UploadFileInput,
  WaitForIndexingOptions,
} from './file-transfer-api.js';

/** Options of a client. Every one is optional; unset ones fall back to environment variables where named. */
export interface ClientOptions extends ConnectionOptions {
  /** Personal access token (`pat_…`), bot access key (`bak_…`) or integration key (`iak_…`). Env `PARLEY_TOKEN`. */
  token?: string | undefined;
  /** Sent as `x-workspace-id` (workspace-scoped Admin operations need it). Env `PARLEY_WORKSPACE_ID`. */
  workspaceId?: string | undefined;
  /** Sent as `x-bot-id` (the Files and Chat APIs need it). Env `PARLEY_BOT_ID`. */
  botId?: string | undefined;
  /** Sent as `x-integration-id` (an integration acting on a bot). Env `PARLEY_INTEGRATION_ID`. */
  integrationId?: string | undefined;
}

/** Input of exportBotConversations: the bot, the period and the format. */
export interface ExportBotConversationsInput {
  id: string;
  /** `json` (default) or `csv`. */
  format?: 'json' | 'csv' | undefined;
  /** Conversations created at or after this date or time (ISO 8601). */
  from?: string | undefined;
  /** Conversations created before this date or time (ISO 8601). */
  to?: string | undefined;
}

/** Input of exportBotConversation: the bot, the conversation and the format. */
export interface ExportBotConversationInput {
  id: string;
  conversationId: string;
  /** `json` (default) or `csv`. */
  format?: 'json' | 'csv' | undefined;
}

/** A conversation export as it streams. */
export interface ConversationsExport {
  /** The export's bytes (JSON or CSV); read it to the end or `cancel()` it. */
  stream: ReadableStream<Uint8Array>;
  contentType: string;
  /** The file name the server suggests (Content-Disposition). */
  filename: string;
}

/** Every API of the Admin and Files APIs, as the methods of one class. */
const AllApis = composeApis(
  BotsApi,
  WorkspacesApi,
  AccountApi,
  IntegrationsApi,
  FilesApi,
  KnowledgeBasesApi,
  FileTransferApi,
);

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
export class Client extends AllApis {
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

  constructor(options: ClientOptions = {}) {
    const apiUrl = apiUrlOf(options.apiUrl);
    const context = {
      workspaceId: pick(options.workspaceId, 'PARLEY_WORKSPACE_ID'),
      botId: pick(options.botId, 'PARLEY_BOT_ID'),
      integrationId: pick(options.integrationId, 'PARLEY_INTEGRATION_ID'),
    };
    const token = pick(options.token, 'PARLEY_TOKEN');
    const auth: Record<string, string> = {};
    if (token) auth.authorization = `Bearer ${token}`;
    if (context.workspaceId) auth['x-workspace-id'] = context.workspaceId;
    if (context.botId) auth['x-bot-id'] = context.botId;
    if (context.integrationId) auth['x-integration-id'] = context.integrationId;
    const http = transportOf(options, apiUrl, auth);
    super(new RequestCore(http, {}));
    this.#options = { ...options };
    this.apiUrl = apiUrl;
    this.workspaceId = context.workspaceId;
    this.botId = context.botId;
    this.integrationId = context.integrationId;
    this.timeout = http.config.timeout;
  }

  /**
   * The inbox desk's live stream of a bot (`GET /v1/admin/bots/{id}/conversations/live`, Server-Sent
   * Events) as an async iterator: the desk's `counts` first, then `conversation_changed` for each message or
   * change of owner, `resync` when changes may have been missed. It reconnects when the connection drops or
   * the server ends it (every 5 minutes); read the lists again in `onOpen` then. `signal` ends the loop.
   * @example
   * for await (const s of client.listenBotConversations({ id: botId }, { signal })) {
   *   if (s.type === 'conversation_changed' && s.data.handoff?.state === 'pending') console.log('waiting');
   * }
   */
  async *listenBotConversations(
    input: IdInput,
    options: ListenOptions = {},
  ): AsyncGenerator<BotConversationsSignal, void> {
    const url = this.core.url(BOT_OPERATIONS.listenBotConversations, { id: input.id });
    // The stream reader loads at the first listen (the Console's inbox), not with the client.
    const { listenAt } = await import('./stream-open.js');
    yield* listenAt<BotConversationsSignal>(this.core.http, url, options);
  }

  /**
   * Exports a bot's conversations created from `from` (included) to `to` (excluded), ISO 8601, with their
   * messages (`GET /v1/admin/bots/{id}/conversations/export`), as JSON (default) or CSV. Answers the body as a
   * web stream, read as the server writes it (never the whole period in memory), with its type and file name.
   * @example
   * const { stream } = await client.exportBotConversations({ id: botId, format: 'csv', from: '2026-03-01' });
   * for await (const chunk of stream) process.stdout.write(chunk);
   */
  exportBotConversations(
    input: ExportBotConversationsInput,
    options: RequestOptions = {},
  ): Promise<ConversationsExport> {
    const { id, format, from, to } = input;
    const url = this.core.url(BOT_OPERATIONS.exportBotConversations, { id });
    return this.#download(url, { format, from, to }, options);
  }

  /**
   * Exports one conversation with its messages (`GET …/conversations/{conversationId}/export`), as JSON
   * (default) or CSV, streamed as exportBotConversations does.
   */
  exportBotConversation(
    input: ExportBotConversationInput,
    options: RequestOptions = {},
  ): Promise<ConversationsExport> {
    const { id, conversationId, format } = input;
    const url = this.core.url(BOT_OPERATIONS.exportBotConversation, { id, conversationId });
    return this.#download(url, { format }, options);
  }

  /** A streamed export at `url`: its body unread, with its type and the file name the server suggests. */
  async #download(
    url: string,
    query: Record<string, string | undefined>,
    options: RequestOptions,
  ): Promise<ConversationsExport> {
    const encoded = encodeQuery(query);
    const http = this.core.http;
    const res = await http.send<Response>(
      encoded ? `${url}?${encoded}` : url,
      'GET',
      () => ({ method: 'GET', headers: http.headers(options, { accept: '*/*' }) }),
      options,
      { raw: true },
    );
    const disposition = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
    return {
      stream:
        (res.body as ReadableStream<Uint8Array> | null) ??
        new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }),
      contentType: res.headers.get('content-type') ?? '',
      filename: disposition?.[1] ?? `conversations.${query.format ?? 'json'}`,
    };
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
}
