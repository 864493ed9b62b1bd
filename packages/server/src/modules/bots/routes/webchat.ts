import { BotWebchatResponse, WebchatConfiguration } from '@parley/protocol';
import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ADMIN_SECURITY, operations } from '../../../http/operation.js';
import { BotParam, type BotRouteDeps } from './common.js';

/** A bot's dashboard webchat configuration: read and replaced. */
export function botWebchatRoutes(app: FastifyInstance, { bots, toBotLog }: BotRouteDeps): void {
  const op = operations(app, { tags: ['bots'], security: ADMIN_SECURITY, preValidation: toBotLog });

  op(
    BOT_OPERATIONS.getBotWebchat,
    {
      params: BotParam,
      response: BotWebchatResponse,
    },
    async (req) => ({ configuration: await bots.getWebchat(req.actor, req.params.id) }),
  );

  op(
    BOT_OPERATIONS.updateBotWebchat,
    {
      description:
        'Replaces the dashboard webchat configuration; every field is checked against the spec table and each bad one named.',
      params: BotParam,
      body: Type.Object(
        { configuration: Type.Unknown({ description: 'Webchat configuration object' }) },
        { required: ['configuration'] },
      ),
      response: Type.Object({ configuration: WebchatConfiguration }),
    },
    async (req) => ({
      configuration: await bots.putWebchat(req.actor, req.params.id, req.body.configuration),
    }),
  );
}
