import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { defineJob } from '../../jobs/registry.js';
import type { PeriodicTask } from '../../jobs/runner.js';
import { vectorBytes } from '../../search/index/common.js';
import type { Embedder } from '../../search/types.js';
import {
  QA_EMBED_BACKOFF,
  QA_EMBED_JOB,
  QA_EMBED_MAX_ATTEMPTS,
  QA_EMBED_TIMEOUT_MS,
  QaEmbedPayload,
} from './job-kinds.js';
import { answerSentences, wordingTerms } from './matching.js';
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
      await embedEntry(db, embedder, botId, entryId);
    },
  });
}

/**
 * Embeds the wordings of an entry that have no vector of the embedder's model, stores each vector unless its
 * wording changed meanwhile, and bumps the bot's revision; answers how many wordings it embedded.
 */
async function embedEntry(
  db: Kysely<Database>,
  embedder: Embedder,
  botId: string,
  entryId: string,
): Promise<number> {
  const missing = await qaRepo(db).unembedded(entryId, embedder.id);
  if (missing.length === 0) return 0;
  const vectors = await embedder.embed(missing.map((w) => w.text));
  await db.transaction().execute(async (tx) => {
    for (const [i, w] of missing.entries()) {
      const vector = vectors[i];
      if (vector) await qaRepo(tx).setVector(entryId, w.position, w.text, vectorBytes(vector), embedder.id);
    }
    await qaRepo(tx).bumpRevision(botId);
  });
  return missing.length;
}

/** How often every process looks for wordings without a vector of the embedder's model. */
export const QA_STALE_SWEEP_EVERY_MS = 60_000;
/** Most entries one sweep embeds (the rest wait for the next one, so other periodic tasks are not held up). */
export const QA_STALE_SWEEP_ENTRIES = 100;

/**
 * Stores the answer's sentences of entries saved before answers were compared with questions (issue 34), one
 * page of at most `limit` entries after `afterId`; their vectors are then written as any stale wording's.
 * Idempotent and safe beside other processes and saves: an entry gets them only if it still has that answer and
 * none stored ({@link qaRepo}'s addAnswerSentences). Answers the page's last id (undefined: no more entries) and
 * how many entries got sentences.
 */
export async function backfillAnswerSentences(
  db: Kysely<Database>,
  afterId: string | undefined,
  limit: number,
): Promise<{ last: string | undefined; entries: number }> {
  const page = await qaRepo(db).withoutAnswerSentences(afterId, limit);
  let entries = 0;
  for (const entry of page) {
    const sentences = answerSentences(entry.answer).map((text) => ({
      text,
      terms: wordingTerms(text).join(' '),
    }));
    if (sentences.length === 0) continue;
    const added = await db.transaction().execute(async (tx) => {
      const stored = await qaRepo(tx).addAnswerSentences(entry.id, entry.answer, sentences);
      if (stored) await qaRepo(tx).bumpRevision(entry.bot_id);
      return stored;
    });
    if (added) entries += 1;
  }
  return { last: page.length < limit ? undefined : page.at(-1)?.id, entries };
}

/**
 * The periodic sweep that re-embeds stale wordings: after the embedding model changed (their vectors are of
 * another model), or saved while no embedder was configured or its job failed for good. At start, then every
 * {@link QA_STALE_SWEEP_EVERY_MS}; every process runs it (embedding a wording twice only costs time). Until it has
 * been through every entry once since the process started, each run first gives a page of entries saved before
 * answers' sentences were compared their sentences ({@link backfillAnswerSentences}), embedded in the same run.
 */
export function qaStaleSweep(deps: { db: Kysely<Database>; embedder: Embedder }): PeriodicTask {
  const { db, embedder } = deps;
  let backfill: { after: string | undefined } | undefined = { after: undefined };
  return {
    name: 'qa.embedStale',
    everyMs: QA_STALE_SWEEP_EVERY_MS,
    firstAfterMs: 0,
    async run() {
      let answers = 0;
      if (backfill) {
        const { last, entries } = await backfillAnswerSentences(db, backfill.after, QA_STALE_SWEEP_ENTRIES);
        answers = entries;
        backfill = last ? { after: last } : undefined;
      }
      const stale = await qaRepo(db).stale(embedder.id, QA_STALE_SWEEP_ENTRIES);
      let wordings = 0;
      for (const { botId, entryId } of stale) wordings += await embedEntry(db, embedder, botId, entryId);
      return { entries: stale.length, wordings, answers };
    },
  };
}
