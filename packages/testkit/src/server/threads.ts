/**
 * The kernel's view of a process's threads (Linux): each thread's nice value as `/proc/<pid>/task/<tid>/stat`
 * gives it, and CPU hogs, threads that keep every core busy, so a test can see which work the kernel runs
 * first when the cores are contended.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** Whether this system shows threads' nice values under /proc (Linux). */
export const canReadThreadNice = process.platform === 'linux';

/** The nice value of each thread of `pid` (default: this process), by kernel thread id. */
export function threadNices(pid: number = process.pid): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    // Fields after the command name (which may hold spaces) start at the 3rd, "state"; nice is the 19th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    nices.set(Number(tid), Number(fields[19 - 3]));
  }
  return nices;
}

/** The threads of `after` that `before` did not have, with their nice values. */
export function newThreads(before: Map<number, number>, after: Map<number, number>): Map<number, number> {
  return new Map([...after].filter(([tid]) => !before.has(tid)));
}

/**
 * Starts `count` threads (default: one per core) that spin at normal priority until `stop()` is called; resolves
 * once all spin.
 */
export async function cpuHogs(
  count: number = availableParallelism(),
): Promise<{ stop: () => Promise<void> }> {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const source = `
    const { workerData, parentPort } = require('node:worker_threads');
    const flag = new Int32Array(workerData);
    parentPort.postMessage('spinning');
    while (Atomics.load(flag, 0) === 0) {}
  `;
  const hogs = Array.from(
    { length: count },
    () => new Worker(source, { eval: true, workerData: flag.buffer }),
  );
  const ended = Promise.all(
    hogs.map((hog) => new Promise<void>((resolve) => hog.once('exit', () => resolve()))),
  );
  await Promise.all(hogs.map((hog) => new Promise<void>((resolve) => hog.once('message', () => resolve()))));
  return {
    /** Ends the hogs (safe to call twice). */
    stop: async () => {
      Atomics.store(flag, 0, 1);
      await ended;
    },
  };
}
