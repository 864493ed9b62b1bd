import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BotWebchatResponse, WebchatConfiguration } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, responses } from '../../../http/route-helpers.js';
import { BotParam, type BotRouteDeps } from './common.js';

/** A bot's dashboard webchat configuration: read and replaced. */
export function botWebchatRoutes(fastify: FastifyInstance, { bots, toBotLog }: BotRouteDeps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/bots/:id/webchat',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.getBotWebchat',
        tags: ['bots'],
        security: BEARER,
        params: BotParam,
        response: responses(200, BotWebchatResponse),
      },
    },
    async (req) => ({
      configuration: await bots.getWebchat(req.actor, req.params.id),
    }),
  );

  app.put(
    '/bots/:id/webchat',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.updateBotWebchat',
        tags: ['bots'],
        security: BEARER,
        description:
          'Replaces the dashboard webchat configuration; every field is checked against the spec table and each bad one named.',
        params: BotParam,
        body: Type.Object(
          { configuration: Type.Unknown({ description: 'Webchat configuration object' }) },
          { required: ['configuration'] },
        ),
        response: responses(200, Type.Object({ configuration: WebchatConfiguration })),
      },
    },
    async (req) => ({
      configuration: await bots.putWebchat(req.actor, req.params.id, req.body.configuration),
    }),
  );
}
