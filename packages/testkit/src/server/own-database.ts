import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { type Db, openDatabase } from '../../../server/src/db/database.js';
import { dropSchema } from './postgres.js';

/** A database a suite has to itself, and what gives it back. */
export interface OwnDatabase {
  db: Db;
  /** Another connection to the same database (PostgreSQL: the same schema; SQLite: the same folder). */
  another: () => Promise<Db>;
  /** Closes `db` and removes the database (SQLite: its folder; PostgreSQL: its schema). */
  close: () => Promise<void>;
}

/**
 * A fresh database for a suite: SQLite in a temporary folder named after `name`, or, with `url`, a schema of
 * its own on that PostgreSQL (named after `name`, the process and the time, so parallel runs never share tables).
 * @example runQueueSuite('PostgreSQL', () => ownDatabase('jobs', postgresUrl))
 */
export async function ownDatabase(name: string, url?: string): Promise<OwnDatabase> {
  if (url === undefined) {
    const dir = await mkdtemp(join(tmpdir(), `parley-${name}-`));
    const db = await openDatabase({ dataDir: dir });
    return {
      db,
      another: () => openDatabase({ dataDir: dir }),
      close: async () => {
        await db.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `${name}_${process.pid}_${Date.now()}`;
  const open = () => openDatabase({ url, dataDir: tmpdir(), pgSchema: schema });
  const db = await open();
  return {
    db,
    another: open,
    close: async () => {
      await db.close();
      await dropSchema(url, schema);
    },
  };
}

/**
 * Declares, inside a describe, a schema of its own on the PostgreSQL at `url` for that suite (named after `name`,
 * the process and the time, so parallel runs never share tables), dropped after the suite; answers what opens a
 * database in it.
 * @example (url ? describe : describe.skip)('PostgreSQL', () => runSuite(useOwnSchema('passages', url ?? '')))
 */
export function useOwnSchema(name: string, url: string): () => Promise<Db> {
  const schema = `${name}_${process.pid}_${Date.now().toString(36)}`;
  afterAll(() => dropSchema(url, schema));
  return () => openDatabase({ url, dataDir: tmpdir(), pgSchema: schema });
}
