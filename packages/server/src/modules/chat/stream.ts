import type { ServerResponse } from 'node:http';
import { ApiError } from '../../errors/errors.js';
import type { SignalBus, SignalNote, StoredSignals } from './bus.js';
import type { ChatCaller, ChatService } from './contract.js';
import { frameOf, PING_FRAME, type SignalFrameRow, writeFrame } from './stream-frames.js';
import { BurstCorking } from './stream-turn.js';

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
  /** Which streams' frames leave at once and which wait corked for the end of a burst (stream-turn.ts). */
  readonly bursts = new BurstCorking();

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
 * the last cursor sent, one read at a time, so signals arrive in cursor order, never twice, never with a gap;
 * except that signals announced with the cursor just before them (see signalWriter) are sent as they are by a
 * stream at that cursor that is neither reading nor stopped: nothing to read, and no gap possible. Either way a listener gets only what its caller may see (debug signals for adminKey only).
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
  await new LiveStream(options).serve();
}

type StreamOptions = Parameters<typeof serveStream>[0];

/** One live stream served by serveStream(): its cursor, its reading state, and how it ends. */
class LiveStream {
  private last: number;
  private ready = false;
  private pulling = false;
  private again = false;
  private closed = false;
  private waiting: Promise<void> | undefined;
  /** Whether the stream is stopped, waiting for its reader to drain the socket. */
  private stopped = false;
  /** Signals read at once: halved to 1 when the reader falls behind, doubled back with each read it keeps up with. */
  private batch = SIGNALS_PER_READ;
  private opened = false;
  private ping: NodeJS.Timeout | undefined;
  private unsubscribe: () => void = () => {};
  private unregister: () => void = () => {};
  private readonly entry: OpenStream;

  constructor(private readonly options: StreamOptions) {
    this.last = options.after;
    this.entry = { botId: options.caller.bot.id, close: this.close, held: 0 };
  }

  async serve(): Promise<void> {
    const { options } = this;
    const wake = (note: SignalNote | null) => {
      if (note?.revoked) this.recheck().catch(options.onError);
      else if (note?.stored) this.take(note.stored);
      else this.pull().catch(options.onError);
    };
    try {
      this.unsubscribe = await options.bus.subscribe(options.caller.bot.id, options.conversationId, wake);
    } catch (error) {
      options.release();
      throw error;
    }
    this.open();
    this.ready = true;
    await this.pull();
  }

