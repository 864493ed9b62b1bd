import type { Logger } from '../logger.js';
import type { ForegroundGate } from './foreground.js';
import type { JobQueue } from './queue.js';
import { type JobDefinition, type JobSet, jobSet } from './registry.js';

/** Workers of this process for some kinds of jobs (a pool apart, so one kind's long jobs never delay another's). */
export interface WorkerPool {
  /** Its name in log lines. */
  name: string;
  jobs: JobDefinition[];
  /** Jobs of the pool run at the same time by this process. */
  concurrency: number;
  /**
   * How often an idle worker looks for work. It also wakes as soon as a job of its kinds is enqueued (when
   * the queue tells: {@link JobQueue.onEnqueued}), so this bounds only how late a job is seen that nobody
   * announced: one whose `runAfter` came, a retry, another process's on SQLite.
   */
  pollMs: number;
  /** How long a claimed job stays ours without a heartbeat (default: the queue's). */
  leaseMs?: number;
  /**
   * Background work: before claiming each job a worker yields to the process's foreground requests
   * (jobs/foreground.ts), waiting at most the gate's bound.
   */
  background?: Pick<ForegroundGate, 'yield'>;
}

/** What a periodic task is given. */
export interface PeriodicContext {
  /** The runner's logger with `{ task: name }`. */
  log: Logger;
}

/** Work done again and again on every process (it must be idempotent): expiry, garbage, retention. */
export interface PeriodicTask {
  /** Its name in log lines. */
  name: string;
  everyMs: number;
  /** First run this long after it is scheduled (default `everyMs`). */
  firstAfterMs?: number;
  run(context: PeriodicContext): Promise<unknown>;
}

/**
 * The background work of a process: pools of job workers and periodic tasks, started and stopped together.
 * Periodic tasks are due by the injected clock, so a test can advance its clock and call {@link tick}.
 */
export interface JobRunner {
  /** Adds a pool of workers, started with the runner; answers the pool's jobs (tests drive them with `runOne`). */
  workers(pool: WorkerPool): JobSet;
  /** Adds a periodic task. */
  schedule(task: PeriodicTask): void;
  /**
   * Runs every periodic task that is due by the clock, one after another in the order they were scheduled;
   * a task that fails is logged with its name and the others still run. Ticks never overlap.
   */
  tick(): Promise<void>;
  /** Starts the workers and the periodic tasks; the answer stops them (in-flight jobs are given back). */
  start(): () => Promise<void>;
}

/** How often a started runner looks for due periodic tasks. */
export const PERIODIC_CHECK_MS = 1_000;

/**
 * What wakes a pool's idle workers: a job of its kinds enqueued. `count` moves with each wake, so a worker
 * that looked for work before a wake and found none does not sleep through it.
 */
class Alarm {
  count = 0;
  private sleepers = new Set<() => void>();

  /**
   * One job enqueued (`all` false): one idle worker wakes for it (the others would each claim in vain; a busy
   * one sees `count` move and looks too). `all`: jobs may have been missed, every idle worker wakes.
   */
  ring(all: boolean): void {
    this.count++;
    for (const wake of this.sleepers) {
      wake();
      if (!all) return;
    }
  }

  /** Resolves after `ms`, at the next ring, or as soon as `stop` aborts (its listeners go with each wait). */
  sleep(ms: number, stop: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        stop.removeEventListener('abort', wake);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      stop.addEventListener('abort', wake, { once: true });
      this.sleepers.add(wake);
    });
  }
}

/** One worker of a pool: claims and runs jobs until stopped; when none is due, sleeps `pollMs` or until woken. */
async function work(
  queue: JobQueue,
  logger: Logger,
  pool: WorkerPool,
  jobs: JobSet,
  alarm: Alarm,
  stop: AbortSignal,
): Promise<void> {
  const options = pool.leaseMs !== undefined ? { leaseMs: pool.leaseMs } : {};
  while (!stop.aborted) {
    const rung = alarm.count;
    let found = false;
    try {
      await pool.background?.yield(stop);
      found = await queue.runOne(jobs, options, stop);
    } catch (error) {
      logger.error({ err: error, pool: pool.name }, 'job worker failed');
    }
    if (!found && !stop.aborted && alarm.count === rung) await alarm.sleep(pool.pollMs, stop);
  }
}

/** A periodic task with the time it is next due (ms). */
interface ScheduledTask {
  task: PeriodicTask;
  due: number;
}

/** Runs the tasks due by the clock, one after another; a failure is logged and the others still run. */
async function runDue(tasks: ScheduledTask[], clock: () => Date, logger: Logger): Promise<void> {
  for (const entry of tasks) {
    const at = clock().getTime();
    if (entry.due > at) continue;
    entry.due = at + entry.task.everyMs;
    const log = logger.child({ task: entry.task.name });
    try {
      const result = await entry.task.run({ log });
      log.debug({ result }, `periodic task ${entry.task.name} done`);
    } catch (error) {
      log.error({ err: error }, `periodic task ${entry.task.name} failed`);
    }
  }
}

/** The {@link JobRunner} of a queue. */
export function jobRunner(deps: {
  queue: JobQueue;
  clock: () => Date;
  logger: Logger;
  /** How often a started runner looks for due periodic tasks (default {@link PERIODIC_CHECK_MS}). */
  checkMs?: number;
}): JobRunner {
  const { queue, clock, logger } = deps;
  const pools: Array<{ pool: WorkerPool; jobs: JobSet; alarm: Alarm }> = [];
  const tasks: ScheduledTask[] = [];
  let ticking: Promise<void> = Promise.resolve();
  let busy = false;

  function tick(): Promise<void> {
    ticking = ticking.then(async () => {
      busy = true;
      try {
        await runDue(tasks, clock, logger);
      } finally {
        busy = false;
      }
    });
    return ticking;
  }

  return {
    workers(pool) {
      const jobs = jobSet(...pool.jobs);
      pools.push({ pool, jobs, alarm: new Alarm() });
      return jobs;
    },

    schedule(task) {
      tasks.push({ task, due: clock().getTime() + (task.firstAfterMs ?? task.everyMs) });
    },

    tick,

    start() {
      const stop = new AbortController();
      // A kind enqueued wakes the pools that run it; null (some may have been missed) wakes every pool.
      const unsubscribe = queue.onEnqueued?.((kind) => {
        for (const { jobs, alarm } of pools) if (kind === null || kind in jobs) alarm.ring(kind === null);
      });
      const loops = pools.flatMap(({ pool, jobs, alarm }) =>
        Array.from({ length: pool.concurrency }, () => work(queue, logger, pool, jobs, alarm, stop.signal)),
      );
      // A tick still running when the next check comes is not queued behind: the check is skipped.
      const check = setInterval(() => {
        if (!busy) void tick();
      }, deps.checkMs ?? PERIODIC_CHECK_MS);
      check.unref();
      return async () => {
        clearInterval(check);
        unsubscribe?.();
        stop.abort();
        await Promise.all([...loops, ticking]);
      };
    },
  };
}
