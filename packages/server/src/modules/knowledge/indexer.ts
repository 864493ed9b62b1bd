import type { Readable } from 'node:stream';
import type { BlobStore } from '../../blob/blob-store.js';
import { type JobHandler, PermanentJobError } from '../../jobs/queue.js';
import type { IndexedPassage, PassageIndex, StoredPassage } from '../../search/index/index.js';
import { ChunkOptionsError, type IndexingOptions, indexingOptionsFrom } from '../../search/ingest/chunk.js';
import { passagesLanguage } from '../../search/ingest/document-language.js';
import type { DocumentReader } from '../../search/ingest/document-reader.js';
import { loadGermanNouns, needsGermanNouns } from '../../search/language/german-lexicon.js';
import { type Embedder, ExtractionError } from '../../search/types.js';
import type { FileRow } from '../files/contract.js';
import type { FileIndexing, IndexFileJob } from '../files/service.js';
import type { EmbeddingModelKeeper } from './embedding-model.js';
import { toldLanguage } from './language.js';

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
  /** CPU priority (Linux nice, 0–19) of the thread that loads the German noun list for a German file (default 0). */
  nice?: number | undefined;
}

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      throw tooLarge(limit);
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

/** Milliseconds per stage of a job, for its debug log line. */
function stageClock() {
  let last = performance.now();
  const laps: Record<string, number> = {};
  return {
    laps,
    lap(name: string) {
      const now = performance.now();
      laps[name] = Math.round((now - last) * 10) / 10;
      last = now;
    },
  };
}

/** What the `index_file` job is built from. */
export interface IndexerDeps {
  /** The file the job is for, and where its progress and outcome are recorded (the files module). */
  files: FileIndexing;
  blobs: BlobStore;
  index: PassageIndex;
  embedder: Embedder | undefined;
  /** Switches the index to the embedder's model before vectors of it are written (with an embedder). */
  embeddingModel?: Pick<EmbeddingModelKeeper, 'beforeWrite'> | undefined;
  /** Extraction and chunking, in worker threads. */
  reader: DocumentReader;
  settings: IndexerSettings;
}

/** 'permanent' failure of a file larger than can be indexed. */
function tooLarge(limit: number): PermanentJobError {
  return new PermanentJobError(`the file is larger than the ${limit} bytes that can be indexed`, 'too_large');
}

/** The passages a caller set itself (setFilePassages), as stored, to embed again, and their language. */
async function storedText(index: PassageIndex, file: FileRow): Promise<FileText> {
  const passages = (await allFilePassages(index, file.id)).map((s) => ({
    position: s.position,
    content: s.content,
    subtype: s.subtype,
    breadcrumb: s.breadcrumb,
    ...(s.pageNumber ? { pageNumber: s.pageNumber } : {}),
  }));
  return { passages, language: toldLanguage(file) ?? passagesLanguage(passages) ?? null };
}

/**
 * What the file's indexing.configuration asks for (checked at upsert; one stored before that check, or
 * refused since, fails the job for good with `invalid_configuration` and the fields at fault).
 */
function indexingOptionsOf(file: FileRow): IndexingOptions {
  try {
    return indexingOptionsFrom(
      file.indexing_configuration ? JSON.parse(file.indexing_configuration) : undefined,
    );
  } catch (error) {
    if (error instanceof ChunkOptionsError)
      throw new PermanentJobError(error.message, 'invalid_configuration');
    throw error;
  }
}

/** A file's passages to index, and its language (issue #38; null when unknown). */
interface FileText {
  passages: IndexedPassage[];
  language: string | null;
}

/**
 * Reads the file's blob and extracts and chunks it, off this thread (a hostile document cannot stall the API),
 * with the language its metadata tells, else the one the reader detected (off this thread too).
 */
async function extractPassages(
  deps: IndexerDeps,
  file: FileRow & { blob_key: string },
  options: IndexingOptions,
  signal: AbortSignal,
): Promise<FileText> {
  const limit = deps.settings.maxIndexableBytes;
  if ((file.size ?? 0) > limit) throw tooLarge(limit);
  const bytes = await readAll(await deps.blobs.get(file.blob_key), limit);
  const told = toldLanguage(file);
  try {
    const read = await deps.reader.read({
      bytes,
      contentType: file.content_type,
      key: file.key,
      chunkOptions: options.chunk,
      detectLanguage: told === undefined,
      signal,
    });
    return { passages: read.passages, language: told ?? read.language };
  } catch (error) {
    if (error instanceof ExtractionError) throw new PermanentJobError(error.message, error.code);
    throw error;
  }
}

/**
 * Embeds the passages in batches (each with its breadcrumb unless the configuration says not to), recording
 * progress on the file after each but the last (the completion records that one: a write per file saved).
 */
