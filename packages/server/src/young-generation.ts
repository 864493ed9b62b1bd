import { subscribe } from 'node:diagnostics_channel';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';

/** Node flags by which an operator sizes the young generation themselves. */
const SEMI_SPACE_FLAG = /--(?:max|min)[-_]semi[-_]space[-_]size|--semi[-_]space[-_]growth[-_]factor/;

/** Whether the operator sized the young generation (`node --max-semi-space-size=…`, or in NODE_OPTIONS). */
export function youngGenerationSized(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return execArgv.some((arg) => SEMI_SPACE_FLAG.test(arg)) || SEMI_SPACE_FLAG.test(nodeOptions ?? '');
}

/** MB of one semi-space now: V8 reports the young generation ("new_space") as both. */
export function semiSpaceMb(): number {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  return space ? space.space_size / 2 / 2 ** 20 : 0;
}

/**
 * Keeps V8's young generation at its initial size, two semi-spaces of 1 MB, for the life of the process (its
 * worker threads too): answers whether it did. Node lets it grow to 16 MB semi-spaces, 32 MB in all, and a
 * `parley serve` start grows it all the way, memory then held for good. `--max-semi-space-size` is read only
 * as the process starts (and V8 raises a growth factor below 2 given on the command line to 2), but the growth
 * factor is read each time V8 would grow the young generation: set to 1 now (and again after each worker
 * thread starts, whose isolate sets it back to 2), it stops the growth. Measured with
 * the same CPU time per GiB transferred, chat messages and indexing (bench/README.md, Files transfer) for ~25 MB
 * less memory. Nothing is changed when the operator sized the young generation with node flags (see
 * {@link youngGenerationSized}): `NODE_OPTIONS=--max-semi-space-size=16` gives Node's default back.
 */
export function holdYoungGeneration(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
): boolean {
  if (youngGenerationSized(execArgv, nodeOptions)) return false;
  const hold = () => setFlagsFromString('--semi-space-growth-factor=1');
  hold();
  // Each new V8 isolate (a worker thread's) sets a factor below 2 back to 2, for every isolate: set again once
  // the worker runs.
  subscribe('worker_threads', (message) => {
    (message as { worker: Worker }).worker.once('online', hold);
  });
  return true;
}
