import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Account, UpdateAccountBody } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, responses } from '../../../http/route-helpers.js';
import type { IdentityService } from '../contract.js';

/** The caller's own account (`auth: 'account'`: a token, no workspace): its profile. */
export function accountRoutes(fastify: FastifyInstance, deps: { identity: IdentityService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { identity } = deps;

  app.get(
    '/account/me',
    {
      config: { auth: 'account' },
      schema: {
        operationId: 'admin.getAccount',
        tags: ['account'],
        security: BEARER,
        response: responses(200, Type.Object({ account: Account })),
      },
    },
    async (req) => ({
      account: await identity.getAccount(req.principal),
    }),
  );

  app.put(
    '/account/me',
    {
      config: { auth: 'account' },
      schema: {
        operationId: 'admin.updateAccount',
        tags: ['account'],
        security: BEARER,
        body: UpdateAccountBody,
        response: responses(200, Type.Object({ account: Account })),
      },
    },
    async (req) => ({
      account: await identity.updateAccount(req.principal, req.body),
    }),
  );
}
