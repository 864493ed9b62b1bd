import { canFile, type FileActor } from '../../access/file-policy.js';
import { BlobNotFoundError, type BlobStore, type ByteRange } from '../../blob/blob-store.js';
import { ApiError, errors } from '../../errors/errors.js';
import type { FileContent, FilesService } from './contract.js';
import type { FilesEnv } from './deps.js';
import { servedMediaType } from './media-type.js';
import { contentFacts, facts, servable } from './records.js';
import { type FileRow, filesRepo } from './repo.js';
import { checkDownloadUrl, checkPublicUrl } from './urls.js';

const PUBLIC: FileActor = { kind: 'public' };

/**
 * Who downloads through this URL, once its signature is checked: anyone (a public URL), an integration (a
 * URL handed to it), or (undefined) any holder of a private URL. 403 for a bad URL, 404 for no file.
 */
function downloaderOf(
  env: Pick<FilesEnv, 'signer'>,
  id: string,
  row: FileRow | undefined,
  query: Record<string, string | undefined>,
): { row: FileRow; downloader: FileActor | undefined } {
  if (query.public === '1') {
    checkPublicUrl(env.signer, id, query);
    if (!row || !canFile(PUBLIC, 'download', facts(row))) throw errors.notFound('Public file', id);
    return { row, downloader: PUBLIC };
  }
  checkDownloadUrl(env.signer, id, query);
  if (!row) throw errors.notFound('File', id);
  const downloader: FileActor | undefined =
    query.integration !== undefined
      ? { kind: 'integration', integrationId: query.integration, botId: row.bot_id }
      : undefined;
  return { row, downloader };
}

/** Opens the very blob `blobKey` (blobs are never rewritten in place): 409 once it went meanwhile. */
async function openBlob(blobs: BlobStore, blobKey: string, range?: ByteRange) {
  try {
    return await blobs.get(blobKey, range);
  } catch (error) {
    if (!(error instanceof BlobNotFoundError)) throw error;
    throw new ApiError(
      'ResourceLockedConflict',
      'The file was replaced or deleted while downloading; get it again',
    );
  }
}

/** Downloads through the URLs a file object carries. */
export function filesContent(env: FilesEnv): Pick<FilesService, 'openContent'> {
  return {
    async openContent(id, query): Promise<FileContent> {
      const { row, downloader } = downloaderOf(env, id, await filesRepo(env.db).byIdAnyBot(id), query);
      // The bytes served may be older than the latest upsert (its upload is pending): they are served only
      // to whoever may download them as they were committed, so a re-upsert never publishes older bytes.
      if (!servable(row) || (downloader && !canFile(downloader, 'download', contentFacts(row))))
        throw new ApiError('ResourceNotFound', `File "${row.key}" has no uploaded content yet`);
      const blobKey = row.blob_key;
      return {
        size: row.size,
        // A media type stored before they were checked may not be sendable as a header.
        contentType: servedMediaType(row.blob_content_type ?? row.content_type),
        key: row.key,
        etag: `"${row.sha256 ?? row.id}"`,
        lastModified: row.updated_at,
        // Reads the very blob these headers describe, so a new upload committed meanwhile can never mix its
        // bytes with the old headers.
        open: (range?: ByteRange) => openBlob(env.blobs, blobKey, range),
      };
    },
  };
}
