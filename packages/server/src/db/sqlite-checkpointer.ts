import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { siblingModule, spawnWorker } from '../workers/spawn.js';

/** What the main thread asks the checkpoint worker. */
export type CheckpointRequest = { type: 'checkpoint' } | { type: 'close' };
/** What the checkpoint worker answers: the WAL's frames and how many of them are now in the database file. */
export type CheckpointReply =
  | { type: 'done'; log: number; checkpointed: number }
  | { type: 'failed'; error: string };

/** Tuning of a {@link SqliteCheckpointer}. */
export interface CheckpointerOptions {
  /** WAL frames not yet in the database file that start a checkpoint: SQLite's own autocheckpoint, 1000. */
  frames?: number;
  /** How often the WAL's state is read, in ms (default 50). */
  intervalMs?: number;
}

/** The main connection's own autocheckpoint, a multiple of `frames`: the net if the worker falls behind. */
const FALLBACK_FACTOR = 4;

/** Looks without a `-shm` file after which the main connection checkpoints by itself again. */
const MISSING_LOOKS = 20;

/** The wal-index is in the machine's own byte order. */
const LITTLE_ENDIAN = endianness() === 'LE';

/** `SQLITE_WAL_INDEX_VERSION`, the first field of the wal-index header. */
const WAL_INDEX_VERSION = 3007000;

/**
 * WAL checkpoints of a SQLite database file, run by a worker thread on a connection of its own instead of
 * inside a commit of the main connection. By default SQLite checkpoints when a commit leaves 1000 frames
 * (pages) in the WAL, on the committing connection: copying them and two fsyncs, ~4 ms every ~80 chat
 * messages on a 2-core machine, during which the main thread answers nothing.
 *
 * Here a timer reads the WAL's state from the wal-index header in the `-shm` file (its documented layout:
 * https://www.sqlite.org/walformat.html) and, once `frames` wait to be copied, the worker (started on first
 * need, so short-lived handles never start one) runs a PASSIVE checkpoint, which waits for no reader or
 * writer. The main connection's own autocheckpoint is raised to 4× `frames`. It is the net that bounds the
 * WAL (~16 MB with 4 KiB pages): a WAL is started over only by the first commit after a checkpoint that
 * copied all of it, which a worker's checkpoint under steady writes rarely is (commits land meanwhile), so
 * the main connection still checkpoints at 4000 frames, then only copying what the worker has not. If the
 * worker fails or the header cannot be read, the main connection checkpoints by itself at `frames` again.
 */
export class SqliteCheckpointer {
  /** Checkpoints the worker has run. */
  checkpoints = 0;
  private readonly frames: number;
  private readonly timer: NodeJS.Timeout;
  private shm: number | undefined;
  /** Looks in a row that found no `-shm` file. */
  private missing = 0;
  private readonly header = Buffer.alloc(136);
  private worker: Worker | undefined;
  private workerExit: Promise<void> | undefined;
  private running = false;
  private stopped = false;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly file: string,
    options: CheckpointerOptions = {},
  ) {
    this.frames = options.frames ?? 1000;
    sqlite.pragma(`wal_autocheckpoint = ${this.frames * FALLBACK_FACTOR}`);
    this.timer = setInterval(() => this.look(), options.intervalMs ?? 50);
    this.timer.unref();
  }

  /** Frames in the WAL not yet copied into the database file, per the wal-index header (undefined when unreadable). */
  pendingFrames(): number | undefined {
    if (this.shm === undefined) {
      try {
        this.shm = openSync(`${this.file}-shm`, 'r');
      } catch {
        return undefined; // not made yet: the main connection has not read the database in WAL mode
      }
    }
    if (readSync(this.shm, this.header, 0, this.header.length, 0) < this.header.length) return undefined;
    const h = this.header;
    // Two copies of the 48-byte header: unequal while a commit is writing them (read again next time).
    if (h.compare(h, 0, 48, 48, 96) !== 0) return undefined;
    const u32 = (offset: number) => (LITTLE_ENDIAN ? h.readUInt32LE(offset) : h.readUInt32BE(offset));
    if (u32(0) !== WAL_INDEX_VERSION || h[12] !== 1) return Number.NaN;
    const mxFrame = u32(16);
    const nBackfill = u32(96);
    return Math.max(0, mxFrame - nBackfill);
  }

  /** Stops checkpointing: the worker closes its connection (before the main one closes, so that one is last). */
  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  /** Ends the worker as a crash would (tests). */
  async crash(): Promise<void> {
    await this.worker?.terminate();
  }

  private look(): void {
    if (this.running || this.stopped) return;
    let pending: number | undefined;
    try {
      pending = this.pendingFrames();
    } catch (error) {
      this.fallBack(`the WAL's state could not be read: ${(error as Error).message}`);
      return;
    }
    if (Number.isNaN(pending)) {
      this.fallBack('the -shm file has a wal-index layout this server does not know');
      return;
    }
    if (pending === undefined && this.shm === undefined && ++this.missing >= MISSING_LOOKS) {
      this.fallBack('the database has no -shm file to read the WAL state from');
      return;
    }
    if (pending === undefined || pending < this.frames) return;
    this.running = true;
    this.workerNow().postMessage({ type: 'checkpoint' } satisfies CheckpointRequest);
  }

  private workerNow(): Worker {
    if (this.worker) {
      this.worker.ref();
      return this.worker;
    }
    const worker = spawnWorker(siblingModule(import.meta.url, 'sqlite-checkpoint-worker'), {
      workerData: { file: this.file },
    });
    this.worker = worker;
    this.workerExit = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (reply: CheckpointReply) => {
      this.running = false;
      worker.unref();
      if (reply.type === 'done') this.checkpoints++;
      else this.fallBack(`a checkpoint failed: ${reply.error}`);
    });
    worker.on('error', (error) => this.fallBack(`the checkpoint worker failed: ${error.message}`));
    worker.on('exit', (code) => {
      if (!this.stopped) this.fallBack(`the checkpoint worker exited with code ${code}`);
    });
    return worker;
  }

  /** The main connection checkpoints by itself again, at SQLite's default; the worker is ended. */
  private fallBack(why: string): void {
    if (this.stopped) return;
    process.emitWarning(`SQLite checkpoints run on the main thread again: ${why}`, 'ParleyDatabase');
    if (this.sqlite.open) this.sqlite.pragma(`wal_autocheckpoint = ${this.frames}`);
    void this.stop();
  }

  private async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    if (this.shm !== undefined) closeSync(this.shm);
    this.shm = undefined;
    const worker = this.worker;
    const exited = this.workerExit;
    this.worker = undefined;
    if (!worker || !exited) return;
    worker.postMessage({ type: 'close' } satisfies CheckpointRequest);
    // A checkpoint under way finishes first; a worker that does not end within 5 s is ended.
    const timeout = setTimeout(() => void worker.terminate(), 5000);
    await exited;
    clearTimeout(timeout);
  }
}
