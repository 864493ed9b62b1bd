import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { DialectName, Notifications } from '../db/database.js';
import { fixedQuery } from '../db/fixed-query.js';
import type { Database } from '../db/schema.js';
import { newId } from '../ids.js';
import { type Logger, silentLogger } from '../logger.js';
import { JobAttempts, type JobRow } from './attempt.js';
import { decodePayload, type JobPayloads, type JobSet } from './registry.js';

export { type JobHandler, PermanentJobError } from './registry.js';

/** A new queued job (compiled once, see fixedQuery). */
const insertJob = fixedQuery(
  5,
  (db, id: string, kind: string, payload: string, runAfter: string, at: string) =>
    db.insertInto('jobs').values({
      id,
      kind,
      payload,
      status: 'queued',
      attempts: 0,
      run_after: runAfter,
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: at,
      updated_at: at,
    }),
);

/** Where and when a job is added. */
export interface EnqueueOptions {
  /** Not before this time (default: now). */
  runAfter?: Date;
  /** The transaction of the change that calls for the job: the job exists only if the change commits. */
  tx?: Kysely<Database>;
}

/** Options of one claim-and-run. */
export interface WorkerOptions {
  /** How long a claimed job stays ours without a heartbeat; a crashed process's jobs are reclaimed after it. */
  leaseMs?: number;
  /** Override every kind's backoff base and cap (tests drive retries faster this way). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
}

/**
 * A durable job queue in the database: jobs survive restarts, a crashed process's jobs are reclaimed when
 * their lease runs out, transient failures are retried with capped exponential backoff and jitter, every
 * attempt has a time bound, and every job ends `done` or `failed` with a reason. `P` maps kinds to payloads
 * ({@link JobPayloads}, which the modules declare; tests of the queue itself use their own).
 */
export interface JobQueue<P extends object = JobPayloads> {
  /** This process's id in `locked_by`. */
  readonly workerId: string;
  /** Adds a job; it runs as soon as a worker is free (or at `runAfter`). Answers its id. */
  enqueue<K extends keyof P & string>(kind: K, payload: P[K], options?: EnqueueOptions): Promise<string>;
  get(id: string): Promise<JobRow | undefined>;
  /** Claims and runs one due job of these kinds, if any; answers whether it found one. `stop` gives it back. */
  runOne(jobs: JobSet, options?: WorkerOptions, stop?: AbortSignal): Promise<boolean>;
  /**
   * Calls `listener` with the kind of each job enqueued from now on (one due now, not one for later), once it
   * can be claimed: on SQLite in this process (a claim waits for the enqueuing transaction on the one
   * connection), on PostgreSQL in every process once its transaction commits (NOTIFY); with `null` when some
   * may have been missed (the listening connection was lost). Answers the unsubscribe. Idle workers wake on
   * it instead of waiting for their next poll.
   */
  onEnqueued?(listener: (kind: string | null) => void): () => void;
  /**
   * Tells this queue's listeners ({@link onEnqueued}) that a job of `kind` was enqueued elsewhere and can be
   * claimed: on SQLite, by another thread of this process through a connection of its own.
   */
  announce?(kind: string | null): void;
}

/** The notification channel of enqueued jobs (PostgreSQL), its payload the job's kind. */
export const JOBS_CHANNEL = 'parley_jobs';

/** How long a claimed job stays a worker's without a heartbeat, unless the worker says otherwise. */
export const DEFAULT_LEASE_MS = 60_000;

/** Who hears of jobs enqueued through a database handle in this process (SQLite: every queue on it). */
const handleListeners = new WeakMap<Kysely<Database>, Set<(kind: string | null) => void>>();

/** The database work behind jobQueue(): claiming, running and settling jobs. */
class DatabaseJobQueue {
  readonly workerId = `w_${randomBytes(6).toString('hex')}`;
  private readonly attempts: JobAttempts;
  private readonly listeners: Set<(kind: string | null) => void>;
  /** Listening on PostgreSQL: the unlisten, once LISTEN was asked for. */
  private listening: Promise<() => Promise<void>> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: () => Date,
    private readonly logger: Logger,
    private readonly notifications: Notifications | undefined,
  ) {
    this.attempts = new JobAttempts(db, clock, this.workerId);
    const shared = handleListeners.get(db) ?? new Set();
    handleListeners.set(db, shared);
    // PostgreSQL: each queue hears its own LISTEN; SQLite: the handle's queues share their listeners.
    this.listeners = notifications ? new Set() : shared;
  }

