import type { Kysely } from 'kysely';
import type { UrlSigner } from '../../access/signed-url.js';
import type { BlobStore } from '../../blob/blob-store.js';
import type { Database } from '../../db/schema.js';
import type { AuthResolver } from '../../http/context.js';
import type { ForegroundGate } from '../../jobs/foreground.js';
import type { JobQueue } from '../../jobs/queue.js';
import { type Logger, silentLogger } from '../../logger.js';
import type { AuditService } from '../audit/service.js';
import type { BotsService } from '../bots/service.js';
import type { FilesSettings } from './contract.js';

/** What the files service is built from. */
export interface FilesServiceDeps {
  db: Kysely<Database>;
  blobs: BlobStore;
  signer: UrlSigner;
  clock: () => Date;
  settings: FilesSettings;
  bots: Pick<BotsService, 'findAnyWorkspace' | 'get'>;
  auth: AuthResolver;
  /** Durable jobs; with it, files uploaded with `index: true` are queued for indexing. */
  jobs?: JobQueue | undefined;
  /** The process's foreground requests, yielded to by the indexing job's steps (none: never). */
  foreground?: Pick<ForegroundGate, 'yield'> | undefined;
  /** Where failures handled without an answer are logged (default: nowhere). */
  logger?: Logger | undefined;
  /** The audit trail, where members' uploads, changes and deletions of files are recorded. */
  audit?: AuditService | undefined;
}

/** What the use cases of the files module are built from: the dependencies, a logger, the time now. */
export interface FilesEnv extends FilesServiceDeps {
  logger: Logger;
  /** The injected clock's time as an ISO string. */
  now: () => string;
}

/** The environment of the use cases, from the service's dependencies. */
export function filesEnv(deps: FilesServiceDeps): FilesEnv {
  return { ...deps, logger: deps.logger ?? silentLogger, now: () => deps.clock().toISOString() };
}
