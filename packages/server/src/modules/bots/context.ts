import type { Kysely } from 'kysely';
import type { Actor } from '../../access/principal.js';
import type { Config } from '../../config/config.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import type { AuditService } from '../audit/service.js';
import type { IdentityService } from '../identity/service.js';
import { type BotRow, botsRepo } from './repo.js';

/** What the bots service is built from. */
export interface BotsDeps {
  db: Kysely<Database>;
  clock: () => Date;
  config: Config;
  audit: AuditService;
  identity: IdentityService;
  /**
   * Called after a change that takes chat credentials away from someone (the adminKey changed, a bot
   * access key was revoked, the bot deleted): live streams opened with them end.
   */
  onChatCredentialsChanged?: (botId: string) => void;
}

/** What the use cases of the bots module are built from. */
export interface BotsContext extends BotsDeps {
  /** The injected clock's time as an ISO string. */
  now: () => string;
  /** Ends the live chat streams opened with credentials of the bot that may have gone. */
  credentialsChanged: (botId: string) => void;
}

/** A bot of the actor's workspace; 404 for an unknown id or another workspace's bot. */
export async function loadBot(db: Kysely<Database>, actor: Actor, id: string): Promise<BotRow> {
  const row = await botsRepo(db).byId(actor.workspaceId, id);
  if (!row) throw errors.notFound('Bot', id);
  return row;
}
