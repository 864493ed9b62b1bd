import type {
  ChatConversation,
  ChatFileResponse,
  ChatMessage,
  ChatUser,
  MessagePayload,
} from '@parley/protocol';
import { CHAT_OPERATIONS as ops } from '@parley/protocol/operations';
import { type ChatClientOptions, ChatHttp, failure } from './chat-http.js';
import { followStream, type ListenHandlers } from './live-stream.js';

/** Writable user fields (spec: name, pictureUrl, data, userKey). */
export interface UserFields {
  name?: string | null;
  pictureUrl?: string | null;
  data?: Record<string, unknown> | null;
  userKey?: string | null;
}

/**
 * The webchat's client of the Chat API (`/v1/chat/{botId}`): REST with `x-user-key`, and the live
 * stream read with fetch (EventSource cannot send headers) by `@parley/client`'s reader.
 */
export class ChatClient {
  private readonly http: ChatHttp;

  constructor(options: ChatClientOptions) {
    this.http = new ChatHttp(options);
  }

  /** Sets (or, undefined, forgets) the chat user's key sent with every request. */
  setUserKey(key: string | undefined): void {
    this.http.setUserKey(key);
  }

  createUser(fields: UserFields): Promise<{ user: ChatUser; key: string }> {
    return this.http.request(ops.createUser, 'Creating the chat user', { body: fields });
  }

  async getMe(): Promise<ChatUser> {
    return (await this.http.request<{ user: ChatUser }>(ops.getUser, 'Reading the user')).user;
  }

  async updateMe(fields: UserFields): Promise<ChatUser> {
    return (
      await this.http.request<{ user: ChatUser }>(ops.updateUser, 'Updating the user', { body: fields })
    ).user;
  }

  async createConversation(): Promise<ChatConversation> {
    const what = 'Starting a conversation';
    return (
      await this.http.request<{ conversation: ChatConversation }>(ops.createConversation, what, { body: {} })
    ).conversation;
  }

  async getConversation(id: string): Promise<ChatConversation> {
    const input = { params: { id } };
    return (
      await this.http.request<{ conversation: ChatConversation }>(
        ops.getConversation,
        'Reading the conversation',
        input,
      )
    ).conversation;
  }

  /** The latest page of a conversation's messages (newest first), or the page after `nextToken`. */
  listMessages(
    conversationId: string,
    nextToken?: string,
  ): Promise<{ messages: ChatMessage[]; meta: { nextToken?: string } }> {
    return this.http.request(ops.listMessages, 'Loading messages', {
      params: { id: conversationId },
      query: { nextToken },
    });
  }

  async createMessage(
    conversationId: string,
    payload: MessagePayload,
    metadata?: Record<string, unknown>,
  ): Promise<ChatMessage> {
    const body = metadata ? { conversationId, payload, metadata } : { conversationId, payload };
    return (
      await this.http.request<{ message: ChatMessage }>(ops.createMessage, 'Sending the message', { body })
    ).message;
  }

  createEvent(conversationId: string, payload: Record<string, unknown>): Promise<unknown> {
    return this.http.request(ops.createEvent, 'Sending the event', { body: { conversationId, payload } });
  }

  feedback(messageId: string, value: 'positive' | 'negative', comment?: string): Promise<unknown> {
    const body = { value, ...(comment ? { comment } : {}) };
    return this.http.request(ops.setMessageFeedback, 'Sending feedback', { params: { id: messageId }, body });
  }

  /**
   * Uploads a file: POST /files, then the bytes to its uploadUrl (XMLHttpRequest, for upload
   * progress; fetch where there is none); answers its permanent URL.
   */
  async uploadFile(
    conversationId: string,
    file: Blob & { name?: string },
    onProgress?: (loaded: number, total: number) => void,
  ): Promise<string> {
    const contentType = file.type || 'application/octet-stream';
    const body = { name: file.name || 'file', size: file.size, contentType, conversationId };
    const { file: created } = await this.http.request<ChatFileResponse>(
      ops.createFile,
      'Uploading the file',
      {
        body,
      },
    );
    await this.http.upload(created.uploadUrl, file, contentType, onProgress);
    return created.url;
  }

  /**
   * Listens to a conversation until `signal` aborts (see `followStream`): resolves once the first
   * connection is open, rejects if it fails for good before that.
   */
  listen(conversationId: string, handlers: ListenHandlers, signal: AbortSignal): Promise<void> {
    const { http } = this;
    const url = http.url(ops.listen, { id: conversationId });
    return followStream(
      async (lastEventId, connection) => {
        const res = await http.fetch(url, {
          headers: http.headers({
            accept: 'text/event-stream',
            ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
          }),
          signal: connection,
          cache: 'no-store',
        });
        if (!res.ok) throw await failure(res, 'Listening to the conversation');
        // An answer without a body is retried like a network failure.
        if (!res.body) throw new Error('Listening to the conversation failed: the answer has no body');
        return res;
      },
      handlers,
      signal,
    );
  }
}

/** The webchat's Chat API client of one bot. */
export function chatClient(options: ChatClientOptions): ChatClient {
  return new ChatClient(options);
}
