import type { FastifyInstance } from 'fastify';
import type { SessionTransport } from '../../http/session-cookie.js';
import type { IdentityService } from './contract.js';
import { accountRoutes } from './routes/account.js';
import { invitationRoutes } from './routes/invitations.js';
import { memberRoutes } from './routes/members.js';
import { sessionRoutes } from './routes/sessions.js';
import { tokenRoutes } from './routes/tokens.js';
import { workspaceRoutes } from './routes/workspaces.js';

/**
 * Account, personal access tokens, invitations, workspaces, members and usage, by resource (`routes/`).
 * Sign-in (passwords, sessions) is `routes/sessions.ts`, beside the account and its tokens.
 */
export function identityRoutes(
  app: FastifyInstance,
  deps: { identity: IdentityService; sessions: SessionTransport },
) {
  accountRoutes(app, deps);
  tokenRoutes(app, deps);
  sessionRoutes(app, deps);
  invitationRoutes(app, deps);
  workspaceRoutes(app, deps);
  memberRoutes(app, deps);
}
