import { randomBytes } from 'node:crypto';
import type { Notifications } from '../../db/database.js';

/**
 * "Conversation X of bot B has signals up to `cursor`": what the bus carries (the receiver reads the rows).
 * With `revoked`, the bot's chat credentials changed instead: every stream of the bot checks its own.
 */
export interface SignalNote {
  botId: string;
  conversationId: string;
  cursor: number;
  revoked?: true;
  /**
   * The signals the note announces, as the writer stored them, so that a stream can send them without reading
   * them back (see {@link StoredSignals}); sent to the other processes too when they fit in a NOTIFY.
   */
  stored?: StoredSignals;
}

/** A stored signal as its writer has it. */
export interface SignalRecord {
  cursor: number;
  type: string;
  /** The signal's data as stored: JSON text. */
  data: string;
  adminOnly: boolean;
}

/**
 * The signals of one conversation one transaction stored, in cursor order, and `previous`: the cursor of
 * the conversation's signal stored just before them. A stream that has sent every signal up to `previous`
 * (its cursor is `previous`) has nothing to read: these are the next ones. Any other stream reads.
 */
export interface StoredSignals {
  previous: number;
  rows: readonly SignalRecord[];
}

/** Called on a note for its conversation, or with `null` when notes may have been missed (catch up). */
export type SignalListener = (note: SignalNote | null) => void;

const CHANNEL = 'parley_chat';

/** The in-process (and, on PostgreSQL, cross-process) fan-out of signal notes to live streams. */
export interface SignalBus {
  /** Tells every stream of the conversation, here and in other processes, that signals up to `cursor` exist. */
  publish(note: SignalNote): void;
  /** Tells every stream of the bot, here and in other processes, that its chat credentials changed. */
  revoke(botId: string): void;
  /**
   * Listens to a conversation's notes (every conversation of the bot with EVERY_CONVERSATION); resolves once
   * listening everywhere. Answers the unsubscribe.
   */
  subscribe(botId: string, conversationId: string, listener: SignalListener): Promise<() => void>;
  /** Stops listening to other processes. */
  close(): Promise<void>;
}

type Listeners = Map<string, Set<SignalListener>>;

/** The conversation id a listener subscribes with to hear the notes of every conversation of a bot. */
export const EVERY_CONVERSATION = '*';

const key = (botId: string, conversationId: string) => `${botId}\u0000${conversationId}`;

/**
 * Calls the listeners a note is for: its conversation's and its bot's EVERY_CONVERSATION ones, every one of
 * its bot's (revoked), or all (`null`).
 */
function deliver(listeners: Listeners, note: SignalNote | null): void {
  const sets =
    note === null
      ? [...listeners.values()]
      : note.revoked
        ? [...listeners.entries()].filter(([k]) => k.startsWith(key(note.botId, ''))).map(([, set]) => set)
        : [
            listeners.get(key(note.botId, note.conversationId)),
            listeners.get(key(note.botId, EVERY_CONVERSATION)),
          ];
  for (const set of sets) for (const listener of [...(set ?? [])]) listener(note);
}

/** A NOTIFY payload: origin, bot, conversation, cursor; revoked; the stored signals (previous, rows) when they fit. */
interface NotePayload {
  o: string;
  b: string;
  c: string;
  n: number;
  r?: 1;
  p?: number;
  /** Rows as [cursor, type, data, adminOnly (1) or not (0)]. */
  s?: Array<[number, string, string, 0 | 1]>;
}

/** The most bytes of a NOTIFY payload that carries stored signals (PostgreSQL takes less than 8000). */
const NOTE_BYTES = 7000;

