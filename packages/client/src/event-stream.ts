// The live stream of a conversation read over Server-Sent Events, reconnecting with Last-Event-ID. It imports
// nothing of the client but types, so the webchat bundles it alone (`@parley/client/event-stream`).
import { createParser } from 'eventsource-parser';
import type { ChatStreamSignal } from './chat-types.js';

/** A frame of a live stream: its `type`, and the id of its SSE frame (`eventId`) to resume after. */
export interface StreamSignal {
  type: string;
  eventId: string | undefined;
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
  /**
   * Reconnect when nothing (not even a ping) came for this long. Default 75000 (pings come every 30 s);
   * `Infinity` turns it off.
   */
  idleTimeoutMs?: number | undefined;
  /** Yield `ping` signals too (default false). */
  includePings?: boolean | undefined;
  /**
   * Called each time a connection opens, before its signals; `reconnected` is false the first time. From
   * then on no signal is missed, so it is the moment to load what came before (again, after a reconnection).
   */
  onOpen?: ((reconnected: boolean) => void) | undefined;
  /**
   * Called each time a try fails before the stream waits and reconnects: the opening failed in a way worth
   * retrying, or the connection broke, ended or went silent (`error` is undefined when the server ended
   * it). `failures` counts the tries in a row that brought no signal.
   */
  onRetry?: ((error: unknown, failures: number) => void) | undefined;
  /**
   * Called with the data of a frame that is not JSON, which is then skipped. Unset: such a frame ends the
   * stream with a `ParleyError`.
   */
  onBadFrame?: ((data: string) => void) | undefined;
}

/**
 * Opens one connection of the stream, sending `lastEventId` as `Last-Event-ID` when set: resolves with the
 * response once a 2xx answer's headers are in, rejects with the error of the opening otherwise (an error the
 * server answered carries its HTTP `status`, and `retryAfterMs` when it asked for a wait).
 */
export type OpenStream = (lastEventId: string | undefined, signal: AbortSignal) => Promise<Response>;

/** What to do with a frame whose data is not JSON: the error that ends the stream, or undefined to skip it. */
export type BadFrame = (data: string) => Error | undefined;

/** What outlives one connection: where to resume, and how long to wait before the next try. */
interface StreamState {
  cursor: string | undefined;
  /** The server's `retry:` field, when it sent one. */
  serverDelay: number | undefined;
  /** Tries in a row that brought no signal. */
  failures: number;
  /** What broke the last connection, if anything did. */
  broken: unknown;
}

/** The HTTP status of an error the server answered (its numeric `status`), else undefined. */
function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status > 0 ? status : undefined;
}

/** Whether a failed opening may succeed later: no answer (network, timeout), 429 or 5xx. */
function retryable(error: unknown): boolean {
  const status = statusOf(error);
  return status === undefined || status === 429 || status >= 500;
}

/** The wait the server asked for with the error (`Retry-After`), if any. */
function askedDelay(error: unknown): number | undefined {
  const asked = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof asked === 'number' ? asked : undefined;
}

/** The wait before a reconnection: the option, else the server's, else 1 s; doubled per failure, capped, jittered. */
function delayOf(state: StreamState, options: ListenOptions): number {
  const base = options.reconnectDelayMs ?? state.serverDelay ?? 1000;
  return Math.min(30_000, base * 2 ** Math.max(0, state.failures - 1)) * (0.5 + Math.random() / 2);
}

/** Waits `ms`; false when `signal` aborted first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A timer that aborts `connection` when the stream stays silent for `ms` (never for `Infinity`). */
function idleTimer(connection: AbortController, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    arm() {
      if (timer !== undefined) clearTimeout(timer);
      if (ms === Number.POSITIVE_INFINITY) return;
      timer = setTimeout(() => connection.abort(new Error('the live stream went silent')), ms);
    },
    stop() {
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

/**
 * The signals of one open connection, in order, each with its frame's `eventId`. Ends when the connection
 * ends, breaks (noted in `state.broken`) or goes silent for `idleTimeoutMs`; a frame that is not JSON ends
 * it with `badFrame`'s error, or is skipped. `release` runs once the connection is done with.
 */
async function* signalsOf<S extends StreamSignal>(
  res: Response,
  connection: AbortController,
  state: StreamState,
  options: ListenOptions & { badFrame: BadFrame },
  release: () => void,
): AsyncGenerator<S, void> {
  const queue: S[] = [];
  let bad: Error | undefined;
  const parser = createParser({
    onEvent: (event) => {
      if (event.id !== undefined) state.cursor = event.id;
      try {
        queue.push({ ...(JSON.parse(event.data) as S), eventId: event.id });
      } catch {
        bad ??= options.badFrame(event.data);
      }
    },
    onRetry: (ms) => {
      state.serverDelay = ms;
    },
  });
  const idle = idleTimer(connection, options.idleTimeoutMs ?? 75_000);
  const reader = (res.body ?? new ReadableStream<Uint8Array>())
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .getReader();
  try {
    idle.arm();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      idle.arm();
      parser.feed(value);
      if (bad) throw bad;
      if (queue.length > 0) state.failures = 0;
      while (queue.length > 0) {
        const next = queue.shift() as S;
        if (next.type !== 'ping' || options.includePings) yield next;
      }
    }
  } catch (error) {
    if (error === bad) throw error;
    // A broken or silent connection: the caller reconnects (an abort of its signal ends the loop there).
    state.broken = error;
  } finally {
    idle.stop();
    release();
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * A Server-Sent Events stream of chat signals that survives its connections: when one drops, ends or goes
 * silent, it reconnects with `Last-Event-ID` (the id of the last frame received), so no signal is lost or
 * repeated. Errors on opening are retried when the server may recover (no answer, 429, 5xx; `Retry-After`
 * honoured) and thrown otherwise; `options.signal` ends the loop quietly. `badFrame` decides what a frame
 * that is not JSON does.
 */
export async function* listenStream<S extends StreamSignal = ChatStreamSignal>(
  open: OpenStream,
  options: ListenOptions,
  badFrame: BadFrame,
): AsyncGenerator<S, void> {
  const { signal, reconnect = true } = options;
  const state: StreamState = {
    cursor: options.lastEventId,
    serverDelay: undefined,
    failures: 0,
    broken: undefined,
  };
  let opened = false;
  while (!signal?.aborted) {
    const connection = new AbortController();
    const stop = () => connection.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    let res: Response;
    try {
      res = await open(state.cursor, connection.signal);
    } catch (error) {
      signal?.removeEventListener('abort', stop);
      if (signal?.aborted) return;
      if (!reconnect || !retryable(error)) throw error;
      state.failures += 1;
      options.onRetry?.(error, state.failures);
      if (!(await pause(askedDelay(error) ?? delayOf(state, options), signal))) return;
      continue;
    }
    options.onOpen?.(opened);
    opened = true;
    state.broken = undefined;
    yield* signalsOf<S>(res, connection, state, { ...options, badFrame }, () => {
      signal?.removeEventListener('abort', stop);
      connection.abort();
    });
    if (signal?.aborted || !reconnect) return;
    state.failures += 1;
    options.onRetry?.(state.broken, state.failures);
    if (!(await pause(delayOf(state, options), signal))) return;
  }
}
