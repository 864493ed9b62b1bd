import { integrationCatalog } from './catalog.js';
import type { IntegrationsContext, IntegrationsDeps } from './context.js';
import type { IntegrationsService } from './contract.js';
import { integrationInstallations } from './installations.js';
import { integrationKeys } from './keys.js';

export type { IntegrationsDeps } from './context.js';
export * from './contract.js';

/**
 * Integrations of a workspace ({@link IntegrationsService}), composed of their use cases: the catalog,
 * installation on bots, and keys (issued by the identity service).
 * @example const integrations = integrationsService({ db, clock, audit, identity, bots });
 */
export function integrationsService(deps: IntegrationsDeps): IntegrationsService {
  const ctx: IntegrationsContext = { ...deps, now: () => deps.clock().toISOString() };
  return {
    ...integrationCatalog(ctx),
    ...integrationInstallations(ctx),
    ...integrationKeys(ctx),
  };
}
