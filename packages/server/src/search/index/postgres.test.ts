import { tmpdir } from 'node:os';
import { afterAll, describe } from 'vitest';
import { postgresTestUrl } from '../../../../testkit/src/server/harness.js';
import { dropSchema } from '../../../../testkit/src/server/postgres.js';
import { openDatabase } from '../../db/database.js';
import { runPassageIndexSuite } from './passage-index.suite.js';

const url = postgresTestUrl();
/** A fresh schema per run, so parallel runs and earlier failures never share tables. */
const schema = `passages_${process.pid}_${Date.now().toString(36)}`;

// The local server has no pgvector, so this runs the bytea fallback; pglite.test.ts runs pgvector.
(url ? describe : describe.skip)('PostgreSQL passage index', () => {
  afterAll(async () => {
    if (url) await dropSchema(url, schema);
  });

  runPassageIndexSuite(
    'PostgreSQL (tsvector, vectors as bytea without pgvector)',
    () => openDatabase({ url: url ?? '', dataDir: tmpdir(), pgSchema: schema }),
    { vectorStore: 'bytea' },
  );
});
