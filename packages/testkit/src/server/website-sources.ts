import type { KnowledgeSource } from '@parley/protocol';
import { expect } from 'vitest';
import { eventually } from '../shared/eventually.js';
import { callAs } from './files-api.js';
import type { TestApp } from './harness.js';

/** A website source (issue #36), read through the Files API 25 ms apart, once it is idle with `runs` runs or more. */
export async function crawlFinished(
  t: TestApp,
  kbId: string,
  sourceId: string,
  runs = 1,
): Promise<KnowledgeSource> {
  let source: KnowledgeSource | undefined;
  await eventually(
    async () => {
      const res = await callAs(t, t.botKey, 'GET', `/v1/files/knowledge-bases/${kbId}/sources/${sourceId}`);
      expect(res.statusCode, res.body).toBe(200);
      source = (res.json() as { source: KnowledgeSource }).source;
      return source.state === 'idle' && source.runs.length >= runs;
    },
    60_000,
    25,
    'the crawl to end',
  );
  return source as KnowledgeSource;
}
