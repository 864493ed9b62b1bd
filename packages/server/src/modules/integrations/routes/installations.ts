import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Empty, Installation } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, responses } from '../../../http/route-helpers.js';
import { IdParam, InstallationParams, type IntegrationRouteDeps, tags } from './common.js';

/** Integrations installed on a bot: listed, installed (idempotently) and uninstalled. */
export function installationRoutes(
  fastify: FastifyInstance,
  { integrations, toBotLog }: IntegrationRouteDeps,
): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/bots/:id/integrations',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.listBotIntegrations',
        tags,
        security: BEARER,
        params: IdParam,
        response: responses(200, Type.Object({ integrations: Type.Array(Installation) })),
      },
    },
    async (req) => ({ integrations: await integrations.listInstalled(req.actor, req.params.id) }),
  );

  app.put(
    '/bots/:id/integrations/:integrationId',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.installIntegration',
        tags,
        security: BEARER,
        params: InstallationParams,
        response: responses(200, Type.Object({ installation: Installation })),
      },
    },
    async (req) => ({
      installation: await integrations.install(req.actor, req.params.id, req.params.integrationId),
    }),
  );

  app.delete(
    '/bots/:id/integrations/:integrationId',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.uninstallIntegration',
        tags,
        security: BEARER,
        params: InstallationParams,
        response: responses(200, Empty),
      },
    },
    async (req) => {
      await integrations.uninstall(req.actor, req.params.id, req.params.integrationId);
      return {};
    },
  );
}
