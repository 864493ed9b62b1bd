import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CreatedToken, CreateTokenBody, Empty, TokenInfo } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, responses } from '../../../http/route-helpers.js';
import { BotParam, type BotRouteDeps, KeyParam } from './common.js';

/** A bot's access keys: listed, created (the value shown once) and revoked. */
export function botKeyRoutes(fastify: FastifyInstance, { bots, toBotLog }: BotRouteDeps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/bots/:id/access-keys',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.listBotAccessKeys',
        tags: ['bots'],
        security: BEARER,
        params: BotParam,
        response: responses(200, Type.Object({ keys: Type.Array(TokenInfo) })),
      },
    },
    async (req) => ({
      keys: await bots.listKeys(req.actor, req.params.id),
    }),
  );

  app.post(
    '/bots/:id/access-keys',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.createBotAccessKey',
        tags: ['bots'],
        security: BEARER,
        params: BotParam,
        body: CreateTokenBody,
        response: responses(201, Type.Object({ key: CreatedToken })),
      },
    },
    async (req, reply) =>
      reply.status(201).send({ key: await bots.createKey(req.actor, req.params.id, req.body ?? {}) }),
  );

  app.delete(
    '/bots/:id/access-keys/:keyId',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.revokeBotAccessKey',
        tags: ['bots'],
        security: BEARER,
        params: KeyParam,
        response: responses(200, Empty),
      },
    },
    async (req) => {
      await bots.revokeKey(req.actor, req.params.id, req.params.keyId);
      return {};
    },
  );
}
