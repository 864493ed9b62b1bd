import type { ServerResponse } from 'node:http';
import type { InboxCounts } from '@parley/protocol';
import { EVERY_CONVERSATION, type SignalBus, type SignalNote, type SignalRecord } from './bus.js';
import { PING_FRAME } from './stream-frames.js';

/** Bounds on the inbox desk's live streams of one process. */
export interface DeskStreamLimits {
  /** Open desk streams of one bot. */
  perBot: number;
  /** How long one stream lives before it ends (its client reconnects, authenticated again). */
  maxAgeMs: number;
  /** Bytes a stream may have waiting for its reader; past it the stream ends (its client reconnects). */
  bufferBytes: number;
}

/** Defaults of DeskStreamLimits. */
export const DEFAULT_DESK_LIMITS: DeskStreamLimits = {
  perBot: 200,
  maxAgeMs: 5 * 60_000,
  bufferBytes: 64 * 1024,
};

/** The signals that change what the desk shows: a message, a change of owner, a conversation gone. */
const DESK_SIGNALS = new Set([
  'message_created',
  'message_updated',
  'handoff_changed',
  'conversation_deleted',
]);

/** What a desk frame says of a changed conversation. */
interface ConversationChanged {
  conversationId: string;
  /** The kinds of signal (known when the note carried its rows; absent otherwise: anything may have changed). */
  signals?: string[];
  /** The conversation's owner after the change, when it changed. */
  handoff?: { state: string };
}

/** A desk frame: `data: {"type", "data"}` as the Chat API's streams write them. */
function frame(type: string, data: unknown): string {
  return `event: message\ndata: ${JSON.stringify({ type, data })}\n\n`;
}

/** The desk's view of a signal note: undefined when nothing in it changes what the desk shows. */
export function deskChange(note: SignalNote): ConversationChanged | undefined {
  const rows: readonly SignalRecord[] | undefined = note.stored?.rows;
  if (!rows) return { conversationId: note.conversationId };
  const kept = rows.filter((r) => !r.adminOnly && DESK_SIGNALS.has(r.type));
  if (kept.length === 0) return undefined;
  const handoff = kept.findLast((r) => r.type === 'handoff_changed');
  const state = handoff ? (JSON.parse(handoff.data) as { state?: unknown }).state : undefined;
  return {
    conversationId: note.conversationId,
    signals: [...new Set(kept.map((r) => r.type))],
    ...(typeof state === 'string' ? { handoff: { state } } : {}),
  };
}

/** The open desk streams of an app, by bot: admits new ones within the per-bot limit, ends them all on close. */
export class DeskStreams {
  private readonly counts = new Map<string, number>();
  private readonly open = new Set<() => void>();

  constructor(readonly limits: DeskStreamLimits = DEFAULT_DESK_LIMITS) {}

  /** Takes a slot for a stream of `botId`, or answers false when the bot holds as many as allowed. */
  admit(botId: string): (() => void) | undefined {
    const n = this.counts.get(botId) ?? 0;
    if (n >= this.limits.perBot) return undefined;
    this.counts.set(botId, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(botId) ?? 1) - 1;
      if (left <= 0) this.counts.delete(botId);
      else this.counts.set(botId, left);
    };
  }

  /** Registers an open stream's close; the answer unregisters it. */
  add(close: () => void): () => void {
    this.open.add(close);
    return () => this.open.delete(close);
  }

  /** Ends every open stream (the app closes). */
  closeAll(): void {
    for (const close of [...this.open]) close();
  }
}

/**
 * Serves a bot's inbox desk stream on a raw response (Server-Sent Events): first `counts` (the desk's tabs),
 * then a `conversation_changed` frame for each note of the bus that changes what the desk shows (a message,
 * a change of owner), `resync` when notes may have been missed, and a ping every `pingMs`. The frames name
 * conversations and states, never their contents: the Console reads those through the Admin API. The stream
 * ends after `maxAgeMs` or when its reader falls `bufferBytes` behind; the browser reconnects (`retry`).
 */
export async function serveDeskStream(options: {
  res: ServerResponse;
  headers: Record<string, string>;
  bus: SignalBus;
  botId: string;
  counts: InboxCounts;
  pingMs: number;
  streams: DeskStreams;
  release: () => void;
}): Promise<void> {
  const { res, streams } = options;
  let closed = false;
  let unsubscribe = () => {};
  let unregister = () => {};
  const timers: NodeJS.Timeout[] = [];
  const close = () => {
    if (closed) return;
    closed = true;
    for (const timer of timers) clearTimeout(timer);
    unsubscribe();
    unregister();
    options.release();
    if (!res.writableEnded) res.end();
  };
  const write = (text: string | Buffer) => {
    if (closed) return;
    res.write(text);
    if (res.writableLength > streams.limits.bufferBytes) close();
  };
  try {
    unsubscribe = await options.bus.subscribe(options.botId, EVERY_CONVERSATION, (note) => {
      if (note === null) write(frame('resync', {}));
      else if (!note.revoked) {
        const change = deskChange(note);
        if (change) write(frame('conversation_changed', change));
      }
    });
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
  res.write('retry: 3000\n: connected\n\n');
  write(frame('counts', options.counts));
  const ping = setInterval(() => write(PING_FRAME), options.pingMs);
  ping.unref();
  const end = setTimeout(close, streams.limits.maxAgeMs);
  end.unref();
  timers.push(ping, end);
  unregister = streams.add(close);
  res.on('close', close);
  res.on('error', close);
}
