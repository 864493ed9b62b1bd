import { listenStream, type OpenStream } from '@parley/client/event-stream';
import type {
  ChatConversation,
  ChatFileResponse,
  ChatMessage,
  ChatSignal,
  ChatUser,
  MessagePayload,
} from '@parley/protocol';
import { WebchatError } from './config.js';

/** Writable user fields (spec: name, pictureUrl, data, userKey). */
export interface UserFields {
  name?: string | null;
  pictureUrl?: string | null;
  data?: Record<string, unknown> | null;
  userKey?: string | null;
}

/** An HTTP failure of the Chat API, with its status and the wire error's type. */
export class ChatApiError extends WebchatError {
  constructor(
    message: string,
    readonly status: number,
    readonly type?: string,
  ) {
    super(message);
    this.name = 'ChatApiError';
  }
}

/** Options of the Chat API client. */
export interface ChatClientOptions {
  /** Origin of the Parley server, e.g. `https://chat.example.com`. */
  apiUrl: string;
  botId: string;
  /** The webchat adminKey, sent as `x-admin-key` (read at each request: config() may change it). */
  adminKey: () => string | undefined;
  fetch?: typeof fetch;
}

/** How the live stream reports. */
export interface ListenHandlers {
  onSignal(signal: ChatSignal): void;
  /** The stream is connected; `again` is true after a reconnection. */
  onOpen?(again: boolean): void;
  /** Reconnecting keeps failing (reported once per run of failures), or the server refused for good. */
  onError(error: WebchatError, fatal: boolean): void;
}

/**
 * The webchat's client of the Chat API (`/v1/chat/{botId}`): REST with `x-user-key`, and the live
 * stream read with fetch + eventsource-parser (EventSource cannot send headers).
 */
