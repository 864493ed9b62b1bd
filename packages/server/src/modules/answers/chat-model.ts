/**
 * A client for any service speaking the OpenAI chat completions protocol (OpenAI, Ollama, vLLM, LM Studio,
 * llama.cpp server, LiteLLM…): `POST {baseUrl}/chat/completions {model, messages, stream}` →
 * `{choices: [{message: {content}}]}`, or with `stream: true` a `text/event-stream` of
 * `data: {"choices":[{"delta":{"content":"…"}}]}` events ending with `data: [DONE]`.
 *
 * One attempt per call, bounded in time (the bot falls back to quoting passages rather than keep a user
 * waiting through retries). Failures are {@link ChatModelError}s with a stable code and a message that
 * names the service and what went wrong, never the API key.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Logger } from '../../logger.js';
import { ResponseTooLargeError, readTextCapped } from '../../outbound-body.js';

/** A message of a chat completion request. */
export interface ChatModelMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Options of one completion. */
export interface CompleteOptions {
  signal?: AbortSignal | undefined;
  /** Streams the answer: called with each piece of text in order (the request then asks for `stream: true`). */
  onDelta?: ((text: string) => void) | undefined;
  /** Where the call logs what it gets over (an unreadable error body, a stream that would not close). */
  log?: Logger | undefined;
}

/** A chat model: answers a conversation with text. */
export interface ChatModel {
  /** The model name, for debug details. */
  readonly model: string;
  /** The model's answer to `messages` (all of it, also when streamed). */
  complete(messages: ChatModelMessage[], options?: CompleteOptions): Promise<string>;
}

/** What a reply's debug details say of its model call (`debug.model`), with the error when it failed. */
export interface ModelCallDebug {
  name: string;
  latencyMs: number;
  streamed: boolean;
  error?: string;
}

/**
 * A failed model call of a reply that goes on without the model: an aborted request (the reply is no longer
 * wanted) throws its reason; else the failure is logged with what the reply does instead (`fallback`), and the
 * call's debug is answered with its error.
 */
export function modelCallFailed(
  error: unknown,
  call: Omit<ModelCallDebug, 'error'>,
  reply: { request: { signal?: AbortSignal | undefined }; log: Logger },
  fallback: string,
): ModelCallDebug {
  reply.request.signal?.throwIfAborted();
  reply.log.warn({ err: error, model: call.name }, `The chat model failed; ${fallback}`);
  return { ...call, error: error instanceof Error ? error.message : String(error) };
}

/** Why a chat model call failed. */
export type ChatModelErrorCode =
  | 'http_error'
  | 'timeout'
  | 'network_error'
  | 'bad_response'
  | 'aborted'
  | 'invalid_configuration';

/** A chat model failure with a stable code and the HTTP status if any. */
export class ChatModelError extends Error {
  readonly code: ChatModelErrorCode;
  readonly status: number | undefined;
  constructor(code: ChatModelErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ChatModelError';
    this.code = code;
    this.status = options.status;
  }
}

/** Settings of the OpenAI-compatible chat model client. */
export interface OpenAiChatModelOptions {
  /** Base URL, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  url: string;
  /** Model name sent with each request. */
  model: string;
  /** Sent as `Authorization: Bearer …` when given. */
  apiKey?: string | undefined;
  /** Time bound of one call, the whole streamed answer included. Default 60 s. */
  timeoutMs?: number | undefined;
  /** Sampling temperature sent with each request. Default 0.2 (answers stay close to the passages). */
  temperature?: number | undefined;
}

/** Longest part of an error answer quoted in an error message. */
const MAX_ERROR_BODY = 300;
/** Largest answer read from the chat model, whole or streamed (an answer is a few kilobytes). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** The JSON body of a whole answer, read within MAX_ANSWER_BYTES (undefined when it is not JSON). */
async function readJsonCapped(response: Response, where: string): Promise<unknown> {
  let text: string;
  try {
    text = await readTextCapped(response, MAX_ANSWER_BYTES);
  } catch (error) {
    if (error instanceof ResponseTooLargeError)
      throw new ChatModelError('bad_response', `chat model ${where} answered too much: ${error.message}`);
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The `/chat/completions` URL under a base URL; throws `invalid_configuration` unless it is http(s). */
function chatEndpoint(url: string): URL {
  try {
    const endpoint = new URL(`${url.replace(/\/+$/, '')}/chat/completions`);
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') throw new Error('protocol');
    return endpoint;
  } catch {
    throw new ChatModelError('invalid_configuration', `the chat model URL "${url}" is not an http(s) URL`);
  }
}

/** The ChatModelError a call that threw ends with: its own, a timeout, a cancellation, or a network error. */
function callFailure(
  error: unknown,
  call: { where: string; timeoutMs: number; timeout: AbortSignal; signal: AbortSignal | undefined },
): ChatModelError {
  const { where, timeoutMs } = call;
  if (error instanceof ChatModelError) return error;
  if (call.timeout.aborted)
    return new ChatModelError('timeout', `chat model ${where} did not answer within ${timeoutMs} ms`, {
      cause: error,
    });
  if (call.signal?.aborted)
    return new ChatModelError('aborted', 'the chat model call was cancelled', { cause: error });
  const reason =
    error instanceof Error
      ? error.cause instanceof Error
        ? error.cause.message
        : error.message
      : String(error);
  return new ChatModelError('network_error', `chat model ${where} could not be reached: ${reason}`, {
    cause: error,
  });
}

/** The answer of a response: an http_error unless it is OK, else the streamed or whole text. */
async function readAnswer(response: Response, where: string, callOptions: CompleteOptions): Promise<string> {
  const stream = callOptions.onDelta !== undefined;
  if (!response.ok) {
    const body = (await errorBody(response, callOptions.log)).slice(0, MAX_ERROR_BODY);
    throw new ChatModelError(
      'http_error',
      `chat model ${where} answered ${response.status}${body ? `: ${serviceMessage(body)}` : ''}`,
      { status: response.status },
    );
  }
  const type = response.headers.get('content-type') ?? '';
  if (stream && type.includes('text/event-stream')) {
    return await readStream(response, where, callOptions.onDelta as (text: string) => void, callOptions.log);
  }
  // A service that answers a streaming request all at once is read as such.
  const text = contentOf(await readJsonCapped(response, where), where);
  if (stream && text) callOptions.onDelta?.(text);
  return text;
}

/**
 * A chat model reached over HTTP with the OpenAI chat completions protocol.
 * @example
 * const model = openAiChatModel({ url: 'http://127.0.0.1:11434/v1', model: 'llama3.2' });
 * const text = await model.complete([{ role: 'user', content: 'Hello' }], { onDelta: (t) => process.stdout.write(t) });
 */
export function openAiChatModel(options: OpenAiChatModelOptions): ChatModel {
  if (!options.model.trim())
    throw new ChatModelError('invalid_configuration', 'the chat model name is required');
  const endpoint = chatEndpoint(options.url);
  const where = `${endpoint.origin}${endpoint.pathname}`;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
  };

  return {
    model: options.model,
    async complete(messages, callOptions = {}): Promise<string> {
      const stream = callOptions.onDelta !== undefined;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = callOptions.signal ? AbortSignal.any([callOptions.signal, timeout]) : timeout;
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { ...headers, accept: stream ? 'text/event-stream' : 'application/json' },
          body: JSON.stringify({
            model: options.model,
            messages,
            temperature: options.temperature ?? 0.2,
            ...(stream ? { stream: true } : {}),
          }),
          signal,
        });
        return await readAnswer(response, where, callOptions);
      } catch (error) {
        throw callFailure(error, { where, timeoutMs, timeout, signal: callOptions.signal });
      }
    },
  };
}

