/*
 * The background thread's entry (started by background-thread.ts): the services built again on a database
 * connection of its own, with only the indexing and crawl workers running. What its writes change in the
 * HNSW graphs, its log lines and its metrics go to the thread serving requests; enqueued jobs come from it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadSigningSecret } from './access/signing-secret.js';
import {
  type BackgroundThreadData,
  type MainMessage,
  relayLogger,
  relayMetrics,
  type ThreadMessage,
} from './background-thread-protocol.js';
import { blobStoreFromConfig } from './blob/from-config.js';
import { openDatabase } from './db/database.js';
import { remoteGraphs } from './search/index/index.js';
import { closeLexicalMemory } from './search/index/lexical-memory-client.js';
import { closeSqliteReaders } from './search/index/sqlite-readers.js';
import { buildServices, embedderPrecision } from './services.js';
import { lowerThreadPriority } from './workers/thread-priority.js';

async function run(port: NonNullable<typeof parentPort>, data: BackgroundThreadData): Promise<void> {
  const send = (message: ThreadMessage) => port.postMessage(message);
  const { config } = data;
  // The kernel runs the requests first: this thread (and the readers and embedders it starts) at the indexing nice.
  lowerThreadPriority(config.search.indexingNice);
  const logger = relayLogger(send, config.logLevel, { thread: 'background' });
  const db = await openDatabase(data.database);
  let nextSync = 0;
  const syncs = new Map<number, () => void>();
  const graphs =
    db.dialect === 'sqlite'
      ? remoteGraphs(
          (change) => send({ type: 'graph', change }),
          () =>
            new Promise<void>((resolve) => {
              nextSync += 1;
              syncs.set(nextSync, resolve);
              send({ type: 'graph-sync', id: nextSync });
            }),
        )
      : undefined;
  const services = buildServices({
    config,
    db,
    blobs: await blobStoreFromConfig(config),
    signingSecret: await loadSigningSecret(db.kysely, config.signingSecret),
    logger,
    version: data.version,
    metrics: data.metrics ? relayMetrics(send) : undefined,
    embedderPrecision: await embedderPrecision(db, config),
    background: { share: 'crawl-and-index', foreground: data.foreground, vectorGraphs: graphs },
  });
  const stop = services.runner.start();
  let stopping = false;
  const close = async () => {
    await stop();
    await services.embedder?.close();
    await services.reader.close();
    await services.pageRenderer?.close();
    await closeSqliteReaders(db.kysely);
    await closeLexicalMemory(db.kysely);
    await db.close();
  };
  port.on('message', (message: MainMessage) => {
    if (message.type === 'enqueued') services.jobs.announce?.(message.kind);
    else if (message.type === 'graph-synced') {
      syncs.get(message.id)?.();
      syncs.delete(message.id);
    } else if (message.type === 'stop' && !stopping) {
      stopping = true;
      void close()
        .catch((error: unknown) =>
          logger.error({ err: error }, 'the background thread did not close cleanly'),
        )
        .then(() => {
          send({ type: 'stopped' });
          port.close();
        });
    }
  });
  send({ type: 'ready' });
}

const port = parentPort;
if (port) {
  run(port, workerData as BackgroundThreadData).catch((error: unknown) => {
    port.postMessage({
      type: 'failed',
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    } satisfies ThreadMessage);
    port.close();
  });
}
