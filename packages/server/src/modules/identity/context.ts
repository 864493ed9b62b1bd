import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor, Principal } from '../../access/principal.js';
import type { Config } from '../../config/config.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import type { AuditService } from '../audit/service.js';
import { type AccountRow, identityRepo } from './repo.js';

/** What the identity service is built from. */
export interface IdentityDeps {
  db: Kysely<Database>;
  clock: () => Date;
  config: Config;
  audit: AuditService;
}

/** What the use cases of the identity module are built from: its dependencies and the time now. */
export interface IdentityContext extends IdentityDeps {
  /** The injected clock's time as an ISO string. */
  now: () => string;
}

/** A member of a workspace, as an actor. */
export type MemberActor = Extract<Actor, { kind: 'member' }>;

/** The actor as a member: a bot or integration key, which is no member, answers 403. */
export function requireMember(actor: Actor): MemberActor {
  if (actor.kind !== 'member') authorize(actor, 'member.read');
  return actor as MemberActor;
}

/** The account of a principal: 403 for a bot or integration key, 401 when the account no longer exists. */
export async function accountOf(db: Kysely<Database>, principal: Principal): Promise<AccountRow> {
  if (principal.kind !== 'account') throw errors.forbidden('Only a personal access token has an account');
  const row = await identityRepo(db).accountById(principal.accountId);
  if (!row) throw errors.unauthorized('The account of this token no longer exists');
  return row;
}
