import { BOT_OPERATIONS } from '@parley/protocol/operations';
import { type ApiOf, apiClass } from './api-class.js';

/**
 * The operations `BotsApi` sends as its methods; `listenBotConversations` (a live stream) and the conversation
 * exports (streamed JSON or CSV) are `Client`'s own.
 */
const {
  listenBotConversations: _listen,
  exportBotConversations: _export,
  exportBotConversation: _exportOne,
  ...SENT
} = BOT_OPERATIONS;

/** The bots of a workspace (`/v1/admin/bots`): bots, their access keys, webchat, chat secrets, logs, usage. */
export type BotsApi = ApiOf<typeof SENT>;

/** Sends each method of `BotsApi` as its entry of `BOT_OPERATIONS`. */
export const BotsApi = apiClass(SENT);
