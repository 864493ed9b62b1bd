import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { BlobStore } from '../../blob/blob-store.js';
import type { Database } from '../../db/schema.js';
import { type JobHandler, PermanentJobError } from '../../jobs/queue.js';
import { ChunkOptionsError, chunkOptionsFrom } from '../../search/chunk.js';
import type { DocumentReader } from '../../search/document-reader.js';
import type { IndexedPassage, PassageIndex, StoredPassage } from '../../search/index/index.js';
import { type ChunkOptions, type Embedder, ExtractionError } from '../../search/types.js';

/** Limits of indexing. */
export interface IndexerSettings {
  /** Largest file indexed (the public service: 95 MB); larger ones end indexing_failed `too_large`. */
  maxIndexableBytes: number;
  /** Time bound of one indexing attempt. */
  timeoutMs: number;
  /** Attempts for transient failures (embedder unreachable, database busy). */
  maxAttempts: number;
  /** Texts per embedder call. */
  embedBatch: number;
  /** Vector DB Storage quota of a workspace, in bytes (null: unlimited). */
  workspaceVectorBytes: number | null;
}

/** What the job carries. */
interface IndexPayload {
  fileId: string;
  uploadVersion: number;
  /** 'stored': embed the passages the file already has (setFilePassages) instead of extracting the blob. */
  source?: 'blob' | 'stored';
}

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      throw new PermanentJobError(
        `the file is larger than the ${limit} bytes that can be indexed`,
        'too_large',
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Every stored passage of a file, in order (the index answers at most a few thousand per call). */
async function allFilePassages(index: PassageIndex, fileId: string): Promise<StoredPassage[]> {
  const all: StoredPassage[] = [];
  for (;;) {
    const page = await index.listFilePassages(fileId, 1000, all[all.length - 1]?.position);
    all.push(...page);
    if (page.length < 1000) return all;
  }
}

/** The text embedded for a passage: its section path, then its content (the model reads ~128 tokens). */
export function embeddingText(passage: { content: string; breadcrumb: string[] }): string {
  const path = passage.breadcrumb.join(' › ');
  return path ? `${path}\n${passage.content}` : passage.content;
}

/**
 * The `index_file` job: reads the file's blob, extracts and chunks it, embeds the passages (progress on the
 * file as it goes), replaces the file's passages in one transaction, and ends the file `indexing_completed`,
 * or `indexing_failed` with `<reason code>: <message>` (unsupported or unreadable document, too large,
 * timeout, quota). A job for an older upload of the file, or a deleted file, does nothing.
 */
export function indexFileJob(deps: {
  db: Kysely<Database>;
  blobs: BlobStore;
  index: PassageIndex;
  embedder: Embedder | undefined;
  /** Extraction and chunking, in worker threads. */
  reader: DocumentReader;
  clock: () => Date;
  settings: IndexerSettings;
}): JobHandler {
  const { db, settings } = deps;
  const now = () => deps.clock().toISOString();
  const current = async (p: IndexPayload) => {
    const row = await db.selectFrom('files').selectAll().where('id', '=', p.fileId).executeTakeFirst();
    return row && row.upload_version === p.uploadVersion && row.status === 'indexing_pending'
      ? row
      : undefined;
  };
  const setFile = (p: IndexPayload, values: Record<string, unknown>) =>
    db
      .updateTable('files')
      .set(values)
      .where('id', '=', p.fileId)
      .where('upload_version', '=', p.uploadVersion)
      .where('status', '=', 'indexing_pending')
      .execute();

  return {
    timeoutMs: settings.timeoutMs,
    maxAttempts: settings.maxAttempts,
    // A document that took the whole time bound would take it again: it ends indexing_failed `timeout` at once.
    retryTimeouts: false,

    async run(payload, { signal }) {
      const p = payload as IndexPayload;
      const file = await current(p);
      if (!file?.blob_key) return;
      let passages: IndexedPassage[];
      if (p.source === 'stored') {
        passages = (await allFilePassages(deps.index, file.id)).map((s) => ({
          position: s.position,
          content: s.content,
          subtype: s.subtype,
          breadcrumb: s.breadcrumb,
          ...(s.pageNumber ? { pageNumber: s.pageNumber } : {}),
        }));
      } else {
        if ((file.size ?? 0) > settings.maxIndexableBytes) {
          throw new PermanentJobError(
            `the file is larger than the ${settings.maxIndexableBytes} bytes that can be indexed`,
            'too_large',
          );
        }
        let chunkOptions: ChunkOptions;
        try {
          chunkOptions = chunkOptionsFrom(
            file.indexing_configuration ? JSON.parse(file.indexing_configuration) : undefined,
          );
        } catch (error) {
          if (error instanceof ChunkOptionsError)
            throw new PermanentJobError(error.message, 'invalid_configuration');
          throw error;
        }
        const bytes = await readAll(await deps.blobs.get(file.blob_key), settings.maxIndexableBytes);
        try {
          // Off this thread, within memory and time bounds: a hostile document cannot stall the API.
          passages = await deps.reader.read({
            bytes,
            contentType: file.content_type,
            key: file.key,
            chunkOptions,
            signal,
          });
        } catch (error) {
          if (error instanceof ExtractionError) throw new PermanentJobError(error.message, error.code);
          throw error;
        }
      }
      await setFile(p, { indexing_total: passages.length, indexing_done: 0 });
      const embedder = deps.embedder;
      if (embedder) {
        for (let i = 0; i < passages.length; i += settings.embedBatch) {
          const batch = passages.slice(i, i + settings.embedBatch);
          const vectors = await embedder.embed(batch.map(embeddingText), signal);
          batch.forEach((passage, j) => {
            passage.embedding = vectors[j];
          });
          await setFile(p, { indexing_done: Math.min(passages.length, i + batch.length) });
        }
        const quota = settings.workspaceVectorBytes;
        if (quota !== null) {
          // The file's own vectors, if any, are replaced: they do not count against the new ones.
          const own = (await allFilePassages(deps.index, file.id)).filter(
            (s) => s.modelId === embedder.id,
          ).length;
          const used =
            (await deps.index.storage({ workspaceId: file.workspace_id })).vectorBytes -
            own * embedder.dimensions * 4;
          const adding = passages.length * embedder.dimensions * 4;
          if (used + adding > quota) {
            throw new PermanentJobError(
              `Vector DB Storage quota (${quota} bytes) would be exceeded: ${used} used, ${adding} more needed`,
              'quota_exceeded',
            );
          }
        }
      } else {
        await setFile(p, { indexing_done: passages.length });
      }
      signal.throwIfAborted();
      // The upload may have been replaced meanwhile: index only the version this job was made for.
      if (!(await current(p))) return;
      await deps.index.replaceFilePassages({
        fileId: file.id,
        botId: file.bot_id,
        passages,
        ...(embedder ? { model: { id: embedder.id, dimensions: embedder.dimensions } } : {}),
      });
      await setFile(p, {
        status: 'indexing_completed',
        failed_status_reason: null,
        indexing_done: passages.length,
        updated_at: now(),
      });
    },

    async onFailed(payload, error) {
      const p = payload as IndexPayload;
      await setFile(p, {
        status: 'indexing_failed',
        failed_status_reason: `${error.reason}: ${error.message}`.slice(0, 2000),
        updated_at: now(),
      });
    },
  };
}
