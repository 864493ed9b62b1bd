import { tmpdir } from 'node:os';
import { afterAll, describe } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { postgresTestUrl } from '../../test-support/harness.js';
import { dropSchema } from '../../test-support/postgres.js';
import { runPassageIndexContract } from './passage-index.contract.js';

const url = postgresTestUrl();
/** A fresh schema per run, so parallel runs and earlier failures never share tables. */
const schema = `passages_${process.pid}_${Date.now().toString(36)}`;

// The local server has no pgvector, so this runs the bytea fallback; pglite.test.ts runs pgvector.
(url ? describe : describe.skip)('PostgreSQL passage index', () => {
  afterAll(async () => {
    if (url) await dropSchema(url, schema);
  });

  runPassageIndexContract(
    'PostgreSQL (tsvector, vectors as bytea without pgvector)',
    () => openDatabase({ url: url ?? '', dataDir: tmpdir(), pgSchema: schema }),
    { vectorStore: 'bytea' },
  );
});
