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
    const address = await app.listen({ port: config.port, host: config.host });
    const timer = setInterval(() => {
      app?.services.logs
        .prune()
        .catch((error: unknown) => app?.log.warn({ err: error }, 'log pruning failed'));
    }, 3600_000);
    timer.unref();
    // Expired files and queued blob deletions: every minute, on every process (the work is idempotent).
    // Blobs no record holds (a crash or a lost race between a blob and its record): once an hour, since
    // it lists the whole store, and only once older than any upload could still be running (with S3 a
    // multipart object is dated from when its upload began), so no blob about to be recorded is taken.
    const orphanAgeMs = Math.max(config.files.uploadUrlTtlMs, config.connections.uploadTimeoutMs) + 600_000;
    let sweeps = 0;
    const sweeper = setInterval(() => {
      const files = app?.services.files;
      const orphans = sweeps++ % 60 === 0;
      files
        ?.expire()
        .then(() => files.collectGarbage())
        .then(() => files.sweepTemporary())
        .then(() => (orphans ? files.sweepOrphans(orphanAgeMs) : 0))
        .catch((error: unknown) => app?.log.warn({ err: error }, 'file expiry sweep failed'));
    }, 60_000);
    sweeper.unref();
    const built = app;
    return {
      app: built,
      db,
      url: address,
      bootstrap: result,
      async close() {
        clearInterval(timer);
        clearInterval(sweeper);
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
