/**
 * Read-only connections to the SQLite database file, each in a worker thread of its own, so that one query
 * split into parts (the lexical search's FTS5 scans by rowid range) uses several cores while the main
 * thread stays free. One pool per database handle, its workers started on first use; a worker that dies
 * fails its waiting requests (the caller runs them in-thread) and is started again on the next request.
 */
import type { Kysely } from 'kysely';
import { PerHandle, sqliteFileOf } from '../../db/per-handle.js';
import type { Database } from '../../db/schema.js';
import { WorkerChannel } from '../../workers/channel.js';
import { siblingModule } from '../../workers/spawn.js';

/** One SQL statement and its parameters. */
export interface ReaderStatement {
  sql: string;
  params: readonly unknown[];
}

/** A request to a reader: its statements run in one read transaction, in order. */
export interface ReaderRequest {
  id: number;
  statements: ReaderStatement[];
}

/** A reader's answer: each statement's rows, or the error that stopped them. */
export type ReaderReply = { id: number; rows: unknown[][] } | { id: number; error: string };

type Reader = WorkerChannel<ReaderReply>;

/** The pool of readers of one database file. */
export class SqliteReaders {
  private readonly readers: (Reader | undefined)[];
  private closed = false;
  /** Requests answered so far (metrics, tests). */
  answered = 0;

  constructor(
    private readonly file: string,
    /** Workers, 2 or more. */
    readonly size: number,
  ) {
    this.readers = Array.from({ length: size }, () => undefined);
  }

  /** Runs `statements` in one read transaction on the least busy reader; resolves with each one's rows. */
  async run(statements: ReaderStatement[]): Promise<unknown[][]> {
    if (this.closed) throw new Error('the SQLite readers are closed');
    let slot = 0;
    for (let i = 0; i < this.size; i++) {
      const reader = this.readers[i];
      if (!reader) {
        slot = i;
        break;
      }
      if (reader.pending < (this.readers[slot]?.pending ?? 0)) slot = i;
    }
    const reader = this.readers[slot] ?? this.start(slot);
    const reply = await reader.request({ statements } satisfies Omit<ReaderRequest, 'id'>);
    if ('error' in reply) throw new Error(reply.error);
    this.answered++;
    return reply.rows;
  }

  /** Ends every worker; later requests fail. */
  async close(): Promise<void> {
    this.closed = true;
    const running = this.readers.filter((r): r is Reader => r !== undefined);
    this.readers.fill(undefined);
    await Promise.all(
      running.map((r) => {
        r.fail('the SQLite readers closed');
        return r.worker.terminate();
      }),
    );
  }

  /** Ends one worker as a crash would (tests). */
  async crash(slot = 0): Promise<void> {
    await this.readers[slot]?.worker.terminate();
  }

  private start(slot: number): Reader {
    const reader: Reader = new WorkerChannel(siblingModule(import.meta.url, 'sqlite-reader-worker'), {
      label: 'SQLite reader',
      workerData: { file: this.file },
      onEnd: () => {
        if (this.readers[slot] === reader) this.readers[slot] = undefined;
        void reader.worker.terminate();
      },
    });
    this.readers[slot] = reader;
    return reader;
  }
}

const perDatabase = new PerHandle<Promise<SqliteReaders | undefined>>();

/**
 * The readers of a database handle, `threads` of them (made on first call; later calls share them), or
 * undefined when `threads` < 2 or the database has no file (in memory, temporary).
 */
export function sqliteReadersOf(db: Kysely<Database>, threads: number): Promise<SqliteReaders | undefined> {
  return perDatabase.of(db, async () => {
    const file = threads < 2 ? undefined : await sqliteFileOf(db);
    return file ? new SqliteReaders(file, threads) : undefined;
  });
}

/** At shutdown, before the database closes: ends the readers of a database handle, if it has any. */
export async function closeSqliteReaders(db: Kysely<Database>): Promise<void> {
  await (await perDatabase.take(db))?.close();
}
