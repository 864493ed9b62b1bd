/**
 * A worker thread's CPU priority. Background work (indexing's embedding runs, document and page reading)
 * lowers its own thread's priority, so that when both cores are busy the kernel gives a core to the
 * request-serving threads at once (a search's query embedding, the event loop) rather than sharing it.
 *
 * On Linux a nice value belongs to one thread, not the process: a thread finds its kernel id through
 * `/proc/thread-self` (`PID/task/TID`) and sets it with `setpriority(PRIO_PROCESS, TID, nice)` (`os.setPriority`);
 * threads it starts afterwards (onnxruntime's pool threads) inherit it. Raising a nice value needs no
 * privilege; lowering it again does, so a thread's priority is only ever lowered. Elsewhere (macOS, Windows:
 * no per-thread nice through Node) nothing changes.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The nice values Linux knows: 0 is the default, 19 the lowest priority. */
export const MAX_NICE = 19;

/** This thread's kernel id, on Linux; undefined elsewhere. */
export function kernelThreadId(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Lowers this thread's CPU priority to `nice` (0–19; a thread already at `nice` or lower keeps its own).
 * Returns the thread's kernel id and its nice value now, or undefined where a thread's priority cannot be
 * set (not Linux, no `/proc`, or the kernel refused): the thread then runs as before.
 *
 * @example lowerThreadPriority(19) // { tid: 4242, nice: 19 } on Linux; undefined on macOS
 */
export function lowerThreadPriority(nice: number): { tid: number; nice: number } | undefined {
  const tid = kernelThreadId();
  if (tid === undefined) return undefined;
  try {
    const wanted = Math.max(0, Math.min(MAX_NICE, Math.trunc(nice)));
    if (getPriority(tid) < wanted) setPriority(tid, wanted);
    return { tid, nice: getPriority(tid) };
  } catch {
    return undefined;
  }
}
