import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresTestUrl } from '../../../../testkit/src/server/harness.js';
import { useOwnSchema } from '../../../../testkit/src/server/own-database.js';
import { useTempDirs } from '../../../../testkit/src/server/temp-dirs.js';
import { type Db, openDatabase } from '../../db/database.js';
import { createPassageIndex } from './create.js';
import type { PassageIndex, PassageScope } from './passage-index.js';
import { seedBot, seedFile } from './passage-index.suite.js';
import { sqlitePassageIndex } from './sqlite-passage-index.js';

/**
 * Lexical search per language (issue #38): a file indexed in its language is found by a question in that
 * language whatever its inflection, diacritics, (German) compounds or (Japanese) word boundaries, on every engine; English files
 * and questions are searched as before.
 */
function languageCases(name: string, open: () => Promise<Db>, make: (db: Db) => PassageIndex) {
  describe(`lexical search per language: ${name}`, () => {
    let db: Db;
    let index: PassageIndex;
    const files: Record<string, string> = {};
    let botId = '';

    beforeAll(async () => {
      db = await open();
      index = make(db);
      const owner = await seedBot(db);
      botId = owner.botId;
      const docs: Record<string, [string, string[]]> = {
        de: [
          'de',
          [
            'Eine Rückgabe ist innerhalb von 30 Tagen möglich; die Rückgabefrist beginnt mit der Lieferung.',
            'Wir liefern innerhalb von drei Werktagen nach Deutschland und Österreich.',
            'Die Frist für den Umtausch beträgt zwei Wochen; die Garantie gilt zwei Jahre.',
            'Ab einem Bestellwert von 60 Euro liefern wir versandkostenfrei.',
          ],
        ],
        fr: ['fr', ['Notre café ouvre à huit heures.', 'Les remboursements sont versés sous cinq jours.']],
        ja: ['ja', ['返品期限は商品到着後30日以内です。', '送料は全国一律500円です。']],
        en: ['en', ['Refunds are paid within five days of the return.', 'Our store opens at nine.']],
      };
      for (const [key, [language, texts]] of Object.entries(docs)) {
        const fileId = await seedFile(db, owner);
        files[key] = fileId;
        await index.replaceFilePassages({
          fileId,
          botId,
          language,
          passages: texts.map((content, position) => ({
            position,
            content,
            subtype: 'paragraph',
            breadcrumb: [],
          })),
        });
      }
    });
    afterAll(async () => {
      await db?.close();
    });

    const scope = (): PassageScope => ({ botId, visibility: { kind: 'all' } });
    const first = async (query: string) => {
      const hits = await index.lexicalSearch(query, scope(), 3);
      const top = hits[0];
      if (!top) return undefined;
      const [passage] = await index.getPassages([top.passageId]);
      return { fileId: top.fileId, content: passage?.content };
    };

    it.each([
      ['Wie lange habe ich für Rückgaben Zeit?', 'de', 'Rückgabefrist'],
      ['wie lange ist die ruckgabefrist', 'de', 'Rückgabefrist'],
      ['Liefert ihr auch nach Osterreich?', 'de', 'Österreich'],
      ['À quelle heure ouvre le cafe ?', 'fr', 'café'],
      ['Quand est-ce que je reçois mon remboursement ?', 'fr', 'remboursements'],
      ['返品できますか？', 'ja', '返品期限'],
      ['送料はいくらですか', 'ja', '送料'],
      ['How long do refunds take?', 'en', 'Refunds'],
    ])('%s finds the %s passage', async (query, file, words) => {
      const hit = await first(query);
      expect(hit?.fileId).toBe(files[file]);
      expect(hit?.content).toContain(words);
    });

    it('searches a question too short to tell its language in the language its asker gave', async () => {
      // "Garantien?" alone is no language the detector is sure of: searched as typed, it is not the German stem.
      expect(await index.lexicalSearch('Garantien?', scope(), 3)).toEqual([]);
      const hits = await index.lexicalSearch('Garantien?', scope(), 3, 'de-DE');
      expect(hits[0]?.fileId).toBe(files.de);
    });

    it('finds a German compound the question types by the parts a document writes apart', async () => {
      expect(await index.lexicalSearch('Umtauschfrist?', scope(), 3)).toEqual([]);
      const hits = await index.lexicalSearch('Umtauschfrist?', scope(), 3, 'de');
      const [passage] = await index.getPassages(hits.slice(0, 1).map((h) => h.passageId));
      expect(passage?.content).toContain('Frist für den Umtausch');
    });

    it('finds a German compound a document writes by the parts a question types apart', async () => {
      // Indexed, "versandkostenfrei" is also `versand`, `kost` and `frei` (compounds.ts): the rule of questions.
      const hits = await index.lexicalSearch('Ist der Versand kostenlos?', scope(), 3, 'de');
      const [passage] = await index.getPassages(hits.slice(0, 1).map((h) => h.passageId));
      expect(passage?.content).toContain('versandkostenfrei');
    });

    it('finds nothing for a question whose words are in no document', async () => {
      expect(await index.lexicalSearch('Habt ihr Gutscheine?', scope(), 3)).toEqual([]);
    });
  });
}

const tempDir = useTempDirs('parley-languages-');
languageCases(
  'SQLite (FTS5)',
  async () => openDatabase({ dataDir: await tempDir() }),
  (db) => sqlitePassageIndex({ kysely: db.kysely, lexicalMemory: false }),
);
languageCases(
  'SQLite (in-memory postings)',
  async () => openDatabase({ dataDir: await tempDir() }),
  (db) => sqlitePassageIndex({ kysely: db.kysely, lexicalMemory: true }),
);

const url = postgresTestUrl();
(url ? describe : describe.skip)('PostgreSQL', () => {
  languageCases('PostgreSQL (tsvector)', useOwnSchema('languages', url ?? ''), (db) =>
    createPassageIndex({ db }),
  );
});
