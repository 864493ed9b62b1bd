import { Account, UpdateAccountBody } from '@parley/protocol';
import { ACCOUNT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ADMIN_SECURITY, operations } from '../../../http/operation.js';
import type { IdentityService } from '../contract.js';

const AccountAnswer = Type.Object({ account: Account });

/** The caller's own account (`auth: 'account'`: a token, no workspace): its profile. */
export function accountRoutes(app: FastifyInstance, { identity }: { identity: IdentityService }) {
  const op = operations(app, { tags: ['account'], security: ADMIN_SECURITY });

  op(ACCOUNT_OPERATIONS.getAccount, { response: AccountAnswer }, async (req) => ({
    account: await identity.getAccount(req.principal),
  }));

  op(ACCOUNT_OPERATIONS.updateAccount, { body: UpdateAccountBody, response: AccountAnswer }, async (req) => ({
    account: await identity.updateAccount(req.principal, req.body),
  }));
}
