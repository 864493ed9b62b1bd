import type { ChatConversation, ChatMessage, ChatUser } from '@parley/protocol';
import { createParser } from 'eventsource-parser';
import type { EmptyResponse, IdInput, PageInput } from './admin-types.js';
import type {
  AddParticipantInput,
  ChatFileResult,
  ChatStreamSignal,
  ChatUserInput,
  ChatUserResult,
  ConversationPageInput,
  ConversationResult,
  CreateChatFileInput,
  CreateChatUserResult,
  CreateConversationInput,
  CreateEventInput,
  CreateMessageInput,
  EventResult,
  ListConversationsResult,
  ListMessagesResult,
  ListParticipantsResult,
  MessageFeedbackInput,
  MessageResult,
  ParticipantInput,
  ParticipantResult,
  UploadChatFileInput,
} from './chat-types.js';
import { DEFAULT_API_URL } from './client.js';
import { fetchOf, pick, retryOf } from './env.js';
import { AbortError, isApiError, ParleyError } from './errors.js';
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
import { prepareSource, sendUpload } from './transfer.js';

/** Options of a chat client. */
export interface ChatClientOptions {
  /** The bot whose Chat API this is (`/v1/chat/{botId}`). Env `PARLEY_BOT_ID`. */
  botId?: string | undefined;
  /**
   * The chat user's key, sent as `x-user-key`: the `key` createUser answered, or a key your backend signed
   * (`signUserKey`) for verified identity.
   */
  userKey?: string | undefined;
  /** A bot access key (`bak_…`), sent as `Authorization: Bearer`: the bot itself acting in its chats. */
  token?: string | undefined;
  /** The webchat adminKey, sent as `x-admin-key` (enhanced permissions). */
  adminKey?: string | undefined;
  /** Base URL of the server, without `/v1`. Env `PARLEY_API_URL`; default `http://127.0.0.1:3000`. */
  apiUrl?: string | undefined;
  /** Per-attempt timeout in milliseconds; default 60000 (for `listen`: the wait for the stream to open). */
  timeout?: number | undefined;
  /** Retry settings, as for `Client`. */
  retry?: RetryOptions | undefined;
  /** Headers sent on every request. */
  headers?: Record<string, string> | undefined;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch | undefined;
}

/** Options of `listen`. */
export interface ListenOptions {
  /** Stops the stream: the `for await` loop then ends without an error. */
  signal?: AbortSignal | undefined;
  /** Resume after this frame id (`signal.eventId` of the last signal you handled). */
  lastEventId?: string | undefined;
  /** Reconnect when the stream drops or ends (default true), resuming after the last frame received. */
  reconnect?: boolean | undefined;
  /**
   * Wait before reconnecting, doubled after each failed try (with jitter, capped at 30 s). Default: the
   * server's `retry:` (3 s), else 1000.
   */
  reconnectDelayMs?: number | undefined;
  /** Reconnect when nothing (not even a ping) came for this long. Default 75000 (pings come every 30 s). */
  idleTimeoutMs?: number | undefined;
  /** Yield `ping` signals too (default false). */
  includePings?: boolean | undefined;
}

/**
 * The Chat API of one bot (`/v1/chat/{botId}`), as a chat user (`userKey`) or as the bot (`token`: a bot
 * access key). One method per operation; lists answer a `PagePromise`; `listen` is the live stream.
 * @example
 * const anon = new ChatClient({ botId, apiUrl });
 * const { key } = await anon.createUser({ name: 'Ana' });
 * const chat = anon.with({ userKey: key });
 * const { conversation } = await chat.createConversation();
 * await chat.createMessage({ conversationId: conversation.id, payload: { type: 'text', text: 'Hi!' } });
 * for await (const s of chat.listen(conversation.id)) if (s.type === 'message_created') console.log(s.data);
 */
export class ChatClient {
  /** The bot. */
  readonly botId: string;
  /** Base URL of the server (no trailing slash). */
  readonly apiUrl: string;
  /** The chat user's key, when set. */
  readonly userKey: string | undefined;

  readonly #options: ChatClientOptions;
  readonly #http: Transport;

