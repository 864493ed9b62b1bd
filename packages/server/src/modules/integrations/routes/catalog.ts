import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CreateIntegrationBody, Empty, Integration, ListMeta, PageQuery } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, pageBody, responses } from '../../../http/route-helpers.js';
import { IdParam, type IntegrationRouteDeps, tags } from './common.js';

/** The integrations of the caller's workspace: listed, created, read and deleted. */
export function integrationCatalogRoutes(
  fastify: FastifyInstance,
  { integrations }: Pick<IntegrationRouteDeps, 'integrations'>,
): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

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
}
