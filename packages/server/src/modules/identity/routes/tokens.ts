import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CreatedToken, CreateTokenBody, Empty, TokenInfo } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, responses } from '../../../http/route-helpers.js';
import type { IdentityService } from '../contract.js';
import { IdParam } from './params.js';

/** The personal access tokens of the caller's account (`auth: 'account'`): listed, created, deleted. */
export function tokenRoutes(fastify: FastifyInstance, deps: { identity: IdentityService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { identity } = deps;

  app.get(
    '/account/pats',
    {
      config: { auth: 'account' },
      schema: {
        operationId: 'admin.listPersonalAccessTokens',
        tags: ['account'],
        security: BEARER,
        response: responses(200, Type.Object({ pats: Type.Array(TokenInfo) })),
      },
    },
    async (req) => ({
      pats: await identity.listPats(req.principal),
    }),
  );

  app.post(
    '/account/pats',
    {
      config: { auth: 'account' },
      schema: {
        operationId: 'admin.createPersonalAccessToken',
        tags: ['account'],
        security: BEARER,
        body: CreateTokenBody,
        response: responses(201, Type.Object({ pat: CreatedToken })),
      },
    },
    async (req, reply) => {
      const pat = await identity.createPat(req.principal, req.body);
      return reply.status(201).send({ pat });
    },
  );

  app.delete(
    '/account/pats/:id',
    {
      config: { auth: 'account' },
      schema: {
        operationId: 'admin.deletePersonalAccessToken',
        tags: ['account'],
        security: BEARER,
        params: IdParam,
        response: responses(200, Empty),
      },
    },
    async (req) => {
      await identity.deletePat(req.principal, req.params.id);
      return {};
    },
  );
}