export function chatClient(options: ChatClientOptions) {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const root = `${options.apiUrl.replace(/\/$/, '')}/v1/chat/${encodeURIComponent(options.botId)}`;
  let userKey: string | undefined;

  function headers(extra: Record<string, string> = {}): Record<string, string> {
    const out: Record<string, string> = { ...extra };
    if (userKey) out['x-user-key'] = userKey;
    const adminKey = options.adminKey();
    if (adminKey) out['x-admin-key'] = adminKey;
    return out;
  }

  async function failure(res: Response, what: string): Promise<ChatApiError> {
    let message = `${what} failed with HTTP ${res.status}`;
    let type: string | undefined;
    try {
      const body = (await res.json()) as { message?: unknown; type?: unknown };
      if (typeof body.message === 'string') message = `${what} failed: ${body.message}`;
      if (typeof body.type === 'string') type = body.type;
    } catch {
      // not a wire error body
    }
    return new ChatApiError(message, res.status, type);
  }

  async function request<T>(method: string, path: string, what: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await doFetch(`${root}${path}`, {
        method,
        headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new ChatApiError(`${what} failed: ${(error as Error).message || 'network error'}`, 0);
    }
    if (!res.ok) throw await failure(res, what);
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    setUserKey(key: string | undefined) {
      userKey = key;
    },
    createUser: (fields: UserFields) =>
      request<{ user: ChatUser; key: string }>('POST', '/users', 'Creating the chat user', fields),
    getMe: async () => (await request<{ user: ChatUser }>('GET', '/users/me', 'Reading the user')).user,
    updateMe: async (fields: UserFields) =>
      (await request<{ user: ChatUser }>('PUT', '/users/me', 'Updating the user', fields)).user,
    createConversation: async () =>
      (
        await request<{ conversation: ChatConversation }>(
          'POST',
          '/conversations',
          'Starting a conversation',
          {},
        )
      ).conversation,
    getConversation: async (id: string) =>
      (
        await request<{ conversation: ChatConversation }>(
          'GET',
          `/conversations/${encodeURIComponent(id)}`,
          'Reading the conversation',
        )
      ).conversation,
    listMessages: (conversationId: string, nextToken?: string) =>
      request<{ messages: ChatMessage[]; meta: { nextToken?: string } }>(
        'GET',
        `/conversations/${encodeURIComponent(conversationId)}/messages${nextToken ? `?nextToken=${encodeURIComponent(nextToken)}` : ''}`,
        'Loading messages',
      ),
    createMessage: async (conversationId: string, payload: MessagePayload) =>
      (
        await request<{ message: ChatMessage }>('POST', '/messages', 'Sending the message', {
          conversationId,
          payload,
        })
      ).message,
    createEvent: (conversationId: string, payload: Record<string, unknown>) =>
      request<unknown>('POST', '/events', 'Sending the event', { conversationId, payload }),
    feedback: (messageId: string, value: 'positive' | 'negative', comment?: string) =>
      request<unknown>('PUT', `/messages/${encodeURIComponent(messageId)}/feedback`, 'Sending feedback', {
        value,
        ...(comment ? { comment } : {}),
      }),
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
      const { file: created } = await request<ChatFileResponse>('POST', '/files', 'Uploading the file', {
        name: file.name || 'file',
        size: file.size,
        contentType,
        conversationId,
      });
      let res: Response;
      try {
        res =
          typeof XMLHttpRequest === 'undefined' || options.fetch
            ? await doFetch(created.uploadUrl, {
                method: 'PUT',
                headers: { 'content-type': contentType },
                body: file,
              })
            : await new Promise<Response>((resolve, reject) => {
                const xhr = new XMLHttpRequest();
                xhr.open('PUT', created.uploadUrl);
                xhr.setRequestHeader('content-type', contentType);
                xhr.upload.onprogress = (e) =>
                  onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
                xhr.onload = () => resolve(new Response(xhr.responseText || null, { status: xhr.status }));
                xhr.onerror = () => reject(new Error('network error'));
                xhr.send(file);
              });
      } catch (error) {
        throw new ChatApiError(`Uploading the file failed: ${(error as Error).message}`, 0);
      }
      if (!res.ok) throw await failure(res, 'Uploading the file');
      onProgress?.(file.size, file.size);
      return created.url;
    },

    /**
     * Listens to a conversation until `signal` aborts, through the client's live stream (`listenStream`:
     * reconnects with back-off as the server's `retry:` asks, resuming with `Last-Event-ID`); an answer of
     * 4xx but 429 ends it (fatal). Resolves once the first connection is open (from then on no signal is
     * missed), rejects if it fails for good, or three times, before that.
     */
    listen(conversationId: string, handlers: ListenHandlers, signal: AbortSignal): Promise<void> {
      const url = `${root}/conversations/${encodeURIComponent(conversationId)}/listen`;
      const open: OpenStream = async (lastEventId, connection) => {
        const res = await doFetch(url, {
          headers: headers({
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
      };
      return followStream(open, handlers, signal);
    },
  };
}

/** Runs a live stream in the background for `listen`: its first opening as a promise, the rest as handlers. */
function followStream(open: OpenStream, handlers: ListenHandlers, signal: AbortSignal): Promise<void> {
  let opened = false;
  let settle: { resolve(): void; reject(e: unknown): void } | undefined;
  const first = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const stream = listenStream(
    open,
    {
      signal,
      // The webchat reconnects only when a connection ends or breaks, never for silence.
      idleTimeoutMs: Number.POSITIVE_INFINITY,
      onOpen(reconnected) {
        handlers.onOpen?.(reconnected);
        opened = true;
        settle?.resolve();
      },
      onRetry(error, failures) {
        if (!opened && failures === 3) settle?.reject(error);
        if (failures === 10) {
          const reason = error instanceof Error ? error.message : 'the stream ended';
          handlers.onError(
            new WebchatError(`The live connection keeps failing (${reason}); still retrying`),
            false,
          );
        }
      },
    },
    // A frame that is not JSON is skipped.
    () => undefined,
  );
  const run = async () => {
    try {
      for await (const next of stream) handlers.onSignal(next);
    } catch (error) {
      // The server refused for good (401, 403, 404, …).
      const failure = error instanceof WebchatError ? error : new WebchatError(String(error));
      if (opened) handlers.onError(failure, true);
      else settle?.reject(error);
    }
  };
  void run().finally(() => settle?.resolve());
  return first;
}
/** The Chat API client. */
export type ChatClient = ReturnType<typeof chatClient>;