/** The note a NOTIFY payload carries, or undefined for one this process sent itself; throws on a bad payload. */
function decodeNote(payload: string, origin: string): SignalNote | undefined {
  const parsed = JSON.parse(payload) as NotePayload;
  if (parsed.o === origin) return undefined;
  const stored: StoredSignals | undefined =
    typeof parsed.p === 'number' && Array.isArray(parsed.s) && parsed.s.length > 0
      ? {
          previous: parsed.p,
          rows: parsed.s.map(([cursor, type, data, adminOnly]) => {
            if (typeof cursor !== 'number' || typeof type !== 'string' || typeof data !== 'string')
              throw new Error('a chat signal note carries a malformed row');
            return { cursor, type, data, adminOnly: adminOnly === 1 };
          }),
        }
      : undefined;
  return {
    botId: parsed.b,
    conversationId: parsed.c,
    cursor: parsed.n,
    ...(parsed.r ? { revoked: true as const } : {}),
    ...(stored ? { stored } : {}),
  };
}

/** Adds a listener to its conversation's set; answers the set. */
function addListener(listeners: Listeners, k: string, listener: SignalListener): Set<SignalListener> {
  let set = listeners.get(k);
  if (!set) {
    set = new Set();
    listeners.set(k, set);
  }
  set.add(listener);
  return set;
}

/**
 * Fans signal notes out to the live streams: in this process directly, and to the other processes sharing
 * a PostgreSQL database through LISTEN/NOTIFY (only the conversation and cursor travel; the rows stay in
 * `chat_signals`). The PostgreSQL listener starts with the first subscription.
 */
export function signalBus(options: {
  notifications?: Notifications | undefined;
  /** Told of every failure the bus handles itself: a note it could not send or read, a listener it could not start. */
  onError: (e: unknown) => void;
}): SignalBus {
  const { notifications } = options;
  const origin = randomBytes(6).toString('hex');
  const listeners: Listeners = new Map();
  let listening: Promise<() => Promise<void>> | undefined;
  let closed = false;

  function onNotification(payload: string | null): void {
    if (payload === null) {
      deliver(listeners, null);
      return;
    }
    try {
      const note = decodeNote(payload, origin);
      if (note) deliver(listeners, note);
    } catch (error) {
      options.onError(error);
    }
  }

  /** Sends a note to the other processes (fields after `o`, the origin). */
  function notify(fields: Omit<NotePayload, 'o'>): void {
    if (!notifications || closed) return;
    let payload = JSON.stringify({ o: origin, ...fields });
    if (fields.s && Buffer.byteLength(payload) > NOTE_BYTES) {
      // Too large to carry: the note only says where the signals end; the streams there read them.
      const { p: _previous, s: _rows, ...bare } = fields;
      payload = JSON.stringify({ o: origin, ...bare });
    }
    notifications.notify(CHANNEL, payload).catch((error: unknown) => options.onError(error));
  }

  return {
    publish(note: SignalNote): void {
      deliver(listeners, note);
      const { stored } = note;
      notify({
        b: note.botId,
        c: note.conversationId,
        n: note.cursor,
        ...(stored
          ? {
              p: stored.previous,
              s: stored.rows.map((r): [number, string, string, 0 | 1] => [
                r.cursor,
                r.type,
                r.data,
                r.adminOnly ? 1 : 0,
              ]),
            }
          : {}),
      });
    },

    revoke(botId: string): void {
      deliver(listeners, { botId, conversationId: '', cursor: -1, revoked: true });
      notify({ b: botId, c: '', n: -1, r: 1 });
    },

    async subscribe(botId: string, conversationId: string, listener: SignalListener): Promise<() => void> {
      const k = key(botId, conversationId);
      const set = addListener(listeners, k, listener);
      if (notifications && !closed) {
        listening ??= notifications.listen(CHANNEL, onNotification);
        try {
          await listening;
        } catch (error) {
          listening = undefined;
          set.delete(listener);
          throw error;
        }
      }
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(k) === set) listeners.delete(k);
      };
    },

    async close(): Promise<void> {
      closed = true;
      listeners.clear();
      // A listener that failed to start was refused to its subscriber then; here it is only reported.
      const unlisten = await listening?.catch((error: unknown) => {
        options.onError(error);
        return undefined;
      });
      await unlisten?.();
    },
  };
}
