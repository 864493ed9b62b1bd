import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  CreatedToken,
  CreateIntegrationBody,
  CreateTokenBody,
  Empty,
  Installation,
  Integration,
  ListMeta,
  PageQuery,
  TokenInfo,
} from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { BEARER, pageBody, responses } from '../../http/route-helpers.js';
import type { IntegrationsService } from './service.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const IdParam = Type.Object({ id: Id });
const InstallationParams = Type.Object({ id: Id, integrationId: Id });
const KeyParams = Type.Object({ id: Id, integrationId: Id, keyId: Id });

/** Integrations, their installation on bots and their keys. */
export function integrationRoutes(
  fastify: FastifyInstance,
  deps: {
    integrations: IntegrationsService;
    /** The `preValidation` hook that sends requests about a bot to its log (bots/routes.ts's `markBot`). */
    preHandler: (req: FastifyRequest) => Promise<void>;
  },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { integrations } = deps;
  const toBotLog = deps.preHandler;
  const tags = ['integrations'];

  app.get(
    '/integrations',
    {
      schema: {
        operationId: 'admin.listIntegrations',
        tags,
        security: BEARER,
        querystring: Type.Object(PageQuery),
        response: responses(200, Type.Object({ integrations: Type.Array(Integration), meta: ListMeta })),
      },
    },
    async (req) => pageBody('integrations', await integrations.list(req.actor, req.query)),
  );

  app.post(
    '/integrations',
    {
      schema: {
        operationId: 'admin.createIntegration',
        tags,
        security: BEARER,
        body: CreateIntegrationBody,
        response: responses(201, Type.Object({ integration: Integration })),
      },
    },
    async (req, reply) =>
      reply.status(201).send({ integration: await integrations.create(req.actor, req.body) }),
  );

  app.get(
    '/integrations/:id',
    {
      schema: {
        operationId: 'admin.getIntegration',
        tags,
        security: BEARER,
        params: IdParam,
        response: responses(200, Type.Object({ integration: Integration })),
      },
    },
    async (req) => ({
      integration: await integrations.get(req.actor, req.params.id),
    }),
  );

  app.delete(
    '/integrations/:id',
    {
      schema: {
        operationId: 'admin.deleteIntegration',
        tags,
        security: BEARER,
        params: IdParam,
        response: responses(200, Empty),
      },
    },
    async (req) => {
      await integrations.delete(req.actor, req.params.id);
      return {};
    },
  );

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
