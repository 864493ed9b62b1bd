import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { defineJob } from '../../jobs/registry.js';
import { vectorBytes } from '../../search/index/common.js';
import type { Embedder } from '../../search/types.js';
import {
  QA_EMBED_BACKOFF,
  QA_EMBED_JOB,
  QA_EMBED_MAX_ATTEMPTS,
  QA_EMBED_TIMEOUT_MS,
  QaEmbedPayload,
} from './job-kinds.js';
import { qaRepo } from './repo.js';

/**
 * The `qa_embed` job: embeds the wordings of an entry that have no vector of the embedder's model (a save
 * queues it in its transaction, so a save never waits for the model), stores each vector unless its wording
 * changed meanwhile, and bumps the bot's revision so every process reads the vectors. An entry deleted since
 * has nothing to embed.
 */
export function qaEmbedJob(deps: { db: Kysely<Database>; embedder: Embedder }) {
  const { db, embedder } = deps;
  return defineJob({
    kind: QA_EMBED_JOB,
    payload: QaEmbedPayload,
    backoff: QA_EMBED_BACKOFF,
    maxAttempts: QA_EMBED_MAX_ATTEMPTS,
    timeoutMs: QA_EMBED_TIMEOUT_MS,
    async run({ botId, entryId }) {
      const missing = await qaRepo(db).unembedded(entryId, embedder.id);
      if (missing.length === 0) return;
      const vectors = await embedder.embed(missing.map((w) => w.text));
      await db.transaction().execute(async (tx) => {
        for (const [i, w] of missing.entries()) {
          const vector = vectors[i];
          if (vector)
            await qaRepo(tx).setVector(entryId, w.position, w.text, vectorBytes(vector), embedder.id);
        }
        await qaRepo(tx).bumpRevision(botId);
      });
    },
  });
}
