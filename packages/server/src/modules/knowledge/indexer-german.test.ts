import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../testkit/src/server/files-api.js';
import { uploadIndexed } from '../../../../testkit/src/server/files-indexing.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { testDatabases } from '../../../../testkit/src/server/harness.js';
import {
  germanLexiconStatus,
  loadGermanNouns,
  unloadGermanNouns,
} from '../../search/language/german-lexicon.js';
import { holdsGermanFile } from '../../server.js';

/**
 * The indexing job loads the German noun list off the thread that serves requests (issues #36, #38): a German
 * file's passages are written once the worker thread's list is loaded, never deriving it on this thread; a
 * process that indexes no German loads none. And the start-up's question, whether the database holds a German
 * file, on SQLite and PostgreSQL.
 */

const GERMAN = `# Versand

Ab einem Bestellwert von 60 Euro liefern wir versandkostenfrei. Die Rückgabefrist beträgt 30 Tage.
`;
const ENGLISH = `# Shipping

Delivery is free from 80 EUR; returns are accepted within 14 days of delivery.
`;

describe.each(testDatabases())('the German noun list at indexing ($name)', ({ url: databaseUrl }) => {
  const t = useTestApp({ workers: true, ...(databaseUrl ? { databaseUrl } : {}) });
  // As a process that never met German (other files of this test worker may have loaded it), and loaded again after.
  beforeAll(() => unloadGermanNouns());
  afterAll(() => loadGermanNouns());

  it('is not loaded for an English file, and the database holds no German file', async () => {
    await uploadIndexed(t, 'shipping.md', ENGLISH);
    expect(germanLexiconStatus().state).toBe('unloaded');
    expect(await holdsGermanFile(t.db.kysely)).toBe(false);
  });

  it('is loaded in the worker thread before a German file’s passages are written, never on this thread', async () => {
    const before = germanLexiconStatus().loads;
    await uploadIndexed(t, 'versand.md', GERMAN, { metadata: { language: 'de' } });
    expect(germanLexiconStatus()).toMatchObject({
      state: 'loaded',
      loads: { worker: before.worker + 1, sync: before.sync },
    });
    expect(await holdsGermanFile(t.db.kysely)).toBe(true);
    // Its compounds were written cut: a question's part finds them.
    const res = await api(
      t,
      'GET',
      `/v1/files/search?query=${encodeURIComponent('Wie hoch sind die Kosten?')}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const hits = (res.json() as { passages: Array<{ file: { key: string } }> }).passages;
    expect(hits[0]?.file.key).toBe('versand.md');
  });
});
