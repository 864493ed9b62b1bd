import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

/**
 * Something kept per database handle: made on a handle's first ask, the same one after. A transaction is a
 * handle of its own, so what is made for it goes with it; nothing keeps a handle alive.
 * @example const repos = new PerHandle<ChatRepo>(); repos.of(db, () => makeChatRepo(db));
 */
export class PerHandle<T> {
  private readonly kept = new WeakMap<Kysely<Database>, T>();

  /** The handle's own: made by `make` on its first ask. */
  of(db: Kysely<Database>, make: () => T): T {
    let value = this.kept.get(db);
    if (value === undefined) {
      value = make();
      this.kept.set(db, value);
    }
    return value;
  }

  /** The handle's own, if made. */
  get(db: Kysely<Database>): T | undefined {
    return this.kept.get(db);
  }

  /** The handle's own, if made, forgotten (at shutdown, or when it ends itself). */
  take(db: Kysely<Database>): T | undefined {
    const value = this.kept.get(db);
    this.kept.delete(db);
    return value;
  }
}

/** The file of a SQLite database's main schema; undefined in memory or for a temporary database. */
export async function sqliteFileOf(db: Kysely<Database>): Promise<string | undefined> {
  const r = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
    db,
  );
  return r.rows[0]?.file || undefined;
}
