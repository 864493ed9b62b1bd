import { fillPath, type Operation } from '@parley/protocol/operations';
import { WebchatError } from './config.js';

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

/** The error of a failed answer: the wire error's message and type when the body is one. */
export async function failure(res: Response, what: string): Promise<ChatApiError> {
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

/** PUTs a file with XMLHttpRequest, reporting the bytes sent (fetch has no upload progress). */
function putWithProgress(
  url: string,
  file: Blob,
  contentType: string,
  onProgress: ((loaded: number, total: number) => void) | undefined,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('content-type', contentType);
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => resolve(new Response(xhr.responseText || null, { status: xhr.status }));
    xhr.onerror = () => reject(new Error('network error'));
    xhr.send(file);
  });
}

/** What a request sends besides its operation: path parameters besides `botId`, the query and a JSON body. */
export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

/**
 * The HTTP side of the webchat's Chat API client: the operations of `@parley/protocol/operations` (the same
 * the server serves and `@parley/client` sends) on the bot's URL, the credentials sent with every request
 * (`x-user-key`, `x-admin-key`), JSON requests and their errors, and file uploads.
 */
export class ChatHttp {
  readonly fetch: typeof fetch;
  private userKey: string | undefined;

  constructor(private readonly options: ChatClientOptions) {
    // Called as plain functions: a browser's fetch refuses to run as a method of another object.
    const given = options.fetch;
    this.fetch = given
      ? (input: RequestInfo | URL, init?: RequestInit) => given(input, init)
      : (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init);
  }

  /** The URL of an operation of the bot's Chat API, its path parameters besides `botId` from `params`. */
  url(operation: Operation, params: Record<string, string> = {}): string {
    const path = fillPath(operation.path, { ...params, botId: this.options.botId });
    return `${this.options.apiUrl.replace(/\/$/, '')}${path}`;
  }

  /** Sets (or, undefined, forgets) the chat user's key. */
  setUserKey(key: string | undefined): void {
    this.userKey = key;
  }

  /** `extra` with the credentials of the moment. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    const out: Record<string, string> = { ...extra };
    if (this.userKey) out['x-user-key'] = this.userKey;
    const adminKey = this.options.adminKey();
    if (adminKey) out['x-admin-key'] = adminKey;
    return out;
  }

  /** Sends an operation with its input as a JSON request; `what` names it in errors. */
  async request<T>(operation: Operation, what: string, { params, query, body }: CallInput = {}): Promise<T> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(name, value);
    const queryString = search.toString();
    const url = this.url(operation, params) + (queryString ? `?${queryString}` : '');
    let res: Response;
    try {
      res = await this.fetch(url, {
        method: operation.method,
        headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
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

  /** PUTs a file's bytes to an upload URL (XMLHttpRequest, for progress; fetch where there is none). */
  async upload(
    url: string,
    file: Blob,
    contentType: string,
    onProgress?: (loaded: number, total: number) => void,
  ): Promise<void> {
    let res: Response;
    try {
      res =
        typeof XMLHttpRequest === 'undefined' || this.options.fetch
          ? await this.fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body: file })
          : await putWithProgress(url, file, contentType, onProgress);
    } catch (error) {
      throw new ChatApiError(`Uploading the file failed: ${(error as Error).message}`, 0);
    }
    if (!res.ok) throw await failure(res, 'Uploading the file');
    onProgress?.(file.size, file.size);
  }
}
