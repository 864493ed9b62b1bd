import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { siblingModule, spawnWorker } from '../../workers/spawn.js';
import { germanParts } from './compounds.js';
import {
  germanLexiconStatus,
  germanNounsLoaded,
  loadGermanNouns,
  unloadGermanNouns,
} from './german-lexicon.js';
import { deriveGermanNouns } from './german-nouns.js';
import type { GermanNounsReply } from './german-nouns-worker.js';
import { queryLanguage } from './query.js';
import { questionTerms } from './terms.js';
import { languageTokens } from './tokens.js';

// The German noun list loaded off the thread that serves requests (issues #36 and #38): the worker's words are
// the synchronous derivation's, word for word; a question never derives it on this thread, a document's tokens
// only as the fallback.

/** The worker's reply, started as german-lexicon.ts starts it. */
function workerWords(): Promise<string> {
  const worker = spawnWorker(siblingModule(import.meta.url, 'german-nouns-worker'), {
    workerData: { nice: 0 },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (reply: GermanNounsReply) =>
      'words' in reply ? resolve(reply.words) : reject(new Error(reply.error)),
    );
    worker.once('error', reject);
  });
}

describe('the German noun list', () => {
  beforeEach(() => unloadGermanNouns());
  // Other files of this test worker find it as a process that met German does.
  afterAll(() => loadGermanNouns());

  it('is the same in the worker as derived on this thread, word for word', async () => {
    const sync = deriveGermanNouns();
    const fromWorker = (await workerWords()).split('\n');
    expect(fromWorker.length).toBe(sync.length);
    expect(sync.length).toBeGreaterThan(100_000);
    expect(fromWorker.every((word, i) => word === sync[i])).toBe(true);
    expect(new Set(sync).size).toBe(sync.length); // each word once
  });

  it('loads in a worker thread: this thread only builds the set, and the cuts are the synchronous ones', async () => {
    const before = germanLexiconStatus().loads;
    const loading = loadGermanNouns();
    expect(germanLexiconStatus().state).toBe('loading');
    expect(loadGermanNouns()).toBe(loading); // one load, joined
    await loading;
    const status = germanLexiconStatus();
    expect(status).toMatchObject({
      state: 'loaded',
      loads: { worker: before.worker + 1, sync: before.sync },
    });
    const loaded = germanNounsLoaded();
    expect(loaded).toBeDefined();
    expect([...(loaded ?? [])]).toEqual(deriveGermanNouns());
    expect(germanParts('versandkostenfrei')).toEqual(['versand', 'kosten', 'frei']);
  });

  it('derives it on this thread only where nothing async is possible: a document’s tokens written first', () => {
    const before = germanLexiconStatus().loads;
    expect(languageTokens('Die Rückgabefrist beträgt 30 Tage.', 'de')).toEqual(
      expect.arrayContaining(['ruckgabefrist', 'ruckgab', 'frist']),
    );
    expect(germanLexiconStatus()).toMatchObject({ state: 'loaded', loads: { sync: before.sync + 1 } });
  });

  it('never derives it on this thread for a question: the load starts, the question is searched by every cut', async () => {
    const before = germanLexiconStatus().loads;
    const found = queryLanguage('Wie lange ist die Rückgabefrist?', 'de');
    expect(germanLexiconStatus().state).toBe('loading');
    expect(found?.language).toBe('de');
    // Meanwhile every cut of its long word: the parts a document writes apart are among them.
    expect(found?.tokens).toEqual(expect.arrayContaining(['ruckgabefrist', 'ruckgab', 'frist', 'gabefrist']));
    expect(questionTerms('Wie lange ist die Rückgabefrist?', 'de')).toEqual(['ruckgabefrist']);
    await vi.waitUntil(() => germanLexiconStatus().state === 'loaded', { timeout: 20_000, interval: 20 });
    expect(germanLexiconStatus().loads).toEqual({ worker: before.worker + 1, sync: before.sync });
    // Once loaded, the one rule of documents: the lexicon's cut, not every cut.
    const after = queryLanguage('Wie lange ist die Rückgabefrist?', 'de');
    expect(after?.tokens.sort()).toEqual(['frist', 'ruckgab', 'ruckgabefrist']);
    expect(questionTerms('Wie lange ist die Rückgabefrist?', 'de')).toEqual([
      'ruckgabefrist',
      'ruckgab',
      'frist',
    ]);
  });

  it('derives it on this thread when the worker cannot give the words (it ends without them)', async () => {
    const before = germanLexiconStatus().loads;
    // A module that posts nothing: the worker ends at once.
    await loadGermanNouns({ entry: siblingModule(import.meta.url, 'fold') });
    expect(germanLexiconStatus()).toMatchObject({
      state: 'loaded',
      loads: { worker: before.worker, sync: before.sync + 1 },
    });
    expect(germanParts('zahlungsarten')).toEqual(['zahlung', 'arten']);
  });
});
