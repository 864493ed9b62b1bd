import type { ChatConversation, ChatMessage, ChatUser } from '@parley/protocol';
import type { EmptyResponse, IdInput, NoInput, PageInput } from './admin-types.js';
import type {
  AddParticipantInput,
  ChatClientOptions,
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
import { Api, apiUrlOf, type PagePromise, RequestCore, type RequestOptions, transportOf } from './core.js';
import { pick } from './env.js';
import { ParleyError } from './errors.js';
import { type ListenOptions, listenStream } from './event-stream.js';
import { CHAT_OPERATIONS as OPS } from './operations.js';
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
export class ChatClient extends Api<'botId'> {
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

  // ---- users ----

  /** Creates an anonymous chat user (no key needed); answers it with its `key`. */
  async createUser(input: ChatUserInput = {}, options?: RequestOptions): Promise<CreateChatUserResult> {
    return this.core.send(OPS.createUser, input, options);
  }

  /**
   * Verified identity: with a `userKey` your backend signed (`signUserKey`) for its own user id, the user is
   * created on first use and found after. `input` applies on creation only.
   */
  async getOrCreateUser(input: ChatUserInput = {}, options?: RequestOptions): Promise<ChatUserResult> {
    return this.core.send(OPS.getOrCreateUser, input, options);
  }

  /** The caller. */
  async getUser(input: NoInput = {}, options?: RequestOptions): Promise<ChatUserResult> {
    return this.core.send(OPS.getUser, input, options);
  }

  /** Updates the caller (`null` clears a field). */
  async updateUser(input: ChatUserInput, options?: RequestOptions): Promise<ChatUserResult> {
    return this.core.send(OPS.updateUser, input, options);
  }

  /** Deletes the caller with its messages, events and participations. */
  async deleteUser(input: NoInput = {}, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.deleteUser, input, options);
  }

  // ---- conversations ----

  /** Creates a conversation with the caller as participant. */
  async createConversation(
    input: CreateConversationInput = {},
    options?: RequestOptions,
  ): Promise<ConversationResult> {
    return this.core.send(OPS.createConversation, input, options);
  }

  /** The conversation with this id if the caller takes part in it, else a new one with that id. */
  async getOrCreateConversation(
    input: CreateConversationInput,
    options?: RequestOptions,
  ): Promise<ConversationResult> {
    return this.core.send(OPS.getOrCreateConversation, input, options);
  }

  /** The caller's conversations, most recently active first (the bot: all of them). */
  listConversations(
    input: PageInput = {},
    options?: RequestOptions,
  ): PagePromise<ListConversationsResult, ChatConversation> {
    return this.core.list(OPS.listConversations, input, options, 'conversations');
  }

  /** A conversation the caller takes part in. */
  async getConversation(input: IdInput, options?: RequestOptions): Promise<ConversationResult> {
    return this.core.send(OPS.getConversation, input, options);
  }

  /** Deletes a conversation with its messages, events and participants. */
  async deleteConversation(input: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.deleteConversation, input, options);
  }

  // ---- messages ----

  /** Messages of a conversation, newest first: await for a page, `for await` for every message. */
  listMessages(
    input: ConversationPageInput,
    options?: RequestOptions,
  ): PagePromise<ListMessagesResult, ChatMessage> {
    return this.core.list(OPS.listMessages, input, options, 'messages');
  }

  /** Posts a message (payload at most 128 KB as JSON). */
  async createMessage(input: CreateMessageInput, options?: RequestOptions): Promise<MessageResult> {
    return this.core.send(OPS.createMessage, input, options);
  }

  /** A message of a conversation the caller may read. */
  async getMessage(input: IdInput, options?: RequestOptions): Promise<MessageResult> {
    return this.core.send(OPS.getMessage, input, options);
  }

  /** Deletes a message (its author or the bot). */
  async deleteMessage(input: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.deleteMessage, input, options);
  }

  /** Feedback on a bot message (when the bot's webchat configuration has `feedbackEnabled`). */
  async setMessageFeedback(input: MessageFeedbackInput, options?: RequestOptions): Promise<MessageResult> {
    return this.core.send(OPS.setMessageFeedback, input, options);
  }

  // ---- events ----

  /** Sends a custom event into a conversation. */
  async createEvent(input: CreateEventInput, options?: RequestOptions): Promise<EventResult> {
    return this.core.send(OPS.createEvent, input, options);
  }

  /** An event of a conversation the caller may read. */
  async getEvent(input: IdInput, options?: RequestOptions): Promise<EventResult> {
    return this.core.send(OPS.getEvent, input, options);
  }

  // ---- participants ----

  /** Participants of a conversation, in the order they joined. */
  listParticipants(
    input: ConversationPageInput,
    options?: RequestOptions,
  ): PagePromise<ListParticipantsResult, ChatUser> {
    return this.core.list(OPS.listParticipants, input, options, 'participants');
  }

  /** Adds a user of the bot to a conversation. */
  async addParticipant(input: AddParticipantInput, options?: RequestOptions): Promise<ParticipantResult> {
    return this.core.send(OPS.addParticipant, input, options);
  }

  /** One participant of a conversation. */
  async getParticipant(input: ParticipantInput, options?: RequestOptions): Promise<ParticipantResult> {
    return this.core.send(OPS.getParticipant, input, options);
  }

  /** Removes a participant: oneself, or anyone for the conversation's creator and the bot. */
  async removeParticipant(input: ParticipantInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.removeParticipant, input, options);
  }

  // ---- files ----

  /**
   * Starts a chat file upload (when the bot's webchat configuration has `allowFileUpload`): PUT the bytes to
   * `file.uploadUrl`, then send a `file` or `image` message with `file.url`. `uploadFile` does both.
   */
  async createFile(input: CreateChatFileInput, options?: RequestOptions): Promise<ChatFileResult> {
    return this.core.send(OPS.createFile, input, options);
  }

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
    const { http } = this.core;
    const url = this.core.url(OPS.listen, { id: conversationId });
    const open = (lastEventId: string | undefined, signal: AbortSignal) =>
      http.send<Response>(
        url,
        'GET',
        () => ({
          method: 'GET',
          headers: http.headers({}, { accept: 'text/event-stream', 'last-event-id': lastEventId }),
        }),
        { signal, retry: { attempts: 1 } },
        { raw: true },
      );
    const badFrame = (data: string) =>
      new ParleyError(`The live stream sent a frame that is not JSON: ${data.slice(0, 200)}`);
    yield* listenStream(open, options, badFrame);
  }
}
