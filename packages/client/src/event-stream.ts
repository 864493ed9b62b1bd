import { createParser } from 'eventsource-parser';
import type { ChatStreamSignal } from './chat-types.js';
import { AbortError, isApiError, ParleyError } from './errors.js';
import { sleep } from './retry.js';

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
 * Opens one connection of the stream, sending `lastEventId` as `Last-Event-ID` when set: resolves with the
 * response once a 2xx answer's headers are in, rejects with the error of the opening otherwise.
 */
export type OpenStream = (lastEventId: string | undefined, signal: AbortSignal) => Promise<Response>;

/** What outlives one connection: where to resume, and how long to wait before the next try. */
interface StreamState {
  cursor: string | undefined;
  /** The server's `retry:` field, when it sent one. */
  serverDelay: number | undefined;
  /** Tries in a row that brought no signal. */
  failures: number;
}

/** The wait before a reconnection: the option, else the server's, else 1 s; doubled per failure, capped, jittered. */
function delayOf(state: StreamState, options: ListenOptions): number {
  const base = options.reconnectDelayMs ?? state.serverDelay ?? 1000;
  return Math.min(30_000, base * 2 ** Math.max(0, state.failures - 1)) * (0.5 + Math.random() / 2);
}

/** Waits `ms`; false when `signal` aborted first. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await sleep(ms, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * The signals of one open connection, in order, each with its frame's `eventId`. Ends when the connection
 * ends, breaks or goes silent for `idleTimeoutMs`; throws on a frame that is not JSON. `release` runs once
 * the connection is done with.
 */
async function* signalsOf(
  res: Response,
  connection: AbortController,
  state: StreamState,
  options: ListenOptions,
  release: () => void,
): AsyncGenerator<ChatStreamSignal, void> {
  const queue: ChatStreamSignal[] = [];
  let bad: ParleyError | undefined;
  const parser = createParser({
    onEvent: (event) => {
      if (event.id !== undefined) state.cursor = event.id;
      try {
        queue.push({ ...(JSON.parse(event.data) as ChatStreamSignal), eventId: event.id });
      } catch {
        bad ??= new ParleyError(`The live stream sent a frame that is not JSON: ${event.data.slice(0, 200)}`);
      }
    },
    onRetry: (ms) => {
      state.serverDelay = ms;
    },
  });
  let idle: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (idle !== undefined) clearTimeout(idle);
    const silent = () => connection.abort(new Error('the live stream went silent'));
    idle = setTimeout(silent, options.idleTimeoutMs ?? 75_000);
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
      if (queue.length > 0) state.failures = 0;
      while (queue.length > 0) {
        const next = queue.shift() as ChatStreamSignal;
        if (next.type !== 'ping' || options.includePings) yield next;
      }
    }
  } catch (error) {
    if (error === bad) throw error;
    // A broken or silent connection: the caller reconnects (an abort of its signal ends the loop there).
  } finally {
    if (idle !== undefined) clearTimeout(idle);
    release();
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * A Server-Sent Events stream of chat signals that survives its connections: when one drops, ends or goes
 * silent, it reconnects with `Last-Event-ID` (the id of the last frame received), so no signal is lost or
 * repeated. Errors on opening are retried when the server may recover (no answer, 429, 5xx; `Retry-After`
 * honoured) and thrown otherwise; `options.signal` ends the loop quietly.
 */
export async function* listenStream(
  open: OpenStream,
  options: ListenOptions = {},
): AsyncGenerator<ChatStreamSignal, void> {
  const { signal, reconnect = true } = options;
  const state: StreamState = { cursor: options.lastEventId, serverDelay: undefined, failures: 0 };
  while (!signal?.aborted) {
    const connection = new AbortController();
    const stop = () => connection.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    let res: Response;
    try {
      res = await open(state.cursor, connection.signal);
    } catch (error) {
      signal?.removeEventListener('abort', stop);
      if (error instanceof AbortError || signal?.aborted) return;
      const retryable = !isApiError(error) || error.status === 429 || error.status >= 500;
      if (!reconnect || !retryable) throw error;
      state.failures += 1;
      const asked = isApiError(error) ? error.retryAfterMs : undefined;
      if (!(await pause(asked ?? delayOf(state, options), signal))) return;
      continue;
    }
    yield* signalsOf(res, connection, state, options, () => {
      signal?.removeEventListener('abort', stop);
      connection.abort();
    });
    if (signal?.aborted || !reconnect) return;
    state.failures += 1;
    if (!(await pause(delayOf(state, options), signal))) return;
  }
}
