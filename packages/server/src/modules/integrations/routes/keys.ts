import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CreatedToken, CreateTokenBody, Empty, TokenInfo } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, responses } from '../../../http/route-helpers.js';
import { InstallationParams, type IntegrationRouteDeps, KeyParams, tags } from './common.js';

/** The keys of an integration on a bot: listed, created (the value shown once) and revoked. */
export function integrationKeyRoutes(
  fastify: FastifyInstance,
  { integrations, toBotLog }: IntegrationRouteDeps,
): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/bots/:id/integrations/:integrationId/keys',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.listIntegrationKeys',
        tags,
        security: BEARER,
        params: InstallationParams,
        response: responses(200, Type.Object({ keys: Type.Array(TokenInfo) })),
      },
    },
    async (req) => ({
      keys: await integrations.listKeys(req.actor, req.params.id, req.params.integrationId),
    }),
  );

  app.post(
    '/bots/:id/integrations/:integrationId/keys',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.createIntegrationKey',
        tags,
        security: BEARER,
        params: InstallationParams,
        body: CreateTokenBody,
        response: responses(201, Type.Object({ key: CreatedToken })),
      },
    },
    async (req, reply) =>
      reply.status(201).send({
        key: await integrations.createKey(req.actor, req.params.id, req.params.integrationId, req.body ?? {}),
      }),
  );

  app.delete(
    '/bots/:id/integrations/:integrationId/keys/:keyId',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.revokeIntegrationKey',
        tags,
        security: BEARER,
        params: KeyParams,
        response: responses(200, Empty),
      },
    },
    async (req) => {
      await integrations.revokeKey(req.actor, req.params.id, req.params.integrationId, req.params.keyId);
      return {};
    },
  );
}
