import { AcceptInvitationBody, Account, CreatedToken } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ADMIN_SECURITY, ANONYMOUS_BODY_LIMIT, operations } from '../../../http/operation.js';
import type { IdentityService } from '../contract.js';

/** Redeeming an invitation code: anonymously (a new account) or signed in as the account it names. */
export function invitationRoutes(app: FastifyInstance, { identity }: { identity: IdentityService }) {
  const op = operations(app, { tags: ['account'], security: ADMIN_SECURITY });

  op(
    'POST /account/invitations/accept',
    {
      operationId: 'admin.acceptInvitation',
      auth: 'optional',
      bodyLimit: ANONYMOUS_BODY_LIMIT,
      description:
        'Redeems a one-time invitation code. Without a token it creates the account of the invited e-mail and answers its first personal access token (`pat`). When an account already holds that e-mail, only that account may accept: send its token, and the answer has no `pat`; 409 without one, 403 for another account.',
      body: AcceptInvitationBody,
      status: 201,
      response: Type.Object({
        account: Account,
        pat: Type.Optional(CreatedToken),
        workspaceId: Type.String(),
      }),
    },
    async (req) => {
      // A token is optional here (auth 'optional'): with one, the caller accepts as the account it signs in.
      const result = await identity.acceptInvitation(req.body, req.parley.principal);
      return {
        account: result.account,
        ...(result.token ? { pat: result.token } : {}),
        workspaceId: result.workspaceId,
      };
    },
  );
}
