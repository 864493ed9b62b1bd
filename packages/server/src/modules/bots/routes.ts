import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { Actor } from '../../access/principal.js';
import { type AuthResolver, requireWorkspaceActor } from '../../http/context.js';
import type { BotsService } from './contract.js';
import { botCrudRoutes } from './routes/bots.js';
import { botKeyRoutes } from './routes/keys.js';
import { botWebchatRoutes } from './routes/webchat.js';

/**
 * Marks the bot a request concerns (its `:id`), once the caller is known to see it, so the bot's request log
 * gets the line. Runs before validation (so rejected payloads are logged too) and never fails the request
 * itself: a caller that cannot be resolved is simply not attributed (the authentication hook, which runs
 * before the body is read, has answered its 401 already).
 */
export async function markBot(
  req: FastifyRequest,
  bots: Pick<BotsService, 'exists'>,
  auth: AuthResolver,
): Promise<void> {
  const id = (req.params as { id?: string }).id;
  if (!id) return;
  let actor: Actor;
  try {
    actor = await requireWorkspaceActor(req, auth);
  } catch {
    return;
  }
  if (await bots.exists(actor.workspaceId, id)) req.parley.botId = id;
}

/**
 * The `preValidation` hook of a route about one bot (`/bots/:id/…`) whose requests go to that bot's log.
 * @example app.get('/bots/:id/things', { preValidation: botMarker(bots, auth), schema }, handler)
 */
export function botMarker(
  bots: Pick<BotsService, 'exists'>,
  auth: AuthResolver,
): preValidationAsyncHookHandler {
  return (req) => markBot(req, bots, auth);
}

/** Bots, their access keys and their webchat configuration (`routes/`, by resource). */
export function botRoutes(app: FastifyInstance, deps: { bots: BotsService; auth: AuthResolver }) {
  const routeDeps = { bots: deps.bots, toBotLog: botMarker(deps.bots, deps.auth) };
  botCrudRoutes(app, routeDeps);
  botKeyRoutes(app, routeDeps);
  botWebchatRoutes(app, routeDeps);
}
