import { CHAT_OPERATIONS } from '@parley/protocol/operations';
import { type ApiOf, apiClass } from './api-class.js';

/** The operations `ChatClient` sends as its methods; `listen` (the live stream) is its own. */
const { listen: _listen, ...SENT } = CHAT_OPERATIONS;

/** The operations of the Chat API of one bot, as the methods of `ChatClient`. */
export type ChatApi = ApiOf<typeof SENT>;

/** Sends each method of `ChatApi` as its entry of `CHAT_OPERATIONS`, `botId` filled by the chat client. */
export const ChatApi = apiClass<typeof SENT, 'botId'>(SENT);
