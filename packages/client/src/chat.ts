import { CHAT_OPERATIONS } from '@parley/protocol/operations';
import { ChatApi } from './chat-api.js';
import type {
  ChatClientOptions,
  ChatFileResult,
  ChatStreamSignal,
  UploadChatFileInput,
} from './chat-types.js';
import { apiUrlOf, RequestCore, type RequestOptions, transportOf } from './core.js';
import { pick } from './env.js';
import type { ListenOptions } from './event-stream.js';
import { listenAt } from './stream-open.js';
import { prepareSource, sendUpload } from './transfer.js';

export type { ListenOptions } from './event-stream.js';
export { signUserKey } from './user-key.js';

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
export class ChatClient extends ChatApi {
  /** The bot. */
  readonly botId: string;
  /** Base URL of the server (no trailing slash). */
  readonly apiUrl: string;
  /** The chat user's key, when set. */
  readonly userKey: string | undefined;

  readonly #options: ChatClientOptions;

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
    this.#options = { ...options };
    this.botId = botId;
    this.apiUrl = apiUrl;
    this.userKey = userKey;
  }

  /** A new chat client with some options changed, e.g. `with({ userKey })` after createUser. */
  with(overrides: ChatClientOptions): ChatClient {
    return new ChatClient({ ...this.#options, ...overrides });
  }

  // ---- files ----

  /**
   * Uploads a chat file from `content`, `path` (Node) or `stream` (with `size`), with progress, and answers
   * it with its permanent `url` to send in a message.
   */
  async uploadFile(input: UploadChatFileInput, options: RequestOptions = {}): Promise<ChatFileResult> {
    const source = await prepareSource(input);
    const contentType = input.contentType ?? source.contentType;
    const { name, conversationId } = input;
    const created = await this.createFile(
      { name, conversationId, size: source.size, ...(contentType ? { contentType } : {}) },
      options,
    );
    await sendUpload(this.core.http, created.file.uploadUrl, source, input.onProgress, options);
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
    const url = this.core.url(CHAT_OPERATIONS.listen, { id: conversationId });
    yield* listenAt<ChatStreamSignal>(this.core.http, url, options);
  }
}
