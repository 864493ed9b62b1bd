import { composeUseCases } from '../use-cases.js';
import type { BotsContext, BotsDeps } from './context.js';
import type { BotsService } from './contract.js';
import { botCreation } from './creation.js';
import { botDirectory } from './directory.js';
import { botKeys } from './keys.js';
import { botManagement } from './management.js';
import { botWebchat } from './webchat.js';

export type { BotsDeps } from './context.js';
export * from './contract.js';

/**
 * Bots ({@link BotsService}), composed of their use cases: the directory other modules read, creation, management,
 * access keys and the dashboard webchat configuration. Each is a plain object of plain functions.
 * @example const bots = botsService({ db, clock, config, audit, identity, onChatCredentialsChanged });
 */
export function botsService(deps: BotsDeps): BotsService {
  const ctx: BotsContext = {
    ...deps,
    now: () => deps.clock().toISOString(),
    credentialsChanged: (botId) => deps.onChatCredentialsChanged?.(botId),
  };
  return composeUseCases(ctx, botDirectory, botCreation, botManagement, botKeys, botWebchat);
}
