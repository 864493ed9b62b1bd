import type { ServerResponse } from 'node:http';
import { ApiError } from '../../errors/errors.js';
import type { SignalBus, SignalNote } from './bus.js';
import type { ChatCaller, ChatService } from './contract.js';

/** Bounds on the live streams of one process. */
export interface StreamLimits {
  /** Open streams one chat user may hold on one bot (bot key and adminKey callers count only per bot). */
  perUser: number;
  /** Open streams of one bot. */
  perBot: number;
  /** Bytes a stream may have waiting for its reader before it stops reading signals until the reader catches up. */
  bufferBytes: number;
  /** How long a stream may stay stopped that way before it is dropped (the reader resumes with Last-Event-ID). */
  stallMs: number;
  /** Bytes all stopped streams of the process may hold together; past it a stream that stops is dropped at once. */
  totalBufferBytes: number;
}

/** Defaults of StreamLimits. */
export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  perUser: 10,
  perBot: 2_000,
  bufferBytes: 256 * 1024,
  stallMs: 30_000,
  totalBufferBytes: 64 * 1024 * 1024,
};

/** A stream's place in the registry: how to end it, and what it holds back for a slow reader. */
interface OpenStream {
  botId: string;
  close: () => void;
  /** Bytes buffered while the stream waits for its reader (0 while it flows). */
  held: number;
}

/**
 * The open live streams of an app: admits new ones within the per-user and per-bot limits, keeps the
 * bytes held for slow readers within a process-wide budget, and ends them all when the app closes.
 */
export class StreamRegistry {
  private readonly streams = new Set<OpenStream>();
  private readonly counts = new Map<string, number>();
  private heldBytes = 0;

  constructor(readonly limits: StreamLimits = DEFAULT_STREAM_LIMITS) {}

  /** Open streams. */
  get size(): number {
    return this.streams.size;
  }

  /** Bytes held back for readers that do not keep up, over all streams. */
  get held(): number {
    return this.heldBytes;
  }

  /**
   * Takes a slot for a new stream of `caller`, or throws RateLimited (429) when the caller or its bot holds
   * as many streams as allowed. The answer releases the slot; call it exactly once, when the stream ends.
   */
  admit(caller: ChatCaller): () => void {
    const botKey = `bot:${caller.bot.id}`;
    const userKey = caller.isBot || caller.admin ? undefined : `user:${caller.bot.id}:${caller.userId}`;
    if (userKey !== undefined && (this.counts.get(userKey) ?? 0) >= this.limits.perUser) {
      throw new ApiError(
        'RateLimited',
        `This chat user already has ${this.limits.perUser} live streams open, the most allowed: close one first`,
      );
    }
    if ((this.counts.get(botKey) ?? 0) >= this.limits.perBot) {
      throw new ApiError(
        'RateLimited',
        `This bot already has ${this.limits.perBot} live streams open, the most allowed: try again later`,
      );
    }
    const keys = userKey === undefined ? [botKey] : [botKey, userKey];
    for (const key of keys) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const key of keys) {
        const left = (this.counts.get(key) ?? 1) - 1;
        if (left <= 0) this.counts.delete(key);
        else this.counts.set(key, left);
      }
    };
  }

  /** Registers an open stream; the answer unregisters it. */
  add(stream: OpenStream): () => void {
    this.streams.add(stream);
    return () => {
      this.hold(stream, 0);
      this.streams.delete(stream);
    };
  }

  /** Records the bytes `stream` holds for its reader; answers whether the process-wide budget still allows them. */
  hold(stream: OpenStream, bytes: number): boolean {
    this.heldBytes += bytes - stream.held;
    stream.held = bytes;
    return this.heldBytes <= this.limits.totalBufferBytes;
  }

  /** Ends the open streams of one bot (its chat credentials changed), or all of them. */
  closeAll(botId?: string): void {
    for (const stream of [...this.streams]) if (botId === undefined || stream.botId === botId) stream.close();
  }
}

/**
 * Serves a conversation's live stream on a raw response: SSE frames `id: <cursor>`, `event: message`,
 * `data: {"type": …, "data": …}`, and a ping every `pingMs`. It subscribes to the bus first, then sends
 * every stored signal after `after` (the resume point), then live ones. Each wake-up reads the rows after
 * the last cursor sent, one read at a time, so signals arrive in cursor order, never twice, never with a gap.
 *
 * Backpressure: signals are stored rows, so a reader that does not keep up costs nothing but a cursor.
 * Once `bufferBytes` wait in the socket, the stream stops reading signals (and drops the rows it read)
 * until the reader drains them; a reader that stays stopped for `stallMs`, or while the process's stopped
 * streams hold more than `totalBufferBytes`, is dropped. Its client reconnects with Last-Event-ID and
 * loses nothing. `release` (from `registry.admit`) is called when the stream ends.
 */
