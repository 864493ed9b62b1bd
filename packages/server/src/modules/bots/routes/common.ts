import type { preValidationAsyncHookHandler } from 'fastify';
import Type from 'typebox';
import { IdParam } from '../../../http/route-helpers.js';
import type { BotsService } from '../contract.js';

/** What the routes of the bots module are registered with. */
export interface BotRouteDeps {
  bots: BotsService;
  /** The preValidation hook that sends a request about one bot to that bot's log. */
  toBotLog: preValidationAsyncHookHandler;
}

/** The `:id` of a bot. */
export const BotParam = IdParam;
/** The `:id` of a bot and the `:keyId` of one of its keys. */
export const KeyParam = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  keyId: Type.String({ minLength: 1, maxLength: 100 }),
});
