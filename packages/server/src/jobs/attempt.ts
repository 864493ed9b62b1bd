import type { Kysely, Selectable, Updateable } from 'kysely';
import { fixedQuery } from '../db/fixed-query.js';
import type { Database } from '../db/schema.js';
import type { JobsTable } from '../db/tables/platform.js';
import type { Logger } from '../logger.js';
import { type JobBackoff, type JobDefinition, type JobFailure, PermanentJobError } from './registry.js';

/* One attempt of a claimed job: run within its time bound while its lease is kept, then settled done, queued
 * for a retry after a backoff, given back on shutdown, or failed (its kind told). */

/** A job row. */
export type JobRow = Selectable<JobsTable>;

/** A job ended done and let go of (every job: compiled once, see fixedQuery). */
const settleDone = fixedQuery(2, (db, id: string, at: string) =>
  db
    .updateTable('jobs')
    .set({ status: 'done', last_error: null, locked_by: null, locked_until: null, updated_at: at })
    .where('id', '=', id),
);

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

/** The wait before attempt `attempts + 1`: exponential from `baseMs`, capped at `maxMs`, 50–100 % of it. */
export function backoffDelay(attempts: number, backoff: JobBackoff): number {
  return Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempts - 1)) * (0.5 + Math.random() / 2);
}

/** How an attempt that threw (or ran out of time) is reported. */
function failureOf(error: unknown, timedOut: boolean, timeoutMs: number): JobFailure {
  const permanent = error instanceof PermanentJobError;
  return {
    reason: permanent ? error.reason : timedOut ? 'timeout' : 'error',
    message: timedOut
      ? `the attempt ran longer than ${timeoutMs} ms`
      : error instanceof Error
        ? error.message
        : String(error),
  };
}

/** Options of one attempt: the worker's, with the lease settled and the job's logger. */
export interface AttemptOptions {
  leaseMs: number;
  log: Logger;
  /** Override the kind's backoff base and cap (tests drive retries faster this way). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
}

/** Runs and settles the attempts of the jobs a queue's worker claimed. */
export class JobAttempts {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => Date,
    private readonly workerId: string,
  ) {}

  private now(): string {
    return this.clock().toISOString();
  }

  /** Writes a claimed job's outcome and lets go of it. */
  async settle(id: string, values: Updateable<JobsTable>): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ ...values, locked_by: null, locked_until: null, updated_at: this.now() })
      .where('id', '=', id)
      .execute();
  }

  /** Ends a job `failed` and tells its kind (a failure to record it elsewhere is logged with the job). */
  async fail(
    job: JobRow,
    definition: JobDefinition,
    payload: unknown,
    failure: JobFailure,
    log: Logger,
    attempts: number = job.attempts,
  ): Promise<void> {
    await this.settle(job.id, {
      status: 'failed',
      attempts,
      last_error: `${failure.reason}: ${failure.message}`,
    });
    log.warn({ attempt: attempts, reason: failure.reason }, `job failed: ${failure.message}`);
    try {
      await definition.onFailed?.(payload, failure);
    } catch (error) {
      log.error({ err: error }, 'recording the failure of the job failed');
    }
  }

  /** Keeps the lease while an attempt runs, so a long job is not taken over by another process. */
  private keepLease(id: string, leaseMs: number, log: Logger): NodeJS.Timeout {
    const heartbeat = setInterval(
      () => {
        void this.db
          .updateTable('jobs')
          .set({ locked_until: new Date(this.clock().getTime() + leaseMs).toISOString() })
          .where('id', '=', id)
          .where('locked_by', '=', this.workerId)
          .execute()
          .catch((error: unknown) => log.warn({ err: error }, 'could not extend the lease of the job'));
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    heartbeat.unref();
    return heartbeat;
  }

  /** Runs one attempt of a claimed job within its time bound and records how it ended. */
  async run(
    job: JobRow,
    definition: JobDefinition,
    payload: unknown,
    options: AttemptOptions,
    stop: AbortSignal | undefined,
  ): Promise<void> {
    const { log } = options;
    const timeout = AbortSignal.timeout(definition.timeoutMs);
    const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
    const heartbeat = this.keepLease(job.id, options.leaseMs, log);
    try {
      // Bounded even when the handler ignores its signal (a hung read or embedder call).
      await untilAborted(
        definition.run(payload, { signal, attempt: job.attempts, jobId: job.id, log }),
        signal,
      );
      await settleDone(this.db, job.id, this.now());
    } catch (error) {
      if (stop?.aborted && !timeout.aborted) {
        // Shutting down: give the job back untouched (the attempt does not count).
        await this.settle(job.id, { status: 'queued', attempts: Math.max(0, job.attempts - 1) });
        return;
      }
      await this.failed(job, definition, payload, options, error, timeout.aborted);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Records an attempt that threw or ran out of time: the job ends failed, or waits for its retry. */
  private async failed(
    job: JobRow,
    definition: JobDefinition,
    payload: unknown,
    options: AttemptOptions,
    error: unknown,
    timedOut: boolean,
  ): Promise<void> {
    const { log } = options;
    const failure = failureOf(error, timedOut, definition.timeoutMs);
    const final =
      error instanceof PermanentJobError ||
      (failure.reason === 'timeout' && definition.retryTimeouts === false) ||
      job.attempts >= definition.maxAttempts;
    if (final) {
      await this.fail(job, definition, payload, failure, log);
      return;
    }
    const delay = backoffDelay(job.attempts, {
      baseMs: options.backoffBaseMs ?? definition.backoff.baseMs,
      maxMs: options.backoffMaxMs ?? definition.backoff.maxMs,
    });
    await this.settle(job.id, {
      status: 'queued',
      run_after: new Date(this.clock().getTime() + delay).toISOString(),
      last_error: `${failure.reason}: ${failure.message}`,
    });
    log.info(
      { attempt: job.attempts, reason: failure.reason, retryInMs: Math.round(delay) },
      `job attempt failed, will retry: ${failure.message}`,
    );
  }
}
