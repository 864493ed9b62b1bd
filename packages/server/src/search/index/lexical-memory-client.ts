/**
 * The main thread's side of the in-memory lexical index (lexical-memory-worker.ts): one worker per database
 * handle, started at the first search, which reads the database's passages in the background (FTS5 answers
 * until it has). A search it cannot answer (still reading, far behind, a phrase of several tokens, the worker
 * failed or died) answers undefined, and the caller asks FTS5; a worker that died is started again at the next
 * search.
 */
import type { Kysely } from 'kysely';
import { PerHandle, sqliteFileOf } from '../../db/per-handle.js';
import type { Database } from '../../db/schema.js';
import { WorkerChannel } from '../../workers/channel.js';
import { siblingModule } from '../../workers/spawn.js';
import type { MemoryHit } from './lexical-memory.js';

/** A search asked of the worker. */
export interface MemoryRequest {
  id: number;
  kind: 'search';
  botId: string;
  /** The query's terms (queryTerms), each searched as one phrase. */
  terms: string[];
  breadcrumbWeight: number;
  tileWeight: number;
  k: number;
}

/** Asks whether the worker has read every change (tests, benchmarks). */
export interface MemoryStatusRequest {
  id: number;
  kind: 'status';
}

/** Asks the worker to end (tests: code 1, as a crash). */
export interface MemoryStop {
  kind: 'stop';
  code: number;
}

/** Why the worker did not answer a search (FTS5 answers it). */
export type MemoryMiss = 'building' | 'behind' | 'phrase';

/** The worker's answer: passage seqs and scores, best first; or why not; or the error. */
export type MemoryReply =
  | { id: number; ok: true; seqs: number[]; scores: number[] }
  | { id: number; ok: true; miss: MemoryMiss }
  | { id: number; ok: true; status: { caughtUp: boolean; passages: number } }
  | { id: number; ok: false; message: string };

/** A search, without the request id. */
export type MemoryQuestion = Omit<MemoryRequest, 'id' | 'kind'>;

/** The in-memory lexical index of one database file, in its worker. */
export class LexicalMemory {
  private channel: WorkerChannel<MemoryReply> | undefined;
  private closed = false;
  /** Searches answered by the worker, and those left to FTS5 by reason (metrics, tests, benchmarks). */
  readonly counts = { answered: 0, building: 0, behind: 0, phrase: 0, failed: 0 };

  constructor(
    private readonly file: string,
    /** Told when the worker failed or died (the search went to FTS5), for the logs. */
    private readonly onFailure?: (error: unknown) => void,
  ) {}

  /** The best `k` passages of the bot, best first; undefined when FTS5 must answer (see the file comment). */
  async search(question: MemoryQuestion): Promise<MemoryHit[] | undefined> {
    let reply: MemoryReply;
    try {
      reply = await this.request({ kind: 'search', ...question });
    } catch (error) {
      this.counts.failed++;
      this.onFailure?.(error);
      return undefined;
    }
    if (!reply.ok) {
      this.counts.failed++;
      this.onFailure?.(new Error(reply.message));
      return undefined;
    }
    if ('miss' in reply) {
      this.counts[reply.miss]++;
      return undefined;
    }
    if (!('seqs' in reply)) return undefined;
    this.counts.answered++;
    return reply.seqs.map((seq, i) => ({ seq, score: reply.scores[i] as number }));
  }

  /** Resolves once the worker holds every passage the database has (started if need be); tests, benchmarks. */
  async settled(timeoutMs = 120_000): Promise<number> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const reply = await this.request({ kind: 'status' });
      if (reply.ok && 'status' in reply && reply.status.caughtUp) return reply.status.passages;
      if (Date.now() > until) throw new Error('the in-memory lexical index did not catch up in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Ends the worker; later searches answer undefined. */
  async close(): Promise<void> {
    this.closed = true;
    await this.stop(0);
  }

  /** Ends the worker as a crash would (tests); the next search starts another. */
  async crash(): Promise<void> {
    await this.stop(1);
  }

  private async stop(code: number): Promise<void> {
    const worker = this.channel?.worker;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    // Held until it has exited: an unreferenced worker would let the process end with this await pending.
    worker.ref();
    worker.postMessage({ kind: 'stop', code } satisfies MemoryStop);
    await exited;
  }

  private request(
    message: Omit<MemoryRequest, 'id'> | Omit<MemoryStatusRequest, 'id'>,
  ): Promise<MemoryReply> {
    if (this.closed) return Promise.reject(new Error('the in-memory lexical index is closed'));
    return (this.channel ?? this.start()).request(message);
  }

  private start(): WorkerChannel<MemoryReply> {
    const channel: WorkerChannel<MemoryReply> = new WorkerChannel(
      siblingModule(import.meta.url, 'lexical-memory-worker'),
      {
        label: 'the in-memory lexical index',
        workerData: { file: this.file },
        // id 0: the worker failed to read the database in the background (FTS5 answers until it can).
        onUnanswered: (reply) => {
          if (reply.id === 0 && !reply.ok) this.onFailure?.(new Error(reply.message));
        },
        onEnd: () => {
          if (this.channel === channel) this.channel = undefined;
        },
      },
    );
    this.channel = channel;
    return channel;
  }
}

const perDatabase = new PerHandle<Promise<LexicalMemory | undefined>>();

/**
 * The in-memory lexical index of a database handle (made on first call; later calls share it), or undefined
 * when the database has no file (in memory, temporary).
 */
export function lexicalMemoryOf(
  db: Kysely<Database>,
  onFailure?: (error: unknown) => void,
): Promise<LexicalMemory | undefined> {
  return perDatabase.of(db, async () => {
    const file = await sqliteFileOf(db);
    return file ? new LexicalMemory(file, onFailure) : undefined;
  });
}

/** At shutdown, before the database closes: ends the in-memory lexical index of a database handle, if any. */
export async function closeLexicalMemory(db: Kysely<Database>): Promise<void> {
  await (await perDatabase.take(db))?.close();
}
