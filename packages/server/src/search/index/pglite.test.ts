import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  sql,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, dbOver, migrate } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { createPassageIndex } from './create.js';
import { runPassageIndexSuite } from './passage-index.suite.js';

/** PGlite has one connection: Kysely's users take turns on it (a transaction keeps it until it ends). */
class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: DatabaseConnection;

  private readonly releases: (() => void)[] = [];

  constructor(private readonly pglite: PGlite) {
    this.connection = {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        const r = await pglite.query<R>(query.sql, query.parameters as unknown[]);
        return {
          rows: r.rows,
          ...(r.affectedRows === undefined ? {} : { numAffectedRows: BigInt(r.affectedRows) }),
        };
      },
      streamQuery() {
        throw new Error('PGlite test dialect: streaming is not supported');
      },
    };
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    let release = () => {};
    const turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = this.queue;
    this.queue = before.then(() => turn);
    await before;
    this.releases.push(release);
    return this.connection;
  }
  async beginTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(): Promise<void> {
    this.releases.shift()?.();
  }
  async destroy(): Promise<void> {
    await this.pglite.close();
  }
}

/** A tiny Kysely dialect over an in-process PGlite. */
function pgliteDialect(pglite: PGlite): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PGliteDriver(pglite),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

/**
 * A fresh cluster's data directory, made once for the file's databases: a start from it skips initdb (a second
 * WebAssembly instance running it, most of a start's time).
 */
let freshCluster: Promise<Blob> | undefined;
const initializedCluster = (): Promise<Blob> =>
  (freshCluster ??= PGlite.create().then(async (pglite) => {
    const dump = await pglite.dumpDataDir('none');
    await pglite.close();
    return dump;
  }));

async function openPGlite(withVector: boolean): Promise<Db> {
  const pglite = await PGlite.create({
    loadDataDir: await initializedCluster(),
    ...(withVector ? { extensions: { vector } } : {}),
  });
  const kysely = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
  await migrate(kysely);
  return dbOver(kysely, 'postgres');
}

// PGlite bundles pgvector: this runs the PostgreSQL adapter's pgvector path, and, without the extension,
// its bytea fallback (also run on a real server by postgres.test.ts).
runPassageIndexSuite('PGlite (tsvector + pgvector)', () => openPGlite(true), { vectorStore: 'pgvector' });
runPassageIndexSuite('PGlite without the vector extension (bytea vectors)', () => openPGlite(false), {
  vectorStore: 'bytea',
});

describe('PGlite passage index', () => {
  // One database for these two looks at the schema: an index set to a model of width 3, no passages.
  let db: Db;
  beforeAll(async () => {
    db = await openPGlite(true);
    await createPassageIndex({ db }).setModel({ id: 'm', dimensions: 3 });
  });
  afterAll(() => db?.close());

  it('stores vectors as pgvector columns of the model’s width', async () => {
    const type = await sql<{ t: string }>`
      select format_type(atttypid, atttypmod) as t from pg_attribute
      where attrelid = 'passage_vectors'::regclass and attname = 'embedding'`.execute(db.kysely);
    expect(type.rows[0]?.t).toBe('vector(3)');
    const hnsw = await sql<{ def: string }>`
      select indexdef as def from pg_indexes where indexname = 'passage_vectors_hnsw'`.execute(db.kysely);
    expect(hnsw.rows[0]?.def).toMatch(/USING hnsw \(embedding .*vector_cosine_ops\)/);
  });

  it('orders vectors by cosine distance through the HNSW index', async () => {
    // An empty table: without a sequential scan the planner shows it can take the index.
    await sql`set enable_seqscan = off`.execute(db.kysely);
    try {
      const plan = await sql<{ 'QUERY PLAN': string }>`
        explain select passage_id from passage_vectors order by embedding <=> '[1,0,0]' limit 10`.execute(
        db.kysely,
      );
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('passage_vectors_hnsw');
    } finally {
      await sql`reset enable_seqscan`.execute(db.kysely);
    }
  });
});
