import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IntegrationsService } from './contract.js';
import { integrationCatalogRoutes } from './routes/catalog.js';
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
  const routeDeps = { integrations: deps.integrations, toBotLog: deps.preHandler };
  integrationCatalogRoutes(app, routeDeps);
  installationRoutes(app, routeDeps);
  integrationKeyRoutes(app, routeDeps);
}
