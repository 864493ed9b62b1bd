import type { Config } from './config/config.js';
import type { Db } from './db/database.js';
import { auditService } from './modules/audit/service.js';
import { botsService } from './modules/bots/service.js';
import { identityService } from './modules/identity/service.js';
import { integrationsService } from './modules/integrations/service.js';
import { logsService } from './modules/logs/service.js';

/** Everything the service is made of, wired once per app. */
export function buildServices(deps: { config: Config; db: Db; clock?: () => Date }) {
  const clock = deps.clock ?? (() => new Date());
  const db = deps.db.kysely;
  const audit = auditService(db, clock);
  const identity = identityService({ db, clock, config: deps.config, audit });
  const bots = botsService({ db, clock, config: deps.config, audit, identity });
  const integrations = integrationsService({ db, clock, audit, identity, bots });
  const logs = logsService({ db, clock, bots, retentionDays: deps.config.logRetentionDays });
  return { audit, identity, bots, integrations, logs };
}
/** The services of an app. */
export type Services = ReturnType<typeof buildServices>;
