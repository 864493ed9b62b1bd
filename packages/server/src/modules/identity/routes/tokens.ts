import { CreatedToken, CreateTokenBody, Empty, TokenInfo } from '@parley/protocol';
import { ACCOUNT_OPERATIONS } from '@parley/protocol/operations';
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
    ACCOUNT_OPERATIONS.listPersonalAccessTokens,
    {
      response: listOf('pats', TokenInfo),
    },
    async (req) => ({ pats: await identity.listPats(req.principal) }),
  );

  op(
    ACCOUNT_OPERATIONS.createPersonalAccessToken,
    {
      body: CreateTokenBody,
      status: 201,
      response: Type.Object({ pat: CreatedToken }),
    },
    async (req) => ({ pat: await identity.createPat(req.principal, req.body) }),
  );

  op(ACCOUNT_OPERATIONS.deletePersonalAccessToken, { params: IdParam, response: Empty }, async (req) =>
    empty(identity.deletePat(req.principal, req.params.id)),
  );
}