/** The text of an error answer (quoted in the error); empty when it cannot be read. */
async function errorBody(response: Response, log: Logger | undefined): Promise<string> {
  try {
    return await readTextCapped(response, 64 * 1024);
  } catch (error) {
    log?.debug(
      { err: error, status: response.status },
      'The error answer of the chat model could not be read',
    );
    return '';
  }
}

/** The `error.message` of an OpenAI-style error body, else the body itself (when it is not JSON, or has none). */
function serviceMessage(body: string): string {
  let parsed: { error?: { message?: unknown } | string } | null;
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return body.trim();
  }
  const message = typeof parsed?.error === 'string' ? parsed.error : parsed?.error?.message;
  return typeof message === 'string' && message ? message : body.trim();
}

function contentOf(answer: unknown, where: string): string {
  const choice = (answer as { choices?: Array<{ message?: { content?: unknown } }> } | undefined)
    ?.choices?.[0];
  const content = choice?.message?.content;
  if (typeof content !== 'string' || content.trim() === '')
    throw new ChatModelError('bad_response', `chat model ${where} answered without message content`);
  return content;
}

/** Reads an OpenAI SSE stream, calling `onDelta` with each piece of content; answers the whole text. */
async function readStream(
  response: Response,
  where: string,
  onDelta: (text: string) => void,
  log: Logger | undefined,
): Promise<string> {
  if (!response.body)
    throw new ChatModelError('bad_response', `chat model ${where} answered an empty stream`);
  let text = '';
  let done = false;
  let failure: ChatModelError | undefined;
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      if (done || failure) return;
      if (event.data.trim() === '[DONE]') {
        done = true;
        return;
      }
      let chunk: {
        choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }>;
        error?: { message?: unknown };
      };
      try {
        chunk = JSON.parse(event.data) as typeof chunk;
      } catch {
        failure = new ChatModelError(
          'bad_response',
          `chat model ${where} streamed an event that is not JSON`,
        );
        return;
      }
      if (chunk.error) {
        const message = typeof chunk.error.message === 'string' ? chunk.error.message : 'unknown error';
        failure = new ChatModelError('http_error', `chat model ${where} failed while streaming: ${message}`);
        return;
      }
      const piece = chunk.choices?.[0]?.delta?.content;
      if (typeof piece === 'string' && piece) {
        text += piece;
        onDelta(piece);
      }
    },
  });
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  let size = 0;
  try {
    while (!done && !failure) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      size += value.byteLength;
      if (size > MAX_ANSWER_BYTES) {
        throw new ChatModelError(
          'bad_response',
          `chat model ${where} streamed more than the ${MAX_ANSWER_BYTES.toLocaleString('en-US')} bytes accepted`,
        );
      }
      parser.feed(decoder.decode(value, { stream: true }));
    }
    parser.feed(decoder.decode());
  } finally {
    await reader.cancel().catch((error: unknown) => {
      log?.debug({ err: error }, `Closing the stream of chat model ${where} failed`);
    });
  }
  if (failure) throw failure;
  if (!text.trim()) throw new ChatModelError('bad_response', `chat model ${where} streamed no content`);
  return text;
}

/**
 * The configured chat model, or undefined when none is configured.
 * @example chatModelFromConfig(config.chatModel)
 */
export function chatModelFromConfig(settings: {
  url: string | undefined;
  model: string | undefined;
  apiKey: string | undefined;
  timeoutMs: number;
}): ChatModel | undefined {
  if (!settings.url || !settings.model) return undefined;
  return openAiChatModel({
    url: settings.url,
    model: settings.model,
    apiKey: settings.apiKey,
    timeoutMs: settings.timeoutMs,
  });
}
