import { CreatedToken, CreateTokenBody, Empty, TokenInfo } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ADMIN_SECURITY, operations } from '../../../http/operation.js';
import { empty, listOf } from '../../../http/route-helpers.js';
import type { IdentityService } from '../contract.js';
import { IdParam } from './params.js';

/** The personal access tokens of the caller's account (`auth: 'account'`): listed, created, deleted. */
export function tokenRoutes(app: FastifyInstance, { identity }: { identity: IdentityService }) {
  const op = operations(app, { tags: ['account'], security: ADMIN_SECURITY });

  op(
    'GET /account/pats',
    {
      operationId: 'admin.listPersonalAccessTokens',
      auth: 'account',
      response: listOf('pats', TokenInfo),
    },
    async (req) => ({ pats: await identity.listPats(req.principal) }),
  );

  op(
    'POST /account/pats',
    {
      operationId: 'admin.createPersonalAccessToken',
      auth: 'account',
      body: CreateTokenBody,
      status: 201,
      response: Type.Object({ pat: CreatedToken }),
    },
    async (req) => ({ pat: await identity.createPat(req.principal, req.body) }),
  );

  op(
    'DELETE /account/pats/:id',
    { operationId: 'admin.deletePersonalAccessToken', auth: 'account', params: IdParam, response: Empty },
    async (req) => empty(identity.deletePat(req.principal, req.params.id)),
  );
}
