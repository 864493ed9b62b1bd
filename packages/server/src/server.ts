import { readFileSync } from 'node:fs';
import { buildApp, type ParleyApp } from './app.js';
import { type BootstrapResult, bootstrap } from './bootstrap.js';
import type { Config } from './config/config.js';
import { type Db, openDatabase } from './db/database.js';

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

/** Opens the database, bootstraps an empty one, builds the app and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  let app: ParleyApp | undefined;
  try {
    app = await buildApp({ config, db, version: packageVersion(), workers: true });
    const result = await bootstrap({ config, db: db.kysely, services: app.services });
    // The background work (job workers, file expiry and garbage, log and signal retention) runs in the app.
    const address = await app.listen({ port: config.port, host: config.host });
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
