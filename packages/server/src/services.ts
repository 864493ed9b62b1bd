import { urlSigner } from './access/signed-url.js';
import type { BlobStore } from './blob/blob-store.js';
import type { Config } from './config/config.js';
import type { Db } from './db/database.js';
import { auditService } from './modules/audit/service.js';
import { botsService } from './modules/bots/service.js';
import { filesService } from './modules/files/service.js';
import { identityService } from './modules/identity/service.js';
import { integrationsService } from './modules/integrations/service.js';
import { logsService } from './modules/logs/service.js';

/** What services are built from. */
export interface ServiceDeps {
  config: Config;
  db: Db;
  blobs: BlobStore;
  signingSecret: Buffer;
  clock?: () => Date;
}

/** Everything the service is made of, wired once per app. */
export function buildServices(deps: ServiceDeps) {
  const clock = deps.clock ?? (() => new Date());
  const db = deps.db.kysely;
  const { config } = deps;
  const audit = auditService(db, clock);
  const identity = identityService({ db, clock, config, audit });
  const bots = botsService({ db, clock, config, audit, identity });
  const integrations = integrationsService({ db, clock, audit, identity, bots });
  const logs = logsService({ db, clock, bots, retentionDays: config.logRetentionDays });
  const files = filesService({
    db,
    blobs: deps.blobs,
    signer: urlSigner(deps.signingSecret, clock),
    clock,
    settings: {
      publicUrl: config.publicUrl,
      downloadUrlTtlMs: config.files.downloadUrlTtlMs,
      uploadUrlTtlMs: config.files.uploadUrlTtlMs,
      quotas: { workspaceBytes: config.quotas.workspaceFileBytes, botBytes: config.quotas.botFileBytes },
    },
    bots,
    auth: identity.resolver,
  });
  identity.addUsageSource(async (workspaceId) => [
    {
      type: 'storage_count',
      value: await files.storedBytes({ workspaceId }),
      quota: config.quotas.workspaceFileBytes,
    },
  ]);
  return { audit, identity, bots, integrations, logs, files };
}
/** The services of an app. */
export type Services = ReturnType<typeof buildServices>;
