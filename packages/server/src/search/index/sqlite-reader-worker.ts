/**
 * A worker thread answering read-only SQL on a connection of its own to the SQLite database file (see
 * sqlite-readers.ts). The statements of one request run in one read transaction: one snapshot, whatever the
 * main connection commits meanwhile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { ReaderReply, ReaderRequest } from './sqlite-readers.js';

/** Prepared statements kept per SQL text (the lexical search sends a handful of shapes). */
const STATEMENTS = 64;

function serve(file: string): void {
  const port = parentPort;
  if (!port) throw new Error('sqlite-reader-worker runs in a worker thread');
  const db = new SQLite(file, { fileMustExist: true });
  db.pragma('query_only = 1');
  db.pragma('busy_timeout = 5000');
  const statements = new Map<string, SQLite.Statement>();
  const prepare = (text: string) => {
    let st = statements.get(text);
    if (!st) {
      st = db.prepare(text);
      statements.set(text, st);
      if (statements.size > STATEMENTS) statements.delete(statements.keys().next().value as string);
    }
    return st;
  };
  const answer = db.transaction((request: ReaderRequest) =>
    request.statements.map((s) => prepare(s.sql).all(...s.params)),
  );
  port.on('message', (request: ReaderRequest) => {
    let reply: ReaderReply;
    try {
      reply = { id: request.id, rows: answer(request) };
    } catch (error) {
      reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}

serve((workerData as { file: string }).file);
