import { CHAT_OPERATIONS } from '@parley/protocol/operations';
import { ChatApi } from './chat-api.js';
import type { ChatClientOptions, ChatStreamSignal } from './chat-types.js';
import { apiUrlOf, RequestCore, transportOf } from './core.js';
import { pick } from './env.js';
import type { ListenOptions } from './event-stream.js';
import { listenAt } from './stream-open.js';

/**
 * The Chat API of one bot (`/v1/chat/{botId}`): every operation and the live stream, without `uploadFile` and
 * its upload machinery (`ChatClient` adds it). What a browser bundle that counts its bytes imports
 * (`@parley/client/chat`): the webchat talks to the server through it.
 */
export class ChatApiClient extends ChatApi {
  /** The bot. */
  readonly botId: string;
  /** Base URL of the server (no trailing slash). */
  readonly apiUrl: string;
  /** The chat user's key, when set. */
  readonly userKey: string | undefined;

  private readonly options: ChatClientOptions;

  constructor(options: ChatClientOptions = {}) {
    const botId = pick(options.botId, 'PARLEY_BOT_ID');
    if (!botId) throw new TypeError('ChatClient needs a botId (or PARLEY_BOT_ID)');
    const apiUrl = apiUrlOf(options.apiUrl);
    const userKey = options.userKey || undefined;
    const auth: Record<string, string> = {};
    if (userKey) auth['x-user-key'] = userKey;
    if (options.token) auth.authorization = `Bearer ${options.token}`;
    if (options.adminKey) auth['x-admin-key'] = options.adminKey;
    super(new RequestCore(transportOf(options, apiUrl, auth), { botId }));
    this.options = { ...options };
    this.botId = botId;
    this.apiUrl = apiUrl;
    this.userKey = userKey;
  }

  /** A new chat client of the same class with some options changed, e.g. `with({ userKey })` after createUser. */
  with(overrides: ChatClientOptions): this {
    const Same = this.constructor as new (options: ChatClientOptions) => this;
    return new Same({ ...this.options, ...overrides });
  }

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
    const url = this.core.url(CHAT_OPERATIONS.listen, { id: conversationId });
    yield* listenAt<ChatStreamSignal>(this.core.http, url, options);
  }
}
