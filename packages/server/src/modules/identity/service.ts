import { identityAccounts, insertAccount } from './accounts.js';
import type { IdentityContext, IdentityDeps } from './context.js';
import type { IdentityService } from './contract.js';
import { identityInvitations } from './invitations.js';
import { identityKeys } from './keys.js';
import { identityMembers } from './members.js';
import { identityPasswords } from './passwords.js';
import { identityResolver } from './resolver.js';
import { identityRoles } from './roles.js';
import { sessionRepo } from './session-repo.js';
import { identitySessions } from './sessions.js';
import { identityTokens } from './tokens.js';
import { identityUsage } from './usage.js';
import { identityWorkspaces, insertWorkspace } from './workspaces.js';

export type { IdentityDeps } from './context.js';
export * from './contract.js';

/**
 * The identity model ({@link IdentityService}), composed of its use cases: accounts, tokens, keys,
 * workspaces, members, roles, invitations, passwords, sessions, usage, and the resolver the HTTP hooks authenticate with. Each is a
 * plain object of plain functions built from explicit dependencies: destructuring a method is safe.
 * @example const identity = identityService({ db, clock, config, audit });
 */
export function identityService(deps: IdentityDeps): IdentityService {
  const ctx: IdentityContext = { ...deps, now: () => deps.clock().toISOString() };
  return {
    resolver: identityResolver(ctx),
    tx: {
      createAccount: (tx, email, displayName) => insertAccount(ctx, tx, email, displayName),
      setPasswordHash: (tx, accountId, hash) => sessionRepo(tx).setPassword(accountId, hash, ctx.now()),
      createWorkspace: (tx, owner, name) => insertWorkspace(ctx, tx, owner, name),
    },
    ...identityAccounts(ctx),
    ...identityTokens(ctx),
    ...identityKeys(ctx),
    ...identityWorkspaces(ctx),
    ...identityMembers(ctx),
    ...identityRoles(ctx),
    ...identityInvitations(ctx),
    ...identityPasswords(ctx),
    ...identitySessions(ctx),
    ...identityUsage(ctx),
  };
}
