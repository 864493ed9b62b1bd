import { siblingModule, spawnWorker } from '../../workers/spawn.js';
import { deriveGermanNouns } from './german-nouns.js';
import type { GermanNounsReply, GermanNounsSetup } from './german-nouns-worker.js';

/**
 * The German noun list of a process (issues #36 and #38): the set compounds.ts cuts German words by, ~13 MB, held
 * only by a process that met German text. Deriving it (german-nouns.ts) takes 0.3–2 s of CPU, so it is loaded
 * off the thread that serves requests, before it is needed:
 * - at server start, in the background, when the database holds a German file (server.ts);
 * - by the indexing job, before it writes the passages of a German file (modules/knowledge/indexer.ts);
 * - at the first German question of a process that has none loaded (`load: 'async'` in compounds.ts).
 * {@link loadGermanNouns} derives the words in a worker thread, which hands them back as one string; this thread
 * only builds the set, a slice at a time ({@link SET_SLICE} words, then other callbacks may run).
 *
 * {@link germanNounsNow} is the synchronous fallback, where nothing async is possible (a caller that writes a
 * German document's tokens without loading first, a worker that cannot start): the same words, derived on
 * this thread. Both count in {@link germanLexiconStatus}, which tells whether and how the list was loaded.
 */

/** Words added to the set between two turns of the event loop (~1–13 ms each on a 2-core machine at load 4.5). */
const SET_SLICE = 10_000;

let nouns: Set<string> | undefined;
let loading: Promise<void> | undefined;
/** Counts unloadGermanNouns calls: a load started before one keeps nothing. */
let generation = 0;
const loads = { worker: 0, sync: 0 };

/** Whether and how this process loaded the German noun list. */
export interface GermanLexiconStatus {
  state: 'unloaded' | 'loading' | 'loaded';
  /** Words in the list (0 until loaded). */
  words: number;
  /** Lists derived in a worker thread and on this thread (the fallback), since the process started. */
  loads: { worker: number; sync: number };
}

/** Whether and how this process loaded the German noun list (see the file comment). */
export function germanLexiconStatus(): GermanLexiconStatus {
  const state = nouns ? 'loaded' : loading ? 'loading' : 'unloaded';
  return { state, words: nouns?.size ?? 0, loads: { ...loads } };
}

/** The German noun list when it is loaded, else undefined (nothing started). */
export function germanNounsLoaded(): Set<string> | undefined {
  return nouns;
}

/** Whether text of `language` (an ISO 639-1 code or BCP-47 tag) is cut by the German noun list. */
export function needsGermanNouns(language: string | null | undefined): boolean {
  return language?.toLowerCase().split(/[-_]/)[0] === 'de';
}

/**
 * The German noun list, loaded off this thread: a worker thread derives the words (at CPU priority `nice` on
 * Linux, 0–19), this thread builds the set. Resolves once it is loaded; at once when it already is; a load
 * already running is joined (its `nice` kept). Never rejects: a worker that cannot start or fails leaves the
 * list to the synchronous derivation, on this thread. `entry`: the worker's module (tests: one that fails).
 * @example await loadGermanNouns({ nice: 19 }); germanLexiconStatus().state // 'loaded'
 */
export function loadGermanNouns(options: { nice?: number | undefined; entry?: URL } = {}): Promise<void> {
  if (nouns) return Promise.resolve();
  const started = generation;
  const entry = options.entry ?? siblingModule(import.meta.url, 'german-nouns-worker');
  loading ??= fromWorker(entry, options.nice ?? 0).then(
    (words) => publish(words, started),
    () => {
      if (started !== generation) return;
      try {
        germanNounsNow();
      } catch {
        // No list at all (the dictionary unreadable): the next caller that needs it derives it and fails there.
        loading = undefined;
      }
    },
  );
  return loading;
}

/** The German noun list, derived on this thread when it is not loaded yet (the fallback: see the file comment). */
export function germanNounsNow(): Set<string> {
  if (nouns) return nouns;
  const set = new Set(deriveGermanNouns());
  loads.sync++;
  nouns = set;
  loading = undefined;
  return set;
}

/**
 * Forgets the loaded list, as if this process had never met German (tests of the loading itself; they load it
 * again after). A load still running ends without keeping its list.
 */
export function unloadGermanNouns(): void {
  generation++;
  nouns = undefined;
  loading = undefined;
}

/**
 * Builds the set from the worker's words a slice at a time; a list loaded meanwhile (the fallback) stays, and a
 * load from before {@link unloadGermanNouns} keeps nothing.
 */
async function publish(words: string, started: number): Promise<void> {
  const set = new Set<string>();
  const current = () => started === generation && nouns === undefined;
  // Cut a slice at a time too: splitting the ~1.7 MB at once alone held the thread ~40 ms.
  for (let at = 0; at < words.length; ) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    if (!current()) return;
    for (let n = 0; n < SET_SLICE && at < words.length; n++) {
      const end = words.indexOf('\n', at);
      const stop = end === -1 ? words.length : end;
      set.add(words.slice(at, stop));
      at = stop + 1;
    }
  }
  if (!current()) return;
  loads.worker++;
  nouns = set;
  loading = undefined;
}

/** The folded words from a worker thread, joined by '\n'. */
function fromWorker(entry: URL, nice: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = spawnWorker(entry, {
      workerData: { nice } satisfies GermanNounsSetup,
      stdout: false,
      stderr: false,
    });
    // Kept referenced: an awaited load (an indexing job in a CLI command) must not let the process end meanwhile; it
    // holds a process that has nothing else to do at most as long as the load takes.
    worker.once('message', (reply: GermanNounsReply) => {
      if ('words' in reply) resolve(reply.words);
      else reject(new Error(reply.error));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the German noun worker exited with code ${code}`)));
  });
}
