import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ChatFileResponse, CreateChatFileBody } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../http/route-helpers.js';
import { BotParams, type ChatRouteContext, schema } from './common.js';

/** Chat file uploads (when the bot's webchat allows them). */
export function fileRoutes(fastify: FastifyInstance, { chat }: ChatRouteContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/:botId/files',
    {
      schema: schema(
        'chat.createFile',
        "Starts a chat file upload (only when the bot's webchat configuration has allowFileUpload): PUT the bytes to uploadUrl, then send a file or image message with url.",
        { params: BotParams, body: CreateChatFileBody, response: responses(201, ChatFileResponse) },
      ),
    },
    async (req, reply) => reply.status(201).send({ file: await chat.createFile(req.chatCaller, req.body) }),
  );
}
