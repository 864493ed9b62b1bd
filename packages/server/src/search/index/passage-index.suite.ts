import { afterAll, beforeAll, describe } from 'vitest';
import { seedBot } from '../../../../testkit/src/server/seed-bot.js';
import { type FileOptions, seedFile } from '../../../../testkit/src/server/seed-file.js';
import type { Db } from '../../db/database.js';

export { type FileOptions, seedBot, seedFile };

import { createPassageIndex } from './create.js';
import type { PassageIndex } from './passage-index.js';
import { type PassageIndexSuiteOptions, passageSuite } from './passage-index-suite/kit.suite.js';
import { lexicalCases } from './passage-index-suite/lexical.suite.js';
import { scopeAndVectorCases } from './passage-index-suite/scope.suite.js';
import { storageCases } from './passage-index-suite/storage.suite.js';
import { writingCases } from './passage-index-suite/writing.suite.js';

export type { PassageIndexSuiteOptions };

/**
 * The behaviour every PassageIndex adapter shares, run against a real database. `open` answers a database
 * with every migration applied and no passages; the suite closes it.
 */
export function runPassageIndexSuite(
  name: string,
  open: () => Promise<Db>,
  options: PassageIndexSuiteOptions,
): void {
  describe(`PassageIndex suite: ${name}`, () => {
    let db: Db;
    let index: PassageIndex;

    beforeAll(async () => {
      db = await open();
      index = options.index ? options.index.make(db) : createPassageIndex({ db });
    });
    afterAll(async () => {
      if (db) await options.index?.close(db);
      await db?.close();
    });

    const suite = passageSuite(() => ({ db, index }), options);
    writingCases(suite);
    lexicalCases(suite);
    scopeAndVectorCases(suite);
    storageCases(suite);
  });
}
