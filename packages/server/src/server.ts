import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Kysely } from 'kysely';
import { buildApp, type ParleyApp } from './app.js';
import { type BootstrapResult, bootstrap } from './bootstrap.js';
import type { Config } from './config/config.js';
import { type Tightened, tightenPrivateTree } from './data-dir.js';
import { type Db, openDatabase } from './db/database.js';
import type { Database } from './db/schema.js';
import { freezeObjectPrototype } from './harden.js';
import { loadGermanNouns } from './search/language/german-lexicon.js';

/** A running service. */
export interface RunningServer {
  app: ParleyApp;
  db: Db;
  url: string;
  bootstrap: BootstrapResult;
  /** Stops accepting requests, lets in-flight ones finish, closes the database. */
  close(): Promise<void>;
}

/** The package version, for the OpenAPI document and `parley --version`. */
export function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * Tightens the data folder (and a local blob folder outside it) to folders 0700 and files 0600: a folder made
 * by hand, an older Parley or a restored copy may be readable by every local user.
 */
function tightenDataDir(config: Config): Tightened {
  const roots = [config.dataDir];
  const blobs = config.blobStore.kind === 'local' ? config.blobStore.root : undefined;
  if (blobs && relative(config.dataDir, blobs).startsWith('..')) roots.push(blobs);
  const all: Tightened = { paths: [], failed: [] };
  for (const root of roots) {
    const { paths, failed } = tightenPrivateTree(root);
    all.paths.push(...paths.map((path) => (root === config.dataDir ? path : join(root, path))));
    all.failed.push(...failed);
  }
  return all;
}

/** The one log line of what `tightenDataDir` changed (the first 20 paths by name) or could not change. */
function logTightened(log: ParleyApp['log'], dataDir: string, { paths, failed }: Tightened): void {
  if (paths.length > 0) {
    const named = paths.slice(0, 20).join(', ') + (paths.length > 20 ? ` and ${paths.length - 20} more` : '');
    log.warn(
      { dataDir, tightened: paths.length },
      `data folder ${dataDir} was readable by others: tightened ${named} (folders 0700, files 0600)`,
    );
  }
  if (failed.length > 0)
    log.warn(
      { dataDir, failed },
      `could not tighten ${failed.length} path(s) in the data folder to 0700/0600: ${failed[0]?.message}`,
    );
}

/** Whether the database holds a German file (issue #38: its passages' tokens are cut by the German noun list). */
export async function holdsGermanFile(db: Kysely<Database>): Promise<boolean> {
  return (
    (await db.selectFrom('files').select('id').where('language', '=', 'de').limit(1).executeTakeFirst()) !==
    undefined
  );
}

/**
 * Loads the German noun list in the background when the database holds a German file (issues #36, #38): its
 * questions then find it loaded, off the thread that serves them (search/language/german-lexicon.ts). A process
 * whose database holds none never loads it here (nor anywhere until it meets German).
 */
function preloadGermanNouns(config: Config, db: Db, log: ParleyApp['log']): void {
  holdsGermanFile(db.kysely)
    .then((german) => (german ? loadGermanNouns({ nice: config.search.indexingNice }) : undefined))
    .catch((error: unknown) => log.warn({ err: error }, 'could not tell whether a German file is indexed'));
}

/** Opens the database, bootstraps an empty one, builds the app and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const tightened = tightenDataDir(config);
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  let app: ParleyApp | undefined;
  try {
    app = await buildApp({
      config,
      db,
      version: packageVersion(),
      workers: true,
      backgroundThread: config.search.backgroundThread,
    });
    freezeObjectPrototype();
    const log = app.log;
    db.onConnectionError?.((error) =>
      log.warn(
        { err: error },
        'a PostgreSQL connection failed while idle; the pool opens a new one on next use',
      ),
    );
    logTightened(app.log, config.dataDir, tightened);
    const result = await bootstrap({ config, db: db.kysely, services: app.services });
    // The background work (job workers, file expiry and garbage, log and signal retention) runs in the app.
    const address = await app.listen({ port: config.port, host: config.host });
    preloadGermanNouns(config, db, log);
    const built = app;
    return {
      app: built,
      db,
      url: address,
      bootstrap: result,
      async close() {
        await built.close();
        await db.close();
      },
    };
  } catch (error) {
    await app?.close();
    await db.close();
    throw error;
  }
}
