// A second Parley process on the test app's PostgreSQL schema, for the tests of what two processes share.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type ParleyApp } from '../../../server/src/app.js';
import { openDatabase } from '../../../server/src/db/database.js';
import type { TestApp } from './harness.js';

/** Another app instance: its own connection pool and data dir, the same schema, configuration and blob directory. */
export interface SecondProcess {
  app: ParleyApp;
  /** Closes the app and its pool and removes its data dir. */
  close(): Promise<void>;
}

/** Starts a second process beside `a` (a test app on the PostgreSQL server at `url`), ready to serve. */
export async function secondProcess(a: TestApp, url: string): Promise<SecondProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'parley-test-b-'));
  const db = await openDatabase({ url, dataDir, pgSchema: a.pgSchema as string });
  // Same config: same blob directory, same signing secret (kept in the database).
  const app = await buildApp({ config: a.config, db, logger: false });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
