import type { ServerResponse } from 'node:http';
import type { SignalBus } from './bus.js';
import type { ChatCaller, ChatService } from './service.js';

/** The open live streams of an app, ended when it closes. */
export type StreamRegistry = Set<() => void>;

/**
 * Serves a conversation's live stream on a raw response: SSE frames `id: <cursor>`, `event: message`,
 * `data: {"type": …, "data": …}`, and a ping every `pingMs`. It subscribes to the bus first, then sends
 * every stored signal after `after` (the resume point), then live ones. Each wake-up reads the rows after
 * the last cursor sent, one read at a time, so signals arrive in cursor order, never twice, never with a gap.
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
  onError: (error: unknown) => void;
}): Promise<void> {
  const { res, chat, caller, conversationId } = options;
  let last = options.after;
  let ready = false;
  let pulling = false;
  let again = false;
  let closed = false;

  const write = (frame: string) => {
    if (!closed) res.write(frame);
  };

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
          const rows = await chat.signalsAfter(caller, conversationId, last);
          for (const row of rows) {
            if (row.cursor <= last) continue;
            write(
              `id: ${row.cursor}\nevent: message\ndata: {"type":${JSON.stringify(row.type)},"data":${row.data}}\n\n`,
            );
            last = row.cursor;
            if (endsStream(row.type, row.data, options.caller)) {
              close();
              return;
            }
          }
          if (rows.length < 500 || closed) break;
        }
      } while (again && !closed);
    } finally {
      pulling = false;
    }
  }

  const wake = () => {
    pull().catch(options.onError);
  };
  const unsubscribe = await options.bus.subscribe(caller.bot.id, conversationId, wake);

  res.writeHead(200, {
    ...options.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  // How long a browser's EventSource waits before reconnecting; then a comment so the headers go out at once.
  res.write('retry: 3000\n: connected\n\n');

  const ping = setInterval(
    () => write('event: message\ndata: {"type":"ping","data":{}}\n\n'),
    options.pingMs,
  );
  ping.unref();

  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    unsubscribe();
    options.registry.delete(close);
    if (!res.writableEnded) res.end();
  };
  options.registry.add(close);
  res.on('close', close);
  res.on('error', close);

  ready = true;
  await pull();
}

/** Whether a signal ends the stream of this caller: its conversation is gone, or the caller left it. */
function endsStream(type: string, data: string, caller: ChatCaller): boolean {
  if (type === 'conversation_deleted') return true;
  if (type !== 'participant_removed' || caller.isBot || caller.admin) return false;
  return (JSON.parse(data) as { participantId?: string }).participantId === caller.userId;
}
