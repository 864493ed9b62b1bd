import { ChatApiClient, ConnectionError, errorFromResponse } from '@parley/client/chat';
import type { ChatConversation, ChatMessage, ChatUser, MessagePayload } from '@parley/protocol';
import { followStream, type ListenHandlers } from './live-stream.js';

/** Writable user fields (spec: name, pictureUrl, data, userKey). */
export interface UserFields {
  name?: string | null;
  pictureUrl?: string | null;
  data?: Record<string, unknown> | null;
  userKey?: string | null;
}

/** Options of the webchat's Chat API client. */
export interface ChatClientOptions {
  /** Origin of the Parley server, e.g. `https://chat.example.com`. */
  apiUrl: string;
  botId: string;
  /** The webchat adminKey, sent as `x-admin-key` (read at each request: config() may change it). */
  adminKey: () => string | undefined;
  fetch?: typeof fetch;
}

/** The failure of an upload PUT as the client's errors say it: the class of the wire error, with its status. */
function uploadFailure(status: number, text: string): Error {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // not a wire error body
  }
  return errorFromResponse({ status, body, text });
}

/** PUTs a file with XMLHttpRequest, reporting the bytes sent (fetch has no upload progress). */
function putWithProgress(
  url: string,
  file: Blob,
  contentType: string,
  onProgress: ((loaded: number, total: number) => void) | undefined,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('content-type', contentType);
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => (xhr.status < 300 ? resolve() : reject(uploadFailure(xhr.status, xhr.responseText)));
    xhr.onerror = () => reject(new ConnectionError(`PUT ${url} failed: network error`));
    xhr.send(file);
  });
}

/**
 * The webchat's client of the Chat API (`/v1/chat/{botId}`): the calls, live stream and errors of
 * `@parley/client`'s `ChatApiClient`, with the chat user's key of the moment and the configuration's adminKey,
 * in the shapes the webchat uses. A file's bytes go up with XMLHttpRequest, for the upload progress.
 */
export class ChatClient {
  private userKey: string | undefined;
  /** The Chat API client of the last call, with the adminKey it sends. */
  private current: { api: ChatApiClient; adminKey: string | undefined } | undefined;

  constructor(private readonly options: ChatClientOptions) {}

  /** Sets (or, undefined, forgets) the chat user's key sent with every request. */
  setUserKey(key: string | undefined): void {
    this.userKey = key;
  }

  /** The Chat API client with the credentials of the moment (made again when they changed). */
  private api(): ChatApiClient {
    const adminKey = this.options.adminKey();
    const { current, userKey } = this;
    if (current && current.api.userKey === userKey && current.adminKey === adminKey) return current.api;
    const { apiUrl, botId, fetch } = this.options;
    const api = new ChatApiClient({ apiUrl, botId, userKey, adminKey, fetch });
    this.current = { api, adminKey };
    return api;
  }

  createUser(fields: UserFields): Promise<{ user: ChatUser; key: string }> {
    return this.api().createUser(fields);
  }

  async getMe(): Promise<ChatUser> {
    return (await this.api().getUser()).user;
  }

  async updateMe(fields: UserFields): Promise<ChatUser> {
    return (await this.api().updateUser(fields)).user;
  }

  async createConversation(): Promise<ChatConversation> {
    return (await this.api().createConversation({})).conversation;
  }

  async getConversation(id: string): Promise<ChatConversation> {
    return (await this.api().getConversation({ id })).conversation;
  }

  /** The latest page of a conversation's messages (newest first), or the page after `nextToken`. */
  async listMessages(
    conversationId: string,
    nextToken?: string,
  ): Promise<{ messages: ChatMessage[]; meta: { nextToken?: string | undefined } }> {
    return await this.api().listMessages({ conversationId, nextToken });
  }

  async createMessage(
    conversationId: string,
    payload: MessagePayload,
    metadata?: Record<string, unknown>,
  ): Promise<ChatMessage> {
    const input = metadata ? { conversationId, payload, metadata } : { conversationId, payload };
    return (await this.api().createMessage(input)).message;
  }

  createEvent(conversationId: string, payload: Record<string, unknown>): Promise<unknown> {
    return this.api().createEvent({ conversationId, payload });
  }

  feedback(messageId: string, value: 'positive' | 'negative', comment?: string): Promise<unknown> {
    return this.api().setMessageFeedback({ id: messageId, value, ...(comment ? { comment } : {}) });
  }

  /**
   * Uploads a file: createFile, then the bytes to its uploadUrl (XMLHttpRequest, for upload progress; the
   * `fetch` option or fetch where there is none); answers its permanent URL.
   */
  async uploadFile(
    conversationId: string,
    file: Blob & { name?: string },
    onProgress?: (loaded: number, total: number) => void,
  ): Promise<string> {
    const contentType = file.type || 'application/octet-stream';
    const input = { name: file.name || 'file', size: file.size, contentType, conversationId };
    const { file: created } = await this.api().createFile(input);
    const { fetch } = this.options;
    if (typeof XMLHttpRequest !== 'undefined' && !fetch) {
      await putWithProgress(created.uploadUrl, file, contentType, onProgress);
    } else {
      const init = { method: 'PUT', headers: { 'content-type': contentType }, body: file };
      const res = await (fetch ?? globalThis.fetch)(created.uploadUrl, init).catch((error: unknown) => {
        throw new ConnectionError(`PUT ${created.uploadUrl} failed: ${(error as Error).message}`);
      });
      if (!res.ok) throw uploadFailure(res.status, await res.text());
    }
    onProgress?.(file.size, file.size);
    return created.url;
  }

  /**
   * Listens to a conversation until `signal` aborts (see `followStream`): resolves once the first
   * connection is open, rejects if it fails for good before that.
   */
  listen(conversationId: string, handlers: ListenHandlers, signal: AbortSignal): Promise<void> {
    const api = this.api();
    return followStream((options) => api.listen(conversationId, options), handlers, signal);
  }
}

/** The webchat's Chat API client of one bot. */
export function chatClient(options: ChatClientOptions): ChatClient {
  return new ChatClient(options);
}
