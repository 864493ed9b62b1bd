import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A table whose changes a {@link WatchedCache} depends on. */
export interface WatchedTable {
  name: keyof Database & string;
  /** Columns whose update alone is not a change (a token's `last_used_at`); every other column's is. */
  ignoredColumns?: readonly string[];
}

/**
 * What tells, on one SQLite connection, whether tables may have changed: {@link generation} moves whenever a
 * watched table's row is inserted, deleted or updated on this connection (by a trigger, at the statement, even
 * if its transaction later rolls back), and whenever any other connection to the file (the CLI, another
 * process, a `sqlite3` shell) commits anything (`PRAGMA data_version`).
 */
export interface ChangeWatch {
  /**
   * Watches `tables` from now on (temporary triggers of this connection, made once per table); false while a
   * transaction is open on the connection, as the triggers would go with its rollback: ask again later.
   */
  watch(tables: readonly WatchedTable[]): boolean;
  /** A number that differs from every earlier answer once a watched table may have changed. */
  generation(): number;
}

/** Watches by the dialect adapter of their Kysely handle (shared with its transactions). */
const watches = new WeakMap<object, ChangeWatch>();

/** The change watch of a database handle: undefined on PostgreSQL, where nothing watches. */
export function changeWatchOf(db: Kysely<Database>): ChangeWatch | undefined {
  return watches.get(db.getExecutor().adapter);
}

/** The SQL function the triggers call: registered on each watched connection. */
const CHANGED = 'parley_watched_table_changed';

/** Quoted as a SQLite identifier. */
const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Registers the change watch of `kysely`'s one SQLite connection (see {@link ChangeWatch}). */
export function watchSqliteChanges(kysely: Kysely<Database>, sqlite: SQLite.Database): ChangeWatch {
  let generation = 0;
  const watched = new Set<string>();
  // Called by the triggers, inside the statement that changes a row: it only counts.
  sqlite.function(CHANGED, { deterministic: false, varargs: false }, () => {
    generation += 1;
    return null;
  });
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  let seenVersion = dataVersion.get();
  let versionAsked = false;
  const forgetVersionAsked = () => {
    versionAsked = false;
  };
  const watch: ChangeWatch = {
    watch(tables) {
      const missing = tables.filter((t) => !watched.has(t.name));
      if (missing.length === 0) return true;
      if (sqlite.inTransaction) return false;
      for (const table of missing) {
        const columns = sqlite
          .prepare('select name from pragma_table_info(?)')
          .pluck()
          .all(table.name) as string[];
        if (columns.length === 0) throw new Error(`watchSqliteChanges: no table ${table.name}`);
        const updated = columns.filter((c) => !table.ignoredColumns?.includes(c)).map(identifier);
        const on = `on main.${identifier(table.name)} begin select ${CHANGED}(); end`;
        const name = (event: string) => identifier(`parley_watch_${table.name}_${event}`);
        sqlite.exec(
          [
            `create temp trigger if not exists ${name('insert')} after insert ${on}`,
            `create temp trigger if not exists ${name('delete')} after delete ${on}`,
            `create temp trigger if not exists ${name('update')} after update of ${updated.join(', ')} ${on}`,
          ].join(';\n'),
        );
        watched.add(table.name);
      }
      // A change made before the triggers existed is not in the count: the caller's earlier generation ends.
      generation += 1;
      return true;
    },
    generation() {
      // `PRAGMA data_version` opens and closes a read transaction (~25 µs cold, with its locks): asked once per run
      // of JavaScript (until the microtasks queued now run), as no request can arrive in between; a
      // request's two caches (token, bot) ask within one run. This connection's own changes count at once.
      if (!versionAsked) {
        versionAsked = true;
        queueMicrotask(forgetVersionAsked);
        const version = dataVersion.get();
        if (version !== seenVersion) {
          seenVersion = version;
          generation += 1;
        }
      }
      return generation;
    },
  };
  watches.set(kysely.getExecutor().adapter, watch);
  return watch;
}

/** Values kept at most by a cache (the least recently stored forgotten first). */
const KEPT = 10_000;

/**
 * Values read from the database kept in memory while the tables they were read from stay unchanged, on SQLite
 * (see {@link ChangeWatch}): a change made by this process or by any other connection to the file is seen by
 * the next ask. On PostgreSQL, where several processes write without telling this one, nothing is kept and
 * every ask reads. Only found values are kept (an unknown key is read again every time). Keep only what is a
 * function of the watched tables' rows: whatever depends on the time (expiry) is checked by the caller on
 * every use.
 */
export class WatchedCache<V> {
  private readonly kept = new Map<string, V>();
  private seen = -1;

  constructor(
    private readonly tables: readonly WatchedTable[],
    private readonly limit = KEPT,
  ) {}

  /** The value of `key`, kept or read by `read` (on `db`'s handle itself, never inside a transaction). */
  async get(db: Kysely<Database>, key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const watch = changeWatchOf(db);
    if (watch === undefined || db.isTransaction || !watch.watch(this.tables)) return read();
    const generation = watch.generation();
    if (generation !== this.seen) {
      this.kept.clear();
      this.seen = generation;
    }
    const kept = this.kept.get(key);
    if (kept !== undefined) return kept;
    const value = await read();
    // Kept only if nothing changed while it was read: else it may be older than the change.
    if (value !== undefined && watch.generation() === generation) {
      this.kept.set(key, value);
      if (this.kept.size > this.limit) this.kept.delete(this.kept.keys().next().value as string);
    }
    return value;
  }
}
