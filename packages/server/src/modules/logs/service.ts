import type { LogEntry } from '@parley/protocol';
import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import { decodeCursor, type Page, toPage } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { type Logger, silentLogger } from '../../logger.js';
import type { BotsService } from '../bots/service.js';
import { type LogRow, logsRepo } from './repo.js';
import { REQUEST_LOG_LIMITS, WriteBehind, type WriteBehindLimits } from './write-behind.js';

/** One finished request, as the HTTP layer reports it. */
export interface RequestRecord {
  botId: string;
  requestId: string;
  operationId: string | null;
  method: string;
  path: string;
  statusCode: number;
  durationMs: number;
  errorMessage?: string | undefined;
}

function toEntry(row: LogRow): LogEntry {
  return {
    id: row.id,
    timestamp: row.timestamp,
    level: row.level as LogEntry['level'],
    message: row.message,
    requestId: row.request_id,
    operationId: row.operation_id,
    method: row.method,
    path: row.path,
    statusCode: row.status_code,
    durationMs: row.duration_ms,
  };
}

/** A page query of a bot's request log. */
export interface LogQuery {
  nextToken?: string | undefined;
  pageSize?: number | undefined;
  timeStart?: string | undefined;
  timeEnd?: string | undefined;
  level?: string | undefined;
}

/**
 * The per-bot structured request log: written after each request about a bot, read by `GET /bots/{id}/logs`.
 * Written behind the requests ({@link WriteBehind}: one insert per 200 rows or 100 ms); every read of it here
 * writes what waits first, so a request's line is readable as soon as the request has answered.
 */
export interface LogsService {
  /** Buffers one finished request's line for its bot's log; resolves at once and never rejects. */
  record(r: RequestRecord): Promise<void>;
  /** A page of a bot's log, newest first (`log.read` on the bot). */
  list(actor: Actor, botId: string, query: LogQuery): Promise<Page<LogEntry>>;
  /** Deletes log lines older than the retention period (a periodic task); answers how many went. */
  prune(): Promise<number>;
  /** Writes the lines recorded so far (never rejects: a failed write is logged and retried). */
  flush(): Promise<void>;
  /** Writes what waits, then writes each later line at once (the app closes). */
  close(): Promise<void>;
  /** The batches and rows written and dropped so far. */
  readonly writes: WriteBehind<LogRow>['stats'];
}

/** The {@link LogsService} of a database; lines are kept `retentionDays`. */
export function logsService(deps: {
  db: Kysely<Database>;
  clock: () => Date;
  bots: BotsService;
  retentionDays: number;
  /** Where a failed write of the log is reported. */
  logger?: Logger | undefined;
  /** The write-behind's batch size, delay and bounds (tests). */
  limits?: WriteBehindLimits | undefined;
}): LogsService {
  const { db, clock } = deps;
  const repo = logsRepo(db);
  const writer = new WriteBehind<LogRow>(
    (rows) => repo.insertMany(rows),
    deps.logger ?? silentLogger,
    'bot request log',
    deps.limits ?? REQUEST_LOG_LIMITS,
  );
  return {
    writes: writer.stats,
    async record(r) {
      const level = r.statusCode >= 500 ? 'error' : r.statusCode >= 400 ? 'warn' : 'info';
      // No NUL: PostgreSQL's text refuses it, and one such row would fail its whole batch.
      const message = `${r.method} ${r.path} ${r.statusCode}${r.errorMessage ? `: ${r.errorMessage}` : ''}`
        .slice(0, 2000)
        .replaceAll('\0', '');
      writer.add({
        id: newId('log'),
        bot_id: r.botId,
        timestamp: clock().toISOString(),
        level,
        message,
        request_id: r.requestId,
        operation_id: r.operationId,
        method: r.method,
        path: r.path,
        status_code: r.statusCode,
        duration_ms: Math.round(r.durationMs * 1000) / 1000,
      });
    },

    async list(actor, botId, query) {
      await deps.bots.get(actor, botId);
      authorize(actor, 'log.read');
      const limit = query.pageSize ?? 50;
      await writer.flush();
      const rows = await repo.list({
        botId,
        from: query.timeStart ? new Date(query.timeStart).toISOString() : undefined,
        to: query.timeEnd ? new Date(query.timeEnd).toISOString() : undefined,
        level: query.level,
        limit,
        after: decodeCursor(query.nextToken, 'id:desc'),
      });
      const page = toPage(rows, limit, 'id:desc', (r) => [r.timestamp, r.id]);
      return { items: page.items.map(toEntry), ...(page.nextToken ? { nextToken: page.nextToken } : {}) };
    },

    async prune() {
      const before = new Date(clock().getTime() - deps.retentionDays * 86_400_000).toISOString();
      await writer.flush();
      const result = await repo.pruneBefore(before);
      return Number(result.numDeletedRows);
    },

    flush: () => writer.flush(),
    close: () => writer.close(),
  };
}
