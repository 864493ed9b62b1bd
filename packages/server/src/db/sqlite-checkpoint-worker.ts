/**
 * A worker thread that checkpoints a SQLite database's WAL on a connection of its own (see
 * sqlite-checkpointer.ts): copying committed pages into the database file, and the two fsyncs around that,
 * happen here instead of inside a commit on the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { CheckpointReply, CheckpointRequest } from './sqlite-checkpointer.js';

function serve(file: string): void {
  const port = parentPort;
  if (!port) throw new Error('sqlite-checkpoint-worker runs in a worker thread');
  const db = new SQLite(file, { fileMustExist: true });
  port.on('message', (request: CheckpointRequest) => {
    if (request.type === 'close') {
      db.close();
      port.close();
      return;
    }
    let reply: CheckpointReply;
    try {
      // PASSIVE: copies what no reader still needs, waiting for no one (the main connection keeps committing).
      const [row] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
      reply = { type: 'done', log: row?.log ?? 0, checkpointed: row?.checkpointed ?? 0 };
    } catch (error) {
      reply = { type: 'failed', error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}

serve((workerData as { file: string }).file);