  onEnqueued(listener: (kind: string | null) => void): () => void {
    this.listeners.add(listener);
    if (this.notifications && !this.listening) {
      // Once listening, a wake: jobs enqueued before then were not heard of.
      this.listening = this.notifications
        .listen(JOBS_CHANNEL, (kind) => this.tell(kind))
        .then((unlisten) => {
          this.tell(null);
          return unlisten;
        });
      this.listening.catch((error: unknown) => {
        this.listening = undefined;
        this.logger.warn({ err: error }, 'could not listen for enqueued jobs: idle workers poll');
      });
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0 || !this.listening) return;
      const listening = this.listening;
      this.listening = undefined;
      void listening.then((unlisten) => unlisten()).catch(() => undefined);
    };
  }

  tell(kind: string | null): void {
    for (const listener of this.listeners) listener(kind);
  }

  private now(): string {
    return this.clock().toISOString();
  }

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<string> {
    const id = newId('job');
    const at = this.now();
    const runAfter = (options.runAfter ?? this.clock()).toISOString();
    await insertJob(options.tx ?? this.db, id, kind, JSON.stringify(payload ?? null), runAfter, at);
    if (!options.runAfter || options.runAfter <= this.clock()) {
      // PostgreSQL: delivered to every process once the transaction commits. SQLite: told now, as a claim
      // on the one connection waits for the enqueuing transaction to end.
      if (this.notifications) await this.notifications.notify(JOBS_CHANNEL, kind, options.tx ?? this.db);
      else this.tell(kind);
    }
    return id;
  }

  get(id: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async runOne(jobs: JobSet, options: WorkerOptions = {}, stop?: AbortSignal): Promise<boolean> {
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    const claimStart = performance.now();
    const job = await this.claim(Object.keys(jobs), leaseMs);
    if (!job) return false;
    const definition = jobs[job.kind];
    if (!definition) return false;
    const log = this.logger.child({ jobId: job.id, kind: job.kind });
    const claimMs = performance.now() - claimStart;
    const decoded = decodePayload(definition, job.payload);
    if (!decoded.ok) {
      // A payload its kind cannot read will not become readable: the job ends failed, unrun, and its
      // kind is not told (it could not make sense of the payload either).
      const attempts = job.attempts;
      await this.attempts.settle(job.id, {
        status: 'failed',
        last_error: `invalid_payload: ${decoded.problem}`,
      });
      log.error({ attempt: attempts, reason: 'invalid_payload' }, `job failed: ${decoded.problem}`);
      return true;
    }
    if (job.attempts > definition.maxAttempts) {
      // Every attempt before this one ended with its process (failures end the job at the last one), so
      // running it again would most likely end this process too: it ends failed, unrun.
      const attempts = job.attempts - 1;
      const message = `its last attempt ended with the process that ran it (killed or out of memory), ${attempts} attempts in all`;
      await this.attempts.fail(
        job,
        definition,
        decoded.payload,
        { message, reason: 'crashed' },
        log,
        attempts,
      );
      return true;
    }
    const runStart = performance.now();
    await this.attempts.run(job, definition, decoded.payload, { ...options, leaseMs, log }, stop);
    const attemptMs = performance.now() - runStart;
    log.debug({ claimMs, attemptMs, waitedMs: Date.now() - Date.parse(job.run_after) }, 'job attempt ended');
    return true;
  }

  private async claim(kinds: string[], leaseMs: number): Promise<JobRow | undefined> {
    const at = this.now();
    const until = new Date(this.clock().getTime() + leaseMs).toISOString();
    const lock = this.dialect === 'postgres' ? sql`for update skip locked` : sql``;
    const result = await sql<JobRow>`
      update jobs set status = 'running', attempts = attempts + 1, locked_by = ${this.workerId}, locked_until = ${until}, updated_at = ${at}
      where id = (
        select id from jobs
        where kind in (${sql.join(kinds)})
          and ((status = 'queued' and run_after <= ${at}) or (status = 'running' and locked_until < ${at}))
        order by run_after, id
        limit 1
        ${lock}
      )
      returning *`.execute(this.db);
    return result.rows[0];
  }
}

/** The jobs of one kind not yet ended: how many wait, how many run, and when the first in line was due. */
export interface JobQueueDepth {
  kind: string;
  queued: number;
  running: number;
  /** The earliest `run_after` of its queued jobs (ISO time; in the future when none is due yet); null: none queued. */
  oldestQueuedAt: string | null;
}

/**
 * The queue's depth by kind (kinds without queued or running jobs are left out): one read-only grouped query
 * over the jobs not yet ended (the `jobs_claim` index), for metrics.
 */
export async function jobQueueDepth(db: Kysely<Database>): Promise<JobQueueDepth[]> {
  const rows = await db
    .selectFrom('jobs')
    .select(['kind', 'status'])
    .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min('run_after').as('first')])
    .where('status', 'in', ['queued', 'running'])
    .groupBy(['kind', 'status'])
    .execute();
  const depth = new Map<string, JobQueueDepth>();
  for (const row of rows) {
    const entry = depth.get(row.kind) ?? { kind: row.kind, queued: 0, running: 0, oldestQueuedAt: null };
    if (row.status === 'queued') {
      entry.queued = Number(row.count);
      entry.oldestQueuedAt = row.first;
    } else {
      entry.running = Number(row.count);
    }
    depth.set(row.kind, entry);
  }
  return [...depth.values()];
}

/** The durable job queue ({@link JobQueue}) of a database; `logger` gets a child per job with `{ jobId, kind }`. */
export function jobQueue<P extends object = JobPayloads>(
  db: Kysely<Database>,
  dialect: DialectName,
  clock: () => Date = () => new Date(),
  logger: Logger = silentLogger,
  notifications?: Notifications,
): JobQueue<P> {
  const queue = new DatabaseJobQueue(db, dialect, clock, logger, notifications);
  return {
    workerId: queue.workerId,
    enqueue: (kind, payload, options) => queue.enqueue(kind, payload, options),
    get: (id) => queue.get(id),
    runOne: (jobs, options, stop) => queue.runOne(jobs, options, stop),
    onEnqueued: (listener) => queue.onEnqueued(listener),
    announce: (kind) => queue.tell(kind),
  };
}