  constructor(options: ChatClientOptions = {}) {
    this.#options = { ...options };
    const botId = pick(options.botId, 'PARLEY_BOT_ID');
    if (!botId) throw new TypeError('ChatClient needs a botId (or PARLEY_BOT_ID)');
    this.botId = botId;
    this.apiUrl = (pick(options.apiUrl, 'PARLEY_API_URL') ?? DEFAULT_API_URL).replace(/\/+$/, '');
    this.userKey = options.userKey || undefined;
    const headers: Record<string, string> = { ...options.headers };
    if (this.userKey) headers['x-user-key'] = this.userKey;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.adminKey) headers['x-admin-key'] = options.adminKey;
    this.#http = new Transport({
      apiUrl: this.apiUrl,
      timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
      retry: retryOf(options.retry),
      headers,
      fetch: fetchOf(options.fetch),
      customFetch: options.fetch !== undefined,
    });
  }

  /** A new chat client with some options changed, e.g. `with({ userKey })` after createUser. */
  with(overrides: ChatClientOptions): ChatClient {
    return new ChatClient({ ...this.#options, ...overrides });
  }

  private chat<T>(
    method: HttpMethod,
    p: string,
    spec: Omit<RequestSpec, 'method' | 'path'>,
    options: RequestOptions | undefined,
  ): Promise<T> {
    return this.#http.request<T>({ method, path: path`/v1/chat/${this.botId}` + p, ...spec }, options);
  }

  private paged<Page extends { meta: { nextToken?: string } }, Item>(
    p: string,
    query: PageInput,
    itemsOf: (page: Page) => Item[],
    options: RequestOptions | undefined,
  ): PagePromise<Page, Item> {
    return new PagePromise<Page, Item>(
      (nextToken) => this.chat<Page>('GET', p, { query: { ...query, nextToken } }, options),
      itemsOf,
      query.nextToken,
    );
  }

  // ---- users ----

  /** Creates an anonymous chat user (no key needed); answers it with its `key`. */
  async createUser(input: ChatUserInput = {}, options?: RequestOptions): Promise<CreateChatUserResult> {
    return this.chat('POST', '/users', { body: input }, options);
  }

  /**
   * Verified identity: with a `userKey` your backend signed (`signUserKey`) for its own user id, the user is
   * created on first use and found after. `input` applies on creation only.
   */
  async getOrCreateUser(input: ChatUserInput = {}, options?: RequestOptions): Promise<ChatUserResult> {
    return this.chat('POST', '/users/get-or-create', { body: input }, options);
  }

  /** The caller. */
  async getUser(_input: Record<string, never> = {}, options?: RequestOptions): Promise<ChatUserResult> {
    return this.chat('GET', '/users/me', {}, options);
  }

  /** Updates the caller (`null` clears a field). */
  async updateUser(input: ChatUserInput, options?: RequestOptions): Promise<ChatUserResult> {
    return this.chat('PUT', '/users/me', { body: input }, options);
  }

  /** Deletes the caller with its messages, events and participations. */
  async deleteUser(_input: Record<string, never> = {}, options?: RequestOptions): Promise<EmptyResponse> {
    return this.chat('DELETE', '/users/me', {}, options);
  }

  // ---- conversations ----

  /** Creates a conversation with the caller as participant. */
  async createConversation(
    input: CreateConversationInput = {},
    options?: RequestOptions,
  ): Promise<ConversationResult> {
    return this.chat('POST', '/conversations', { body: input }, options);
  }

  /** The conversation with this id if the caller takes part in it, else a new one with that id. */
  async getOrCreateConversation(
    input: CreateConversationInput,
    options?: RequestOptions,
  ): Promise<ConversationResult> {
    return this.chat('POST', '/conversations/get-or-create', { body: input }, options);
  }

  /** The caller's conversations, most recently active first (the bot: all of them). */
  listConversations(
    input: PageInput = {},
    options?: RequestOptions,
  ): PagePromise<ListConversationsResult, ChatConversation> {
    return this.paged(
      '/conversations',
      input,
      (page: ListConversationsResult) => page.conversations,
      options,
    );
  }

  /** A conversation the caller takes part in. */
  async getConversation({ id }: IdInput, options?: RequestOptions): Promise<ConversationResult> {
    return this.chat('GET', path`/conversations/${id}`, {}, options);
  }

  /** Deletes a conversation with its messages, events and participants. */
  async deleteConversation({ id }: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.chat('DELETE', path`/conversations/${id}`, {}, options);
  }

  // ---- messages ----

  /** Messages of a conversation, newest first: await for a page, `for await` for every message. */
  listMessages(
    { conversationId, ...query }: ConversationPageInput,
    options?: RequestOptions,
  ): PagePromise<ListMessagesResult, ChatMessage> {
    return this.paged(
      path`/conversations/${conversationId}/messages`,
      query,
      (page: ListMessagesResult) => page.messages,
      options,
    );
  }

  /** Posts a message (payload at most 128 KB as JSON). */
  async createMessage(input: CreateMessageInput, options?: RequestOptions): Promise<MessageResult> {
    return this.chat('POST', '/messages', { body: input }, options);
  }

  /** A message of a conversation the caller may read. */
  async getMessage({ id }: IdInput, options?: RequestOptions): Promise<MessageResult> {
    return this.chat('GET', path`/messages/${id}`, {}, options);
  }

  /** Deletes a message (its author or the bot). */
  async deleteMessage({ id }: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.chat('DELETE', path`/messages/${id}`, {}, options);
  }

  /** Feedback on a bot message (when the bot's webchat configuration has `feedbackEnabled`). */
  async setMessageFeedback(
    { id, ...feedback }: MessageFeedbackInput,
    options?: RequestOptions,
  ): Promise<MessageResult> {
    return this.chat('PUT', path`/messages/${id}/feedback`, { body: feedback }, options);
  }

  // ---- events ----

  /** Sends a custom event into a conversation. */
  async createEvent(input: CreateEventInput, options?: RequestOptions): Promise<EventResult> {
    return this.chat('POST', '/events', { body: input }, options);
  }

  /** An event of a conversation the caller may read. */
  async getEvent({ id }: IdInput, options?: RequestOptions): Promise<EventResult> {
    return this.chat('GET', path`/events/${id}`, {}, options);
  }

  // ---- participants ----

  /** Participants of a conversation, in the order they joined. */
  listParticipants(
    { conversationId, ...query }: ConversationPageInput,
    options?: RequestOptions,
  ): PagePromise<ListParticipantsResult, ChatUser> {
    return this.paged(
      path`/conversations/${conversationId}/participants`,
      query,
      (page: ListParticipantsResult) => page.participants,
      options,
    );
  }

  /** Adds a user of the bot to a conversation. */
  async addParticipant(
    { conversationId, userId }: AddParticipantInput,
    options?: RequestOptions,
  ): Promise<ParticipantResult> {
    return this.chat(
      'POST',
      path`/conversations/${conversationId}/participants`,
      { body: { userId } },
      options,
    );
  }

  /** One participant of a conversation. */
  async getParticipant(
    { conversationId, userId }: ParticipantInput,
    options?: RequestOptions,
  ): Promise<ParticipantResult> {
    return this.chat('GET', path`/conversations/${conversationId}/participants/${userId}`, {}, options);
  }

  /** Removes a participant: oneself, or anyone for the conversation's creator and the bot. */
  async removeParticipant(
    { conversationId, userId }: ParticipantInput,
    options?: RequestOptions,
  ): Promise<EmptyResponse> {
    return this.chat('DELETE', path`/conversations/${conversationId}/participants/${userId}`, {}, options);
  }

  // ---- files ----

  /**
   * Starts a chat file upload (when the bot's webchat configuration has `allowFileUpload`): PUT the bytes to
   * `file.uploadUrl`, then send a `file` or `image` message with `file.url`. `uploadFile` does both.
   */
  async createFile(input: CreateChatFileInput, options?: RequestOptions): Promise<ChatFileResult> {
    return this.chat('POST', '/files', { body: input }, options);
  }

  /**
   * Uploads a chat file from `content`, `path` (Node) or `stream` (with `size`), with progress, and answers
   * it with its permanent `url` to send in a message.
   */
  async uploadFile(input: UploadChatFileInput, options: RequestOptions = {}): Promise<ChatFileResult> {
    const source = await prepareSource(input);
    const contentType = input.contentType ?? source.contentType;
    const created = await this.createFile(
      {
        name: input.name,
        conversationId: input.conversationId,
        size: source.size,
        ...(contentType ? { contentType } : {}),
      },
      options,
    );
    await sendUpload(this.#http, created.file.uploadUrl, source, input.onProgress, options);
    return created;
  }

  // ---- live stream ----

  /**
   * The live stream of a conversation (Server-Sent Events) as an async iterator of signals
   * (`message_created`, `typing_started`, `message_stream_delta`, …), each with its frame's `eventId`.
   * When the connection drops or ends, it reconnects with `Last-Event-ID`, so no signal is lost or
   * repeated; `signal` ends the loop. Errors the server answers on opening (401, 403, 404, …) are thrown.
   * @example
   * for await (const s of chat.listen(conversationId, { signal })) {
   *   if (s.type === 'message_created' && s.data.isBot) console.log(s.data.payload);
   * }
   */
  async *listen(conversationId: string, options: ListenOptions = {}): AsyncGenerator<ChatStreamSignal, void> {
    const { signal, reconnect = true, idleTimeoutMs = 75_000 } = options;
    const url = `${this.apiUrl}${path`/v1/chat/${this.botId}/conversations/${conversationId}/listen`}`;
    let cursor = options.lastEventId;
    let serverDelay: number | undefined;
    let failures = 0;
    // reconnectDelayMs when given, else the server's `retry:`, else 1 s; doubled per failed try, capped, jittered.
    const delay = () => {
      const base = options.reconnectDelayMs ?? serverDelay ?? 1000;
      return Math.min(30_000, base * 2 ** Math.max(0, failures - 1)) * (0.5 + Math.random() / 2);
    };
    const wait = async (ms: number): Promise<boolean> => {
      try {
        await sleep(ms, signal);
        return true;
      } catch {
        return false; // aborted
      }
    };
    while (!signal?.aborted) {
      const connection = new AbortController();
      const stop = () => connection.abort(signal?.reason);
      signal?.addEventListener('abort', stop, { once: true });
      let res: Response;
      try {
        res = await this.#http.send<Response>(
          url,
          'GET',
          () => {
            const headers = this.#http.headers({}, { accept: 'text/event-stream', 'last-event-id': cursor });
            return { method: 'GET', headers };
          },
          { signal: connection.signal, retry: { attempts: 1 } },
          { raw: true },
        );
      } catch (error) {
        signal?.removeEventListener('abort', stop);
        if (error instanceof AbortError || signal?.aborted) return;
        const retryable = !isApiError(error) || error.status === 429 || error.status >= 500;
        if (!reconnect || !retryable) throw error;
        failures += 1;
        const asked = isApiError(error) ? error.retryAfterMs : undefined;
        if (!(await wait(asked ?? delay()))) return;
        continue;
      }
      const queue: ChatStreamSignal[] = [];
      let bad: ParleyError | undefined;
      const parser = createParser({
        onEvent: (event) => {
          if (event.id !== undefined) cursor = event.id;
          try {
            const parsed = JSON.parse(event.data) as ChatStreamSignal;
            queue.push({ ...parsed, eventId: event.id });
          } catch {
            bad ??= new ParleyError(
              `The live stream sent a frame that is not JSON: ${event.data.slice(0, 200)}`,
            );
          }
        },
        onRetry: (ms) => {
          serverDelay = ms;
        },
      });
      let idle: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        if (idle !== undefined) clearTimeout(idle);
        idle = setTimeout(() => connection.abort(new Error('the live stream went silent')), idleTimeoutMs);
      };
      const reader = (res.body ?? new ReadableStream<Uint8Array>())
        .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
        .getReader();
      try {
        arm();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          arm();
          parser.feed(value);
          if (bad) throw bad;
          if (queue.length > 0) failures = 0;
          while (queue.length > 0) {
            const next = queue.shift() as ChatStreamSignal;
            if (next.type !== 'ping' || options.includePings) yield next;
          }
        }
      } catch (error) {
        if (error === bad) throw error;
        // A broken or silent connection: reconnect below (an abort of `signal` ends the loop there).
      } finally {
        if (idle !== undefined) clearTimeout(idle);
        signal?.removeEventListener('abort', stop);
        connection.abort();
        await reader.cancel().catch(() => undefined);
      }
      if (signal?.aborted || !reconnect) return;
      failures += 1;
      if (!(await wait(delay()))) return;
    }
  }
}

/**
 * Signs a chat user key for verified identity, as a site's backend does: an HS256 JWT of `{ id: userId }`
 * signed with the bot's chat user key secret (`client.getBotChat({ id: botId })`). Keep the secret on your
 * server; hand the key to the browser, which sends it as `userKey`. Uses WebCrypto (Node 20+, browsers).
 * @example const userKey = await signUserKey(secret, 'customer-42', { expiresInSeconds: 3600 });
 */
export async function signUserKey(
  secret: string,
  userId: string,
  options: { expiresInSeconds?: number | undefined } = {},
): Promise<string> {
  const encoder = new TextEncoder();
  const b64url = (bytes: Uint8Array) => {
    let text = '';
    for (const byte of bytes) text += String.fromCharCode(byte);
    return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  };
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = { id: userId, iat: now };
  if (options.expiresInSeconds !== undefined) payload.exp = now + options.expiresInSeconds;
  const head = b64url(encoder.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));
  const body = b64url(encoder.encode(JSON.stringify(payload)));
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${head}.${body}`)));
  return `${head}.${body}.${b64url(mac)}`;
}
