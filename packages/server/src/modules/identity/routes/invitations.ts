import { AcceptInvitationBody, Account } from '@parley/protocol';
import { ACCOUNT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { header } from '../../../http/headers.js';
import { ADMIN_SECURITY, ANONYMOUS_BODY_LIMIT, operations } from '../../../http/operation.js';
import type { IdentityService } from '../contract.js';

/** Redeeming an invitation code: anonymously with a password (then sign in), or signed in as the account it names. */
export function invitationRoutes(app: FastifyInstance, { identity }: { identity: IdentityService }) {
  const op = operations(app, { tags: ['account'], security: ADMIN_SECURITY });

  op(
    ACCOUNT_OPERATIONS.acceptInvitation,
    {
      bodyLimit: ANONYMOUS_BODY_LIMIT,
      description:
        'Redeems a one-time invitation code. Signed in (a token or the session cookie), only the account of the invited e-mail may accept (403 for another), and the answer names it. Without a token, `password` is required and the answer is the same whether or not an account holds the e-mail: the account is created with that password (or, if an invitation from another workspace made it and nobody ever signed into it, reset to it), or an existing account joins when the password is its own; then sign in with the e-mail and password. The code is used up either way.',
      body: AcceptInvitationBody,
      status: 201,
      response: Type.Object({
        email: Type.String(),
        workspaceId: Type.String(),
        account: Type.Optional(Account),
      }),
    },
    // A token is optional here (auth 'optional'): with one, the caller accepts as the account it signs in.
    async (req) => {
      const result = await identity.acceptInvitation(req.body, req.parley.principal, {
        userAgent: header(req, 'user-agent') ?? '',
        address: req.ip,
      });
      return {
        email: result.email,
        workspaceId: result.workspaceId,
        ...(result.account ? { account: result.account } : {}),
      };
    },
  );
}
