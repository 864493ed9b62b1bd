import type { FastifyInstance, FastifyRequest } from 'fastify';
import { operations } from '../../http/operation.js';
import type { IntegrationsService } from './contract.js';
import { integrationCatalogRoutes } from './routes/catalog.js';
import { defaults } from './routes/common.js';
import { installationRoutes } from './routes/installations.js';
import { integrationKeyRoutes } from './routes/keys.js';

/** Integrations, their installation on bots and their keys (`routes/`, by resource). */
export function integrationRoutes(
  app: FastifyInstance,
  deps: {
    integrations: IntegrationsService;
    /** The `preValidation` hook that sends requests about a bot to its log (bots/routes.ts's `markBot`). */
    preHandler: (req: FastifyRequest) => Promise<void>;
  },
) {
  // The operations about one bot (`/bots/:id/…`) send their requests to its log.
  const onBot = operations(app, { ...defaults, preValidation: deps.preHandler });
  integrationCatalogRoutes(operations(app, defaults), deps.integrations);
  installationRoutes(onBot, deps.integrations);
  integrationKeyRoutes(onBot, deps.integrations);
}
