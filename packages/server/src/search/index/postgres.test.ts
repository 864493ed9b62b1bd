import { describe } from 'vitest';
import { postgresTestUrl } from '../../../../testkit/src/server/harness.js';
import { useOwnSchema } from '../../../../testkit/src/server/own-database.js';
import { runPassageIndexSuite } from './passage-index.suite.js';

const url = postgresTestUrl();

// The local server has no pgvector, so this runs the bytea fallback; pglite.test.ts runs pgvector.
(url ? describe : describe.skip)('PostgreSQL passage index', () => {
  runPassageIndexSuite(
    'PostgreSQL (tsvector, vectors as bytea without pgvector)',
    useOwnSchema('passages', url ?? ''),
    { vectorStore: 'bytea' },
  );
});
