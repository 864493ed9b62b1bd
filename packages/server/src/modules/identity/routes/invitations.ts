import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AcceptInvitationBody, Account, CreatedToken } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { responses } from '../../../http/route-helpers.js';
import type { IdentityService } from '../contract.js';

/** Redeeming an invitation code: anonymously (a new account) or signed in as the account it names. */
export function invitationRoutes(fastify: FastifyInstance, deps: { identity: IdentityService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { identity } = deps;

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
