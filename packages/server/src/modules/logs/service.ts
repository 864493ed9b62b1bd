import type { LogEntry } from '@parley/protocol';
import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import { decodeCursor, type Page, toPage } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import type { BotsService } from '../bots/service.js';
import { type LogRow, logsRepo } from './repo.js';

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

/** The per-bot structured request log: written after each request about a bot, read by `GET /bots/{id}/logs`. */
export interface LogsService {
  /** Writes one finished request to its bot's log. */
  record(r: RequestRecord): Promise<void>;
  /** A page of a bot's log, newest first (`log.read` on the bot). */
  list(actor: Actor, botId: string, query: LogQuery): Promise<Page<LogEntry>>;
  /** Deletes log lines older than the retention period (a periodic task); answers how many went. */
  prune(): Promise<number>;
}

/** The {@link LogsService} of a database; lines are kept `retentionDays`. */
export function logsService(deps: {
  db: Kysely<Database>;
  clock: () => Date;
  bots: BotsService;
  retentionDays: number;
}): LogsService {
  const { db, clock } = deps;
  return {
    async record(r) {
      const level = r.statusCode >= 500 ? 'error' : r.statusCode >= 400 ? 'warn' : 'info';
      const message =
        `${r.method} ${r.path} ${r.statusCode}${r.errorMessage ? `: ${r.errorMessage}` : ''}`.slice(0, 2000);
      await logsRepo(db).insert({
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
      const rows = await logsRepo(db).list({
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
      const result = await logsRepo(db).pruneBefore(before);
      return Number(result.numDeletedRows);
    },
  };
}