export async function serveStream(options: {
  res: ServerResponse;
  headers: Record<string, string>;
  chat: ChatService;
  bus: SignalBus;
  caller: ChatCaller;
  conversationId: string;
  after: number;
  pingMs: number;
  registry: StreamRegistry;
  release: () => void;
  /** Authenticates the stream's request again: rejects once its credentials no longer hold. */
  reauthenticate: () => Promise<ChatCaller>;
  onError: (error: unknown) => void;
}): Promise<void> {
  const { res, chat, caller, conversationId, registry } = options;
  const { bufferBytes, stallMs } = registry.limits;
  let last = options.after;
  let ready = false;
  let pulling = false;
  let again = false;
  let closed = false;
  let waiting: Promise<void> | undefined;
  /** Whether the stream is stopped, waiting for its reader to drain the socket. */
  let stopped = false;
  /** Signals read at once: halved to 1 when the reader falls behind, doubled back with each read it keeps up with. */
  let batch = SIGNALS_PER_READ;

  const write = (frame: string) => {
    if (!closed) res.write(frame);
  };

  /** Resolves once the reader has taken what waits in the socket, or the stream ended (dropped if it stalls). */
  function drained(): Promise<void> {
    waiting ??= new Promise<void>((resolve) => {
      stopped = true;
      const done = () => {
        clearTimeout(stall);
        res.off('drain', done);
        res.off('close', done);
        registry.hold(entry, 0);
        stopped = false;
        waiting = undefined;
        resolve();
      };
      const stall = setTimeout(close, stallMs);
      stall.unref();
      res.on('drain', done);
      res.on('close', done);
      if (!registry.hold(entry, res.writableLength)) close();
      if (closed) done();
    });
    return waiting;
  }

  async function pull(): Promise<void> {
    if (!ready || closed) return;
    if (pulling) {
      again = true;
      return;
    }
    pulling = true;
    try {
      do {
        again = false;
        for (;;) {
          const rows = await chat.signalsAfter(caller, conversationId, last, batch);
          let full = false;
          for (const row of rows) {
            if (closed) return;
            if (row.cursor <= last) continue;
            write(
              `id: ${row.cursor}\nevent: message\ndata: {"type":${JSON.stringify(row.type)},"data":${row.data}}\n\n`,
            );
            last = row.cursor;
            if (endsStream(row.type, row.data, options.caller)) {
              close();
              return;
            }
            if (res.writableLength >= bufferBytes) {
              full = true;
              break;
            }
          }
          if (closed) return;
          if (full) {
            // The rest of the rows are let go and read again from `last` once the reader catches up, a
            // few at a time at first, so a slow reader of large messages costs small reads.
            batch = 1;
            await drained();
            continue;
          }
          const more = rows.length >= batch;
          batch = Math.min(SIGNALS_PER_READ, batch * 2);
          if (!more) break;
        }
      } while (again && !closed);
    } finally {
      pulling = false;
    }
  }

  /** The bot's credentials changed: the stream ends unless its own still open it, as they did. */
  async function recheck(): Promise<void> {
    let again: ChatCaller | undefined;
    try {
      again = await options.reauthenticate();
    } catch (error) {
      // Credentials that no longer hold are refused with an ApiError: the stream ends, as it should. Any
      // other failure ends it too (its client reconnects), and is reported.
      if (!(error instanceof ApiError)) options.onError(error);
      again = undefined;
    }
    if (again?.admin !== caller.admin || again.userId !== caller.userId) close();
  }

  const wake = (note: SignalNote | null) => {
    if (note?.revoked) recheck().catch(options.onError);
    else pull().catch(options.onError);
  };
  let unsubscribe: () => void;
  try {
    unsubscribe = await options.bus.subscribe(caller.bot.id, conversationId, wake);
  } catch (error) {
    options.release();
    throw error;
  }

  res.writeHead(200, {
    ...options.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  // How long a browser's EventSource waits before reconnecting; then a comment so the headers go out at once.
  res.write('retry: 3000\n: connected\n\n');

  // A stream waiting for its reader needs no ping: it is not idle.
  const ping = setInterval(() => {
    if (!stopped) write('event: message\ndata: {"type":"ping","data":{}}\n\n');
  }, options.pingMs);
  ping.unref();

  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    unsubscribe();
    unregister();
    options.release();
    if (!res.writableEnded) res.end();
    // A reader that never reads would keep the ended response's bytes: let the socket go with them.
    if (stopped) res.destroy();
  };
  const entry: OpenStream = { botId: caller.bot.id, close, held: 0 };
  const unregister = registry.add(entry);
  res.on('close', close);
  res.on('error', close);

  ready = true;
  await pull();
}

/** Signals read at once by a stream (the stream reads again while a read comes back full). */
const SIGNALS_PER_READ = 50;

/** Whether a signal ends the stream of this caller: its conversation is gone, or the caller left it. */
function endsStream(type: string, data: string, caller: ChatCaller): boolean {
  if (type === 'conversation_deleted') return true;
  if (type !== 'participant_removed' || caller.isBot || caller.admin) return false;
  return (JSON.parse(data) as { participantId?: string }).participantId === caller.userId;
}
