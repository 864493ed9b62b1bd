import type { FastifyInstance } from 'fastify';
import type { IdentityService } from './contract.js';
import { accountRoutes } from './routes/account.js';
import { invitationRoutes } from './routes/invitations.js';
import { memberRoutes } from './routes/members.js';
import { tokenRoutes } from './routes/tokens.js';
import { workspaceRoutes } from './routes/workspaces.js';

/**
 * Account, personal access tokens, invitations, workspaces, members and usage, by resource (`routes/`).
 * A console's sign-in routes (passwords, sessions) belong beside `routes/account.ts` and `routes/tokens.ts`.
 */
export function identityRoutes(app: FastifyInstance, deps: { identity: IdentityService }) {
  accountRoutes(app, deps);
  tokenRoutes(app, deps);
  invitationRoutes(app, deps);
  workspaceRoutes(app, deps);
  memberRoutes(app, deps);
}
