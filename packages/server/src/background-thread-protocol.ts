/* What the thread serving requests and its background thread (background-thread.ts) say to each other. */
import type { Config } from './config/config.js';
import type { OpenDatabaseOptions } from './db/database.js';
import type { Logger } from './logger.js';
import { INDEXING_METRIC_CALLS, type IndexingMetrics } from './metrics/instrument.js';
import type { GraphChange } from './search/index/index.js';

/** What the background thread is started with. */
export interface BackgroundThreadData {
  config: Config;
  /** How the requests side opened its database: the thread opens a connection of its own with the same. */
  database: OpenDatabaseOptions;
  version: string;
  /** The foreground requests in flight, counted by the thread serving them (jobs/foreground.ts). */
  foreground: SharedArrayBuffer;
  /** Whether the app has metrics (PARLEY_METRICS): the thread's indexing is then relayed to them. */
  metrics: boolean;
}

/** A log line's level, as the {@link Logger} has them. */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** One of the {@link IndexingMetrics} calls. */
export type MetricCall = (typeof INDEXING_METRIC_CALLS)[number];

/** From the background thread. */
export type ThreadMessage =
  /** Its services are built and its workers started. */
  | { type: 'ready' }
  /** Its start failed (it ends next). */
  | { type: 'failed'; message: string }
  /** A change its writes made to the HNSW graphs, which the requests side owns. */
  | { type: 'graph'; change: GraphChange }
  /** Answer `graph-synced` once every change sent before is applied. */
  | { type: 'graph-sync'; id: number }
  | { type: 'metric'; call: MetricCall; args: unknown[] }
  | { type: 'log'; level: LogLevel; bindings: Record<string, unknown>; fields: object; message: string }
  /** It stopped as asked: its workers gave their jobs back, its database is closed. */
  | { type: 'stopped' };

/** To the background thread. */
export type MainMessage =
  /** A job of `kind` was enqueued on the requests side's SQLite connection and can be claimed (null: maybe some). */
  { type: 'enqueued'; kind: string | null } | { type: 'graph-synced'; id: number } | { type: 'stop' };

/** pino's numbers for the levels `PARLEY_LOG_LEVEL` takes. */
const LEVEL_RANK: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

/** `fields` as a message can carry them: as they are, or (a function, a socket in them) as JSON would write them. */
function cloneable(fields: object): object {
  try {
    return structuredClone(fields);
  } catch {
    return JSON.parse(
      JSON.stringify(fields, (_key, value: unknown) =>
        value instanceof Error ? { message: value.message, stack: value.stack, name: value.name } : value,
      ),
    ) as object;
  }
}

/**
 * The background thread's {@link Logger}: each line at or above `level` is sent to the requests side, which
 * writes it through the app's logger (its level, redaction and output), with `thread: "background"`.
 */
export function relayLogger(
  send: (message: ThreadMessage) => void,
  level: string,
  bindings: Record<string, unknown> = {},
): Logger {
  const min = LEVEL_RANK[level] ?? LEVEL_RANK.info ?? 30;
  const line =
    (lineLevel: LogLevel) =>
    (fields: object, message: string): void => {
      if ((LEVEL_RANK[lineLevel] ?? 0) < min) return;
      send({ type: 'log', level: lineLevel, bindings, fields: cloneable(fields), message });
    };
  return {
    error: line('error'),
    warn: line('warn'),
    info: line('info'),
    debug: line('debug'),
    child: (more) => relayLogger(send, level, { ...bindings, ...more }),
  };
}

/** The background thread's {@link IndexingMetrics}: each call is sent to the requests side's metrics. */
export function relayMetrics(send: (message: ThreadMessage) => void): IndexingMetrics {
  const relay =
    (call: MetricCall) =>
    (...args: unknown[]) =>
      send({ type: 'metric', call, args });
  return Object.fromEntries(INDEXING_METRIC_CALLS.map((call) => [call, relay(call)])) as IndexingMetrics;
}

/** Applies a relayed metric call to the app's metrics. */
export function applyMetric(metrics: IndexingMetrics, call: MetricCall, args: unknown[]): void {
  (metrics[call] as (...a: unknown[]) => void)(...args);
}
