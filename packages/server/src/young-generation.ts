import { subscribe } from 'node:diagnostics_channel';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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
 * Semi-space MB of worker threads: what Node lets a young generation grow to by default, which the document
 * readers' parsing needs (PDFs took ~15% more CPU time with 1 MB semi-spaces; the same with this).
 */
export const WORKER_SEMI_SPACE_MB = 16;

/**
 * Keeps the main thread's V8 young generation at its initial size, two semi-spaces of 1 MB, for the life of the
 * process, and starts worker threads at {@link WORKER_SEMI_SPACE_MB}; answers whether it did. Node lets a young
 * generation grow to 16 MB semi-spaces, 32 MB in all, and a `parley serve` start grows the main thread's all the
 * way, memory then held for good. Transfers measured the same CPU time with 1 MB; requests that allocate more
 * spend more in GC (about 3% of the CPU time while indexing, 5–9% for live streams with 100 listeners;
 * docs/benchmarks/files-transfer.md). `--max-semi-space-size` is read only as a process starts, but V8 reads
 * the growth factor each time it would grow a young generation, and the minimum size as each isolate (worker
 * thread) is made. A growth factor of 1 stops the growth; V8 raises one below 2 to 2 when it makes an isolate
 * (and when given on the command line), so it is set again once each worker thread is online; a main-thread GC in
 * the moment between the two may grow it one step (2 MB), which V8 shrinks back at a GC while allocation is slow
 * (under 1 MB/s, an idle server). Nothing is changed
 * when the operator sized the young generation with node flags (see {@link youngGenerationSized}):
 * `NODE_OPTIONS=--max-semi-space-size=16` gives Node's default back.
 */
export function holdYoungGeneration(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
): boolean {
  if (youngGenerationSized(execArgv, nodeOptions)) return false;
  const hold = () => setFlagsFromString('--semi-space-growth-factor=1');
  hold();
  setFlagsFromString(`--min-semi-space-size=${WORKER_SEMI_SPACE_MB}`);
  subscribe('worker_threads', (message) => {
    (message as { worker: Worker }).worker.once('online', hold);
  });
  return true;
}

/**
 * Bytes of transfer buffers after which {@link releaseTransferBuffers} runs a scavenge.
 * Every 2 MiB: at 8 MiB, V8 still ran ~110 full (mark-compact) collections per 3 uploads of 1 GiB, its background
 * threads burning 30–60% of a core, and uploads fell to ~0.4× a bare server in such runs; at 2 MiB, 7 (docs/benchmarks/files-transfer.md,
 * Files transfer).
 */
export const SCAVENGE_EVERY_BYTES = 2 * 1024 * 1024;

type Scavenge = (options: { type: 'minor' }) => void;
let scavenge: Scavenge | null | undefined;
let sinceScavenge = 0;

/**
 * V8's `gc` function, exposed (`--expose-gc`) in a context of its own and hidden again from contexts made after;
 * null where V8 does not give it.
 */
function exposeScavenge(): Scavenge | null {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as Scavenge) : null;
  } catch {
    return null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * Counts `bytes` of buffers a transfer has passed on, and every {@link SCAVENGE_EVERY_BYTES} of them (over all
 * transfers) runs a scavenge, the young generation's GC (a fraction of a millisecond at 1 MB semi-spaces). Node
 * copies each piece of a request body into a new buffer, and a file stream reads into new ones: their memory,
 * outside V8's heap, is freed only when a GC finds them dead. With nothing else allocating much, V8 waits for
 * tens of MB of them (its external memory limit) before collecting, so a large upload or download held ~35 MB
 * of dead buffers; scavenged every 8 MB it held about 15, every 2 MB less (docs/benchmarks/files-transfer.md).
 */
export function releaseTransferBuffers(bytes: number): void {
  sinceScavenge += bytes;
  if (sinceScavenge < SCAVENGE_EVERY_BYTES) return;
  sinceScavenge = 0;
  scavenge ??= exposeScavenge();
  scavenge?.({ type: 'minor' });
}
