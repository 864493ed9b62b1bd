import { ChatFileResponse, CreateChatFileBody } from '@parley/protocol';
import { CHAT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import { operations } from '../../../http/operation.js';
import { BotParams, type ChatRouteContext, defaults } from './common.js';

/** Chat file uploads (when the bot's webchat allows them). */
export function fileRoutes(app: FastifyInstance, { chat }: ChatRouteContext): void {
  operations(app, defaults)(
    CHAT_OPERATIONS.createFile,
    {
      description:
        "Starts a chat file upload (only when the bot's webchat configuration has allowFileUpload): PUT the bytes to uploadUrl, then send a file or image message with url.",
      params: BotParams,
      body: CreateChatFileBody,
      status: 201,
      response: ChatFileResponse,
    },
    async (req) => ({ file: await chat.createFile(req.chatCaller, req.body) }),
  );
}
