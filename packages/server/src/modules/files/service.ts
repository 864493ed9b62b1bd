import { composeUseCases } from '../use-cases.js';
import { filesAccess } from './access.js';
import { filesContent } from './content.js';
import type { FilesService } from './contract.js';
import { filesCopy } from './copy.js';
import { type FilesServiceDeps, filesEnv } from './deps.js';
import { filesEdit } from './edit.js';
import { filesExpiry } from './expiry.js';
import { filesGarbage } from './garbage.js';
import { fileIndexing, filesIndexing } from './indexing.js';
import { filesListing } from './listing.js';
import { filesResumable } from './resumable.js';
import { filesTags } from './tags.js';
import { filesUpload } from './upload.js';
import { filesUpsert } from './upsert.js';
import { filesUsage } from './usage.js';

export * from './contract.js';
export type { FilesServiceDeps } from './deps.js';

/**
 * The files module ({@link FilesService}), composed of its use cases: access (who calls, what it may see),
 * upsert, upload, listing, edit, copy, tags, content (downloads), indexing, expiry, garbage and usage. Each is
 * a plain object of plain functions built from the same explicit dependencies; they share no state.
 * @example const files = filesService({ db, blobs, signer, clock, settings, bots, auth, jobs, logger: app.log });
 */
export function filesService(deps: FilesServiceDeps): FilesService {
  const env = filesEnv(deps);
  return composeUseCases(
    env,
    filesAccess,
    filesUpsert,
    filesUpload,
    filesListing,
    filesEdit,
    filesCopy,
    filesTags,
    filesContent,
    filesIndexing,
    fileIndexing,
    filesExpiry,
    filesGarbage,
    filesUsage,
    filesResumable,
  );
}
