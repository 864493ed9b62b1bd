import { sql } from 'kysely';
import type { ChatContext, ChatServiceDeps, WithSignals } from './context.js';
import { conversationFor } from './context.js';
import type { ChatService, PendingSignal } from './contract.js';
import { chatRepo, type SignalRow } from './repo.js';

/**
 * The writer of the durable signal log: {@link WithSignals} runs work in a transaction, stores the signals
 * it emits in cursor order and publishes them on the bus after commit. (Signals past the retention are
 * dropped by `pruneSignals`, a periodic task of the job runner, never on a request's path.)
 */
export function signalWriter(deps: Pick<ChatServiceDeps, 'db' | 'dialect' | 'clock' | 'bus'>): WithSignals {
  const { db, clock, bus } = deps;
  return async (botId, work) => {
    const notes: Array<{ conversationId: string; cursor: number }> = [];
    const result = await db.transaction().execute(async (tx) => {
      const pending: PendingSignal[] = [];
      const value = await work(tx, (s) => pending.push(s));
      if (pending.length > 0) {
        // Per bot, cursors are handed out in commit order: a stream that has read cursor n never later
        // sees a smaller one commit (PostgreSQL sequences alone would allow it; SQLite has one writer).
        if (deps.dialect === 'postgres')
          await sql`select pg_advisory_xact_lock(hashtext(${botId}))`.execute(tx);
        const at = clock().toISOString();
        for (const p of pending) {
          const cursor = await chatRepo(tx).insertSignal({
            bot_id: botId,
            conversation_id: p.conversationId,
            type: p.signal.type,
            data: JSON.stringify(p.signal.data),
            admin_only: p.adminOnly ? 1 : 0,
            created_at: at,
          });
          notes.push({ conversationId: p.conversationId, cursor });
        }
      }
      return value;
    });
    for (const n of notes) bus.publish({ botId, ...n });
    return result;
  };
}

/** Streams and signals of the Chat API: where a stream starts, what it reads, what the bot signals. */
export function chatSignals(
  ctx: Pick<ChatContext, 'db' | 'withSignals' | 'clock' | 'signalRetentionMs'>,
): Pick<ChatService, 'openStream' | 'signalsAfter' | 'emit' | 'pruneSignals'> {
  const { db, withSignals } = ctx;
  /** Reads of signals not yet sent to the database, by what they ask: streams woken together share one. */
  const pendingReads = new Map<string, Promise<SignalRow[]>>();

  return {
    async openStream(caller, conversationId, after) {
      await conversationFor(db, caller, conversationId, 'read');
      return after ?? (await chatRepo(db).lastCursor(caller.bot.id, conversationId));
    },

    async signalsAfter(caller, conversationId, after, limit = 500) {
      // A message wakes every stream of its conversation at once; those at the same cursor share one read.
      // A read is joined only until it is issued (on the next turn of the event loop): a stream woken
      // later starts a new one, so it always sees the rows committed before the signal that woke it.
      const key = JSON.stringify([caller.bot.id, conversationId, after, caller.admin, limit]);
      const pending = pendingReads.get(key);
      if (pending) return pending;
      const read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        pendingReads.delete(key);
        return chatRepo(db).signalsAfter({
          botId: caller.bot.id,
          conversationId,
          after,
          admin: caller.admin,
          limit,
        });
      });
      pendingReads.set(key, read);
      return read;
    },

    async emit(botId, conversationId, signals) {
      await withSignals(botId, async (_tx, emit) => {
        for (const s of signals) emit({ conversationId, signal: s.signal, adminOnly: s.adminOnly ?? false });
      });
    },

    async pruneSignals() {
      const before = new Date(ctx.clock().getTime() - ctx.signalRetentionMs).toISOString();
      return chatRepo(db).pruneSignals(before);
    },
  };
}
