import { randomBytes } from 'node:crypto';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { DialectName } from '../db/database.js';
import type { Database, JobsTable } from '../db/schema.js';
import { newId } from '../ids.js';

/** A job row. */
export type JobRow = Selectable<JobsTable>;

/** A failure that retrying will not cure: the job ends `failed` at once. */
export class PermanentJobError extends Error {
  constructor(
    message: string,
    readonly reason: string = 'permanent',
  ) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** What a kind of job does, and its bounds. */
export interface JobHandler {
  /** Runs the job; throw to fail (PermanentJobError: no retry). `signal` aborts at the time bound or on shutdown. */
  run(payload: unknown, context: { signal: AbortSignal; attempt: number; jobId: string }): Promise<void>;
  /** Called once when the job ends `failed` (after its last attempt), to record the outcome elsewhere. */
  onFailed?(payload: unknown, error: { message: string; reason: string }): Promise<void>;
  /** Longest one attempt may run. */
  timeoutMs: number;
  /** Attempts before giving up (transient failures are retried with backoff). */
  maxAttempts: number;
  /** Whether an attempt that runs past `timeoutMs` is tried again (default true). */
  retryTimeouts?: boolean;
}

/** Options of a worker. */
export interface WorkerOptions {
  /** How often an idle worker looks for work. */
  pollMs?: number;
  /** How long a claimed job stays ours without a heartbeat; a crashed process's jobs are reclaimed after it. */
  leaseMs?: number;
  /** Jobs run at the same time by this process. */
  concurrency?: number;
  /** Base and cap of the retry backoff. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  onError?: (error: unknown) => void;
}

/** Settles as `work` does, or rejects with the signal's reason as soon as it aborts, whichever comes first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  });
}

/**
 * A durable job queue in the database: jobs survive restarts, a crashed process's jobs are reclaimed when
 * their lease runs out, transient failures are retried with capped exponential backoff and jitter, every
 * attempt has a time bound, and every job ends `done` or `failed` with a reason.
 */
export function jobQueue(db: Kysely<Database>, dialect: DialectName, clock: () => Date = () => new Date()) {
  const now = () => clock().toISOString();
  const workerId = `w_${randomBytes(6).toString('hex')}`;

  async function claim(kinds: string[], leaseMs: number): Promise<JobRow | undefined> {
    const at = now();
    const until = new Date(clock().getTime() + leaseMs).toISOString();
    const lock = dialect === 'postgres' ? sql`for update skip locked` : sql``;
    const result = await sql<JobRow>`
      update jobs set status = 'running', attempts = attempts + 1, locked_by = ${workerId}, locked_until = ${until}, updated_at = ${at}
      where id = (
        select id from jobs
        where kind in (${sql.join(kinds)})
          and ((status = 'queued' and run_after <= ${at}) or (status = 'running' and locked_until < ${at}))
        order by run_after, id
        limit 1
        ${lock}
      )
      returning *`.execute(db);
    return result.rows[0];
  }

  return {
    workerId,

    /** Adds a job; it runs as soon as a worker is free (or at `runAfter`). */
    async enqueue(
      kind: string,
      payload: unknown,
      options: { runAfter?: Date; tx?: Kysely<Database> } = {},
    ): Promise<string> {
      const id = newId('job');
      const at = now();
      await (options.tx ?? db)
        .insertInto('jobs')
        .values({
          id,
          kind,
          payload: JSON.stringify(payload ?? null),
          status: 'queued',
          attempts: 0,
          run_after: (options.runAfter ?? clock()).toISOString(),
          locked_by: null,
          locked_until: null,
          last_error: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      return id;
    },

    get: (id: string) => db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Runs one claimable job of these kinds, if any; answers whether it found one. */
    async runOne(
      handlers: Record<string, JobHandler>,
      options: WorkerOptions = {},
      stop?: AbortSignal,
    ): Promise<boolean> {
      const leaseMs = options.leaseMs ?? 60_000;
      const job = await claim(Object.keys(handlers), leaseMs);
      if (!job) return false;
      const handler = handlers[job.kind];
      if (!handler) return false;
      const payload: unknown = JSON.parse(job.payload);
      if (job.attempts > handler.maxAttempts) {
        // Every attempt before this one ended with its process (failures end the job at the last one), so
        // running it again would most likely end this process too: it ends failed, unrun.
        const attempts = job.attempts - 1;
        const message = `its last attempt ended with the process that ran it (killed or out of memory), ${attempts} attempts in all`;
        await db
          .updateTable('jobs')
          .set({
            status: 'failed',
            attempts,
            locked_by: null,
            locked_until: null,
            last_error: `crashed: ${message}`,
            updated_at: now(),
          })
          .where('id', '=', job.id)
          .execute();
        await handler.onFailed?.(payload, { message, reason: 'crashed' });
        return true;
      }
      const timeout = AbortSignal.timeout(handler.timeoutMs);
      const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
      // Keep the lease while the attempt runs, so a long job is not taken over by another process.
      const heartbeat = setInterval(
        () => {
          void db
            .updateTable('jobs')
            .set({ locked_until: new Date(clock().getTime() + leaseMs).toISOString() })
            .where('id', '=', job.id)
            .where('locked_by', '=', workerId)
            .execute()
            .catch(() => undefined);
        },
        Math.max(50, Math.floor(leaseMs / 3)),
      );
      heartbeat.unref();
      try {
        // Bounded even when the handler ignores its signal (a hung read or embedder call).
        await untilAborted(handler.run(payload, { signal, attempt: job.attempts, jobId: job.id }), signal);
        await db
          .updateTable('jobs')
          .set({ status: 'done', locked_by: null, locked_until: null, last_error: null, updated_at: now() })
          .where('id', '=', job.id)
          .execute();
      } catch (error) {
        if (stop?.aborted && !timeout.aborted) {
          // Shutting down: give the job back untouched (the attempt does not count).
          await db
            .updateTable('jobs')
            .set({
              status: 'queued',
              attempts: Math.max(0, job.attempts - 1),
              locked_by: null,
              locked_until: null,
              updated_at: now(),
            })
            .where('id', '=', job.id)
            .execute();
          return true;
        }
        const permanent = error instanceof PermanentJobError;
        const timedOut = timeout.aborted;
        const reason = permanent ? error.reason : timedOut ? 'timeout' : 'error';
        const message = timedOut
          ? `the attempt ran longer than ${handler.timeoutMs} ms`
          : error instanceof Error
            ? error.message
            : String(error);
        if (
          permanent ||
          (timedOut && handler.retryTimeouts === false) ||
          job.attempts >= handler.maxAttempts
        ) {
          await db
            .updateTable('jobs')
            .set({
              status: 'failed',
              locked_by: null,
              locked_until: null,
              last_error: `${reason}: ${message}`,
              updated_at: now(),
            })
            .where('id', '=', job.id)
            .execute();
          await handler.onFailed?.(payload, { message, reason });
        } else {
          const base = options.backoffBaseMs ?? 1000;
          const cap = options.backoffMaxMs ?? 300_000;
          const delay = Math.min(cap, base * 2 ** (job.attempts - 1)) * (0.5 + Math.random() / 2);
          await db
            .updateTable('jobs')
            .set({
              status: 'queued',
              run_after: new Date(clock().getTime() + delay).toISOString(),
              locked_by: null,
              locked_until: null,
              last_error: `${reason}: ${message}`,
              updated_at: now(),
            })
            .where('id', '=', job.id)
            .execute();
        }
      } finally {
        clearInterval(heartbeat);
      }
      return true;
    },

    /** Starts polling workers; the answer stops them (in-flight jobs are given back). */
    start(handlers: Record<string, JobHandler>, options: WorkerOptions = {}): () => Promise<void> {
      const stop = new AbortController();
      const pollMs = options.pollMs ?? 500;
      const loops: Promise<void>[] = [];
      for (let i = 0; i < (options.concurrency ?? 1); i++) {
        loops.push(
          (async () => {
            while (!stop.signal.aborted) {
              let found = false;
              try {
                found = await this.runOne(handlers, options, stop.signal);
              } catch (error) {
                options.onError?.(error);
              }
              if (!found && !stop.signal.aborted) {
                // The abort listener goes away with each wait, else every idle poll would leave one behind.
                await new Promise<void>((resolve) => {
                  const onStop = () => {
                    clearTimeout(t);
                    resolve();
                  };
                  const t = setTimeout(() => {
                    stop.signal.removeEventListener('abort', onStop);
                    resolve();
                  }, pollMs);
                  stop.signal.addEventListener('abort', onStop, { once: true });
                });
              }
            }
          })(),
        );
      }
      return async () => {
        stop.abort();
        await Promise.all(loops);
      };
    },
  };
}
/** A job queue. */
export type JobQueue = ReturnType<typeof jobQueue>;
