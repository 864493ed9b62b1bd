import type { Db } from '../../db/database.js';
import type { HnswEvent } from './hnsw-partition.js';
import type { PassageIndex } from './passage-index.js';
import { postgresPassageIndex } from './postgres-passage-index.js';
import { sqlitePassageIndex } from './sqlite-passage-index.js';
import type { VectorGraphs } from './vector-graphs.js';

/** Options of createPassageIndex. */
export interface PassageIndexOptions {
  db: Pick<Db, 'kysely' | 'dialect'>;
  /** Rank weight of a passage's breadcrumb (section titles) beside its content's 1; default 2 on SQLite, 1 on PostgreSQL (tuned on SciFact). */
  breadcrumbWeight?: number;
  /** PostgreSQL only: use pgvector when available (default true). */
  pgvector?: boolean;
  /** SQLite only: worker threads a large lexical search is split across (default 1: none). */
  lexicalThreads?: number;
  /** SQLite only: what the HNSW graphs did (loaded, built, saved, failed), for the logs. */
  onGraphEvent?: (event: HnswEvent) => void;
  /** SQLite only: a split lexical search whose reader thread failed (it scanned in the calling thread), for the logs. */
  onLexicalFallback?: (error: unknown) => void;
  /** SQLite only: lexical search through the in-memory index (default false; the server's default is on). */
  lexicalMemory?: boolean;
  /** SQLite only: the in-memory lexical index failed (FTS5 answered), for the logs. */
  onLexicalMemoryFailure?: (error: unknown) => void;
  /**
   * SQLite only: where the HNSW changes of this index's writes go instead of graphs of its own (a background
   * thread's index: the thread serving searches owns the graphs; this index's own searches scan exactly).
   */
  vectorGraphs?: VectorGraphs | undefined;
}

/**
 * The passage index of a database, with the adapter its dialect needs.
 * @example const index = createPassageIndex({ db }); await index.lexicalSearch('refund policy', scope, 20);
 */
export function createPassageIndex(options: PassageIndexOptions): PassageIndex {
  const { db } = options;
  const weight = options.breadcrumbWeight === undefined ? {} : { breadcrumbWeight: options.breadcrumbWeight };
  switch (db.dialect) {
    case 'sqlite':
      return sqlitePassageIndex({
        kysely: db.kysely,
        ...weight,
        vectorIndex: {
          ...(options.onGraphEvent ? { onEvent: options.onGraphEvent } : {}),
          ...(options.vectorGraphs ? { graphs: options.vectorGraphs } : {}),
        },
        ...(options.lexicalThreads === undefined ? {} : { lexicalThreads: options.lexicalThreads }),
        ...(options.onLexicalFallback ? { onLexicalFallback: options.onLexicalFallback } : {}),
        ...(options.lexicalMemory === undefined ? {} : { lexicalMemory: options.lexicalMemory }),
        ...(options.onLexicalMemoryFailure ? { onLexicalMemoryFailure: options.onLexicalMemoryFailure } : {}),
      });
    case 'postgres':
      return postgresPassageIndex({
        kysely: db.kysely,
        ...weight,
        ...(options.pgvector === undefined ? {} : { pgvector: options.pgvector }),
      });
    default: {
      const never: never = db.dialect;
      throw new Error(`no passage index for dialect ${String(never)}`);
    }
  }
}