async function embedAll(
  deps: IndexerDeps,
  embedder: Embedder,
  job: IndexFileJob,
  passages: IndexedPassage[],
  options: IndexingOptions,
  signal: AbortSignal,
): Promise<void> {
  const batchSize = deps.settings.embedBatch;
  const text = options.embedBreadcrumb ? embeddingText : (passage: IndexedPassage) => passage.content;
  for (let i = 0; i < passages.length; i += batchSize) {
    const batch = passages.slice(i, i + batchSize);
    const vectors = await embedder.embed(
      batch.map((passage) => text(passage)),
      signal,
      'bulk', // after any search query or chat question waiting for the model
    );
    batch.forEach((passage, j) => {
      passage.embedding = vectors[j];
    });
    const done = i + batch.length;
    if (done < passages.length) await deps.files.indexingProgress(job, { done });
  }
}

/** Fails the job for good when the new vectors would exceed the workspace's Vector DB Storage quota. */
async function checkVectorQuota(
  deps: IndexerDeps,
  embedder: Embedder,
  file: FileRow,
  adding: number,
): Promise<void> {
  const quota = deps.settings.workspaceVectorBytes;
  if (quota === null) return;
  const bytesPer = embedder.dimensions * 4;
  // The file's own vectors, if any, are replaced: they do not count against the new ones.
  const own = (await allFilePassages(deps.index, file.id)).filter((s) => s.modelId === embedder.id).length;
  const used = (await deps.index.storage({ workspaceId: file.workspace_id })).vectorBytes - own * bytesPer;
  const needed = adding * bytesPer;
  if (used + needed > quota) {
    throw new PermanentJobError(
      `Vector DB Storage quota (${quota} bytes) would be exceeded: ${used} used, ${needed} more needed`,
      'quota_exceeded',
    );
  }
}

/**
 * The `index_file` job: reads the file's blob, extracts and chunks it, embeds the passages (progress on the
 * file as it goes), replaces the file's passages in one transaction, and ends the file `indexing_completed`,
 * or `indexing_failed` with `<reason code>: <message>` (unsupported or unreadable document, too large,
 * timeout, quota). A job for an older upload of the file, or a deleted file, does nothing. The file's state
 * is read and written through the files module, which owns it.
 */
export function indexFileJob(deps: IndexerDeps): JobHandler<IndexFileJob> {
  const { files, settings } = deps;
  return {
    timeoutMs: settings.timeoutMs,
    maxAttempts: settings.maxAttempts,
    // A document that took the whole time bound would take it again: it ends indexing_failed `timeout` at once.
    retryTimeouts: false,

    async run(job, { signal, log }) {
      const t = stageClock();
      const file = await files.indexingTarget(job);
      t.lap('target');
      if (!file?.blob_key) return;
      const options = indexingOptionsOf(file);
      const { passages, language } =
        job.source === 'stored'
          ? await storedText(deps.index, file)
          : await extractPassages(deps, { ...file, blob_key: file.blob_key }, options, signal);
      t.lap('read');
      // A German file's tokens are cut by the German noun list (issues #36, #38): loaded in a worker thread while
      // the passages are embedded, awaited before they are written, so writing them never derives it on this thread.
      const nouns = needsGermanNouns(language) ? loadGermanNouns({ nice: settings.nice }) : undefined;
      const embedder = deps.embedder;
      // Progress is shown while the embedding takes more than one call: a file of one call completes at once.
      if (embedder && passages.length > settings.embedBatch) {
        await files.indexingProgress(job, { total: passages.length, done: 0 });
        t.lap('progress');
      }
      if (embedder) {
        await embedAll(deps, embedder, job, passages, options, signal);
        t.lap('embed');
        await checkVectorQuota(deps, embedder, file, passages.length);
        t.lap('quota');
      }
      signal.throwIfAborted();
      // The upload may have been replaced meanwhile: index only the version this job was made for.
      if (!(await files.indexingTarget(job))) return;
      t.lap('target2');
      // The embedder's id is its loaded model's now: an index still on another model is switched first.
      if (embedder && passages.length > 0) await deps.embeddingModel?.beforeWrite();
      t.lap('model');
      await nouns;
      t.lap('nouns');
      await deps.index.replaceFilePassages({
        fileId: file.id,
        botId: file.bot_id,
        passages,
        language,
        ...(embedder ? { model: { id: embedder.id, dimensions: embedder.dimensions } } : {}),
      });
      t.lap('write');
      await files.indexingCompleted(job, passages.length, language);
      t.lap('completed');
      log.debug({ stagesMs: t.laps, passages: passages.length }, 'file indexed');
    },

    async onFailed(job, error) {
      await files.indexingFailed(job, `${error.reason}: ${error.message}`);
    },
  };
}
