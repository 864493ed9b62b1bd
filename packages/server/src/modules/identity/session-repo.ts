import { type Kysely, PostgresAdapter, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { SessionsTable } from '../../db/tables/identity.js';

/** Session row. */
export type SessionRow = Selectable<SessionsTable>;

/** Account passwords. */
interface PasswordQueries {
  passwordOf(accountId: string): Promise<string | undefined>;
  /** Stores or replaces an account's password hash. */
  setPassword(accountId: string, hash: string, at: string): Promise<void>;
}

/** Sign-in sessions. */
interface SessionQueries {
  insertSession(row: SessionRow): Promise<void>;
  sessionByHash(hash: string): Promise<SessionRow | undefined>;
  /** Sets `last_seen_at` to `at` unless the session was seen after `olderThan`. */
  touchSession(id: string, at: string, olderThan: string): Promise<void>;
  /** The account's sessions not revoked, by id (the caller drops the expired ones). */
  sessionsOf(accountId: string): Promise<SessionRow[]>;
  /** Revokes the account's live sessions, all or one (`only`), but `except`; answers how many. */
  revokeSessions(accountId: string, at: string, which?: { only?: string; except?: string }): Promise<number>;
  /** Deletes the account's sessions revoked or ended before `now` (absolute limit) or idle since `idleSince`. */
  pruneSessions(accountId: string, now: string, idleSince: string): Promise<void>;
}

/** Failed sign-ins, by key. */
interface FailureQueries {
  /**
   * Inside a transaction: waits until no other transaction reserves sign-in attempts for any of `keys`, in any
   * process (PostgreSQL advisory locks held until commit, taken in one order). SQLite runs one transaction at a time.
   */
  lockFailureKeys(keys: readonly string[]): Promise<void>;
  /** Failed (or reserved) sign-ins of each key since `since`, oldest first. */
  failuresSince(keys: readonly string[], since: string): Promise<Array<{ key: string; failed_at: string }>>;
  /** Reserves one row per key for the attempt `attempt`. */
  addFailures(keys: readonly string[], at: string, attempt: string): Promise<void>;
  /** Forgets the rows of an attempt: all of them, or only those of `keys`. */
  clearAttempt(attempt: string, keys?: readonly string[]): Promise<void>;
  clearFailures(key: string): Promise<void>;
  /** Forgets failures older than `before` (every key). */
  pruneFailures(before: string): Promise<void>;
}

/** Queries of passwords, sessions and failed sign-ins (the identity module is their one writer). */
export interface SessionRepo extends PasswordQueries, SessionQueries, FailureQueries {}

/** The advisory lock class of sign-in throttle keys ('SIGN'). */
const SIGN_IN_LOCK_CLASS = 0x5349474e;

/** Account passwords. */
function passwordQueries(db: Kysely<Database>): PasswordQueries {
  return {
    async passwordOf(accountId) {
      const row = await db
        .selectFrom('account_passwords')
        .select('hash')
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row?.hash;
    },
    async setPassword(accountId, hash, at) {
      await db
        .insertInto('account_passwords')
        .values({ account_id: accountId, hash, updated_at: at })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ hash, updated_at: at }))
        .execute();
    },
  };
}

/** Sign-in sessions. */
function sessionQueries(db: Kysely<Database>): SessionQueries {
  return {
    async insertSession(row) {
      await db.insertInto('sessions').values(row).execute();
    },
    sessionByHash: (hash) =>
      db.selectFrom('sessions').selectAll().where('hash', '=', hash).executeTakeFirst(),
    async touchSession(id, at, olderThan) {
      await db
        .updateTable('sessions')
        .set({ last_seen_at: at })
        .where('id', '=', id)
        .where('last_seen_at', '<', olderThan)
        .execute();
    },
    sessionsOf: (accountId) =>
      db
        .selectFrom('sessions')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .orderBy('id')
        .execute(),
    async revokeSessions(accountId, at, which = {}) {
      let q = db
        .updateTable('sessions')
        .set({ revoked_at: at })
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null);
      if (which.only !== undefined) q = q.where('id', '=', which.only);
      if (which.except !== undefined) q = q.where('id', '!=', which.except);
      return Number((await q.executeTakeFirst()).numUpdatedRows);
    },
    async pruneSessions(accountId, now, idleSince) {
      await db
        .deleteFrom('sessions')
        .where('account_id', '=', accountId)
        .where((eb) =>
          eb.or([
            eb('revoked_at', 'is not', null),
            eb('expires_at', '<=', now),
            eb('last_seen_at', '<=', idleSince),
          ]),
        )
        .execute();
    },
  };
}

/** Failed sign-ins, by key. */
function failureQueries(db: Kysely<Database>): FailureQueries {
  return {
    async lockFailureKeys(keys) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter) || keys.length === 0) return;
      // One statement, locks taken by hash order: two attempts sharing keys never wait on each other in a cycle.
      const values = sql.join(keys.map((key) => sql`(${key})`));
      await sql`select pg_advisory_xact_lock(${SIGN_IN_LOCK_CLASS}, hashtext(k))
                from (values ${values}) as v(k) order by hashtext(k)`.execute(db);
    },
    failuresSince: (keys, since) =>
      keys.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('sign_in_failures')
            .select(['key', 'failed_at'])
            .where('key', 'in', [...keys])
            .where('failed_at', '>', since)
            .orderBy('failed_at')
            .execute(),
    async addFailures(keys, at, attempt) {
      if (keys.length === 0) return;
      await db
        .insertInto('sign_in_failures')
        .values(keys.map((key) => ({ key, failed_at: at, attempt })))
        .execute();
    },
    async clearAttempt(attempt, keys) {
      let q = db.deleteFrom('sign_in_failures').where('attempt', '=', attempt);
      if (keys) q = q.where('key', 'in', [...keys]);
      await q.execute();
    },
    async clearFailures(key) {
      await db.deleteFrom('sign_in_failures').where('key', '=', key).execute();
    },
    async pruneFailures(before) {
      await db.deleteFrom('sign_in_failures').where('failed_at', '<=', before).execute();
    },
  };
}

/** The session queries over a database or a transaction. */
export function sessionRepo(db: Kysely<Database>): SessionRepo {
  return { ...passwordQueries(db), ...sessionQueries(db), ...failureQueries(db) };
}
