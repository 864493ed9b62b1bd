import type { FastifyInstance } from 'fastify';
import type { IdentityService } from './contract.js';
import { accountRoutes } from './routes/account.js';
import { memberRoutes } from './routes/members.js';
import { workspaceRoutes } from './routes/workspaces.js';

/**
 * Account, personal access tokens, invitations, workspaces, members and usage, by resource (`routes/`).
 * A console's sign-in routes (passwords, sessions) belong beside `routes/account.ts`.
 */
export function identityRoutes(app: FastifyInstance, deps: { identity: IdentityService }) {
  accountRoutes(app, deps);
  workspaceRoutes(app, deps);
  memberRoutes(app, deps);
}
