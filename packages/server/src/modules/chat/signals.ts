import { sql } from 'kysely';
import type { SignalRecord } from './bus.js';
import type { ChatContext, ChatServiceDeps, WithSignals } from './context.js';
import { conversationFor } from './context.js';
import type { ChatService, PendingSignal } from './contract.js';
import { chatRepo, type SignalRow } from './repo.js';
import { storeSignal } from './repo-contents.js';

/** Conversations whose last stored signal's cursor a writer keeps (least recently written dropped first). */
const CHAINS_KEPT = 10_000;

/**
 * The cursor of the signal stored last per conversation, as one process stored them: kept on SQLite only,
 * where one process owns the database and its transactions run one at a time (Kysely's SQLite driver holds
 * its one connection from begin to commit), so signals are inserted in commit order and the cursor kept for a
 * conversation when a transaction inserts is the one just before its own. A conversation not kept (never
 * written since start, dropped for room, or written by a transaction that failed) has no chain: its streams
 * read.
 */
class SignalChains {
  private readonly last = new Map<string, number>();

  get(k: string): number | undefined {
    return this.last.get(k);
  }

  set(k: string, cursor: number): void {
    this.last.delete(k);
    this.last.set(k, cursor);
    if (this.last.size > CHAINS_KEPT) this.last.delete(this.last.keys().next().value as string);
  }

  forget(k: string): void {
    this.last.delete(k);
  }
}

/** What one transaction stored for one conversation: its signals, and the cursor before them when known. */
interface StoredGroup {
  previous: number | undefined;
  rows: SignalRecord[];
}

/**
 * The writer of the durable signal log: {@link WithSignals} runs work in a transaction, stores the signals
 * it emits in cursor order and publishes them on the bus after commit, one note per conversation, carrying
 * the stored signals and the cursor of the conversation's signal just before them ({@link StoredSignals}):
 * the streams at that cursor send them as they are, without reading them back. On SQLite that cursor is the
 * one this process stored last ({@link SignalChains}); on PostgreSQL the first insert of each conversation reads
 * it in the same statement, while the bot's advisory lock holds off every other writer of the bot's signals.
 * (Signals past the retention are dropped by `pruneSignals`, a periodic task of the job runner, never on a
 * request's path.)
 */
export function signalWriter(deps: Pick<ChatServiceDeps, 'db' | 'dialect' | 'clock' | 'bus'>): WithSignals {
  const { db, clock, bus } = deps;
  const chains = deps.dialect === 'sqlite' ? new SignalChains() : undefined;
  return async (botId, work) => {
    const stored = new Map<string, StoredGroup>();
    const result = await db
      .transaction()
      .execute(async (tx) => {
        const pending: PendingSignal[] = [];
        const value = await work(tx, (s) => pending.push(s));
        if (pending.length > 0) {
          // Per bot, cursors are handed out in commit order: a stream that has read cursor n never later
          // sees a smaller one commit (PostgreSQL sequences alone would allow it; SQLite has one writer).
          if (deps.dialect === 'postgres')
            await sql`select pg_advisory_xact_lock(hashtext(${botId}))`.execute(tx);
          const at = clock().toISOString();
          for (const p of pending) {
            const row = {
              bot_id: botId,
              conversation_id: p.conversationId,
              type: p.signal.type,
              data: JSON.stringify(p.signal.data),
              admin_only: p.adminOnly ? 1 : 0,
              created_at: at,
            };
            const k = chainKey(botId, p.conversationId);
            let group = stored.get(p.conversationId);
            let cursor: number;
            if (chains) {
              cursor = await storeSignal(tx, row);
              if (!group) group = { previous: chains.get(k), rows: [] };
              chains.set(k, cursor);
            } else if (!group) {
              // PostgreSQL: other processes write too, but not while this transaction holds the bot's lock.
              const inserted = await chatRepo(tx).insertSignalAfter(row);
              cursor = inserted.cursor;
              group = { previous: inserted.previous, rows: [] };
            } else {
              cursor = await storeSignal(tx, row);
            }
            stored.set(p.conversationId, group);
            group.rows.push({ cursor, type: row.type, data: row.data, adminOnly: p.adminOnly });
          }
        }
        return value;
      })
      .catch((error: unknown) => {
        // What the failed transaction inserted is not there: the chains it moved are unknown now.
        for (const conversationId of stored.keys()) chains?.forget(chainKey(botId, conversationId));
        throw error;
      });
    for (const [conversationId, { previous, rows }] of stored) {
      const cursor = rows[rows.length - 1]?.cursor ?? 0;
      bus.publish({
        botId,
        conversationId,
        cursor,
        ...(previous !== undefined ? { stored: { previous, rows } } : {}),
      });
    }
    return result;
  };
}

const chainKey = (botId: string, conversationId: string) => `${botId}\u0000${conversationId}`;

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
