import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AcceptInvitationBody,
  Account,
  CreatedToken,
  CreateTokenBody,
  Empty,
  TokenInfo,
  UpdateAccountBody,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, responses } from '../../../http/route-helpers.js';
import type { IdentityService } from '../contract.js';
import { IdParam } from './params.js';

/** The caller's own account (`auth: 'account'`: a token, no workspace): profile, personal access tokens, invitations. */
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

  app.post(
    '/account/invitations/accept',
    {
      config: { auth: 'optional' },
      schema: {
        operationId: 'admin.acceptInvitation',
        tags: ['account'],
        description:
          'Redeems a one-time invitation code. Without a token it creates the account of the invited e-mail and answers its first personal access token (`pat`). When an account already holds that e-mail, only that account may accept: send its token, and the answer has no `pat`; 409 without one, 403 for another account.',
        body: AcceptInvitationBody,
        response: responses(
          201,
          Type.Object({ account: Account, pat: Type.Optional(CreatedToken), workspaceId: Type.String() }),
        ),
      },
    },
    async (req, reply) => {
      // A token is optional here (auth 'optional'): with one, the caller accepts as the account it signs in.
      const caller = req.parley.principal;
      const result = await identity.acceptInvitation(req.body, caller);
      return reply.status(201).send({
        account: result.account,
        ...(result.token ? { pat: result.token } : {}),
        workspaceId: result.workspaceId,
      });
    },
  );
}