  /** Sends the headers, starts the pings, and registers the stream. */
  private open(): void {
    const { res, registry } = this.options;
    res.writeHead(200, {
      ...this.options.headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // How long a browser's EventSource waits before reconnecting; then a comment so the headers go out at once.
    res.write('retry: 3000\n: connected\n\n');

    // A stream waiting for its reader needs no ping: it is not idle.
    this.ping = setInterval(() => {
      if (!this.stopped) this.write(PING_FRAME);
    }, this.options.pingMs);
    this.ping.unref();

    this.opened = true;
    this.unregister = registry.add(this.entry);
    res.on('close', this.close);
    res.on('error', this.close);
  }

  private readonly close = (): void => {
    if (this.closed || !this.opened) return;
    const { res } = this.options;
    this.closed = true;
    clearInterval(this.ping);
    this.unsubscribe();
    this.unregister();
    this.options.release();
    if (!res.writableEnded) res.end();
    // A reader that never reads would keep the ended response's bytes: let the socket go with them.
    if (this.stopped) res.destroy();
  };

  private write(frame: Buffer): void {
    if (!this.closed) writeFrame(this.options.res, frame);
  }

  /** Sends what was written now instead of after the current task ends. */
  private flush(): void {
    const socket = this.options.res.socket;
    if (!this.closed && socket?.writableCorked) socket.uncork();
  }

  /** Resolves once the reader has taken what waits in the socket, or the stream ended (dropped if it stalls). */
  private drained(): Promise<void> {
    const { res, registry } = this.options;
    this.waiting ??= new Promise<void>((resolve) => {
      this.stopped = true;
      // Frames go to the socket itself (see writeFrame): the socket says when its reader took them.
      const writer = res.socket ?? res;
      const done = () => {
        clearTimeout(stall);
        writer.off('drain', done);
        res.off('close', done);
        registry.hold(this.entry, 0);
        this.stopped = false;
        this.waiting = undefined;
        resolve();
      };
      const stall = setTimeout(this.close, registry.limits.stallMs);
      stall.unref();
      writer.on('drain', done);
      res.on('close', done);
      if (!registry.hold(this.entry, res.writableLength)) this.close();
      if (this.closed) done();
    });
    return this.waiting;
  }

  /**
   * Signals just stored, announced with the cursor before them: sent at once (called from the writer's
   * publish after its commit, or from another process's note) when that cursor is the last one this stream sent
   * and it is neither reading nor waiting for its reader; otherwise read as any other note. The frames leave at
   * once, before the writer's request is answered, unless other notes came first in this turn (see stream-turn.ts).
   */
  private take(stored: StoredSignals): void {
    if (!this.ready || this.closed) return;
    if (this.pulling || this.stopped || stored.previous !== this.last) {
      this.pull().catch(this.options.onError);
      return;
    }
    try {
      const { bursts } = this.options.registry;
      const atOnce = bursts.sendsAtOnce(stored);
      const socket = this.options.res.socket;
      if (!atOnce && socket) bursts.hold(socket);
      const sent = this.send(stored.rows);
      if (sent === 'sent') {
        // Past the rows this caller may not see too: none of them is for it.
        this.last = Math.max(this.last, stored.rows[stored.rows.length - 1]?.cursor ?? 0);
        if (atOnce) this.flush();
      } else if (sent === 'full') {
        this.pull(true).catch(this.options.onError);
      }
    } catch (error) {
      this.options.onError(error);
      this.close();
    }
  }

  /** Reads and sends what is after the last cursor sent; with `drainFirst`, once the reader took what waits. */
  private async pull(drainFirst = false): Promise<void> {
    if (!this.ready || this.closed) return;
    if (this.pulling) {
      this.again = true;
      return;
    }
    this.pulling = true;
    try {
      if (drainFirst) {
        this.batch = 1;
        await this.drained();
        if (this.closed) return;
      }
      do {
        this.again = false;
        await this.readAll();
      } while (this.again && !this.closed);
    } finally {
      this.pulling = false;
    }
  }

  /** Reads and sends the rows after the last cursor sent until a read comes back short (or the stream ends). */
  private async readAll(): Promise<void> {
    const { chat, caller, conversationId } = this.options;
    for (;;) {
      const rows = await chat.signalsAfter(caller, conversationId, this.last, this.batch);
      const sent = this.send(rows);
      if (sent === 'closed') return;
      if (sent === 'full') {
        // The rest of the rows are let go and read again from `last` once the reader catches up, a
        // few at a time at first, so a slow reader of large messages costs small reads.
        this.batch = 1;
        await this.drained();
        continue;
      }
      const more = rows.length >= this.batch;
      this.batch = Math.min(SIGNALS_PER_READ, this.batch * 2);
      if (!more) return;
    }
  }

  /** Writes the rows after the last cursor sent, up to a full socket; answers how that went. */
  private send(rows: readonly SignalFrameRow[]): 'closed' | 'full' | 'sent' {
    let full = false;
    const { admin } = this.options.caller;
    for (const row of rows) {
      if (this.closed) return 'closed';
      // Rows read for this stream hold only what its caller may see; rows announced by their writer hold all.
      if (row.cursor <= this.last || (row.adminOnly === true && !admin)) continue;
      this.write(frameOf(row));
      this.last = row.cursor;
      if (endsStream(row.type, row.data, this.options.caller)) {
        this.close();
        return 'closed';
      }
      if (this.options.res.writableLength >= this.options.registry.limits.bufferBytes) {
        full = true;
        break;
      }
    }
    if (this.closed) return 'closed';
    return full ? 'full' : 'sent';
  }

  /** The bot's credentials changed: the stream ends unless its own still open it, as they did. */
  private async recheck(): Promise<void> {
    const { caller } = this.options;
    let again: ChatCaller | undefined;
    try {
      again = await this.options.reauthenticate();
    } catch (error) {
      // Credentials that no longer hold are refused with an ApiError: the stream ends, as it should. Any
      // other failure ends it too (its client reconnects), and is reported.
      if (!(error instanceof ApiError)) this.options.onError(error);
      again = undefined;
    }
    if (again?.admin !== caller.admin || again.userId !== caller.userId) this.close();
  }
}

/** Signals read at once by a stream (the stream reads again while a read comes back full). */
const SIGNALS_PER_READ = 50;

/** Whether a signal ends the stream of this caller: its conversation is gone, or the caller left it. */
function endsStream(type: string, data: string, caller: ChatCaller): boolean {
  if (type === 'conversation_deleted') return true;
  if (type !== 'participant_removed' || caller.isBot || caller.admin) return false;
  return (JSON.parse(data) as { participantId?: string }).participantId === caller.userId;
}
