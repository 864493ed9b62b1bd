import { CreatedToken, CreateTokenBody, Empty, TokenInfo } from '@parley/protocol';
import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ADMIN_SECURITY, operations } from '../../../http/operation.js';
import { empty, listOf } from '../../../http/route-helpers.js';
import { BotParam, type BotRouteDeps, KeyParam } from './common.js';

/** A bot's access keys: listed, created (the value shown once) and revoked. */
export function botKeyRoutes(app: FastifyInstance, { bots, toBotLog }: BotRouteDeps): void {
  const op = operations(app, { tags: ['bots'], security: ADMIN_SECURITY, preValidation: toBotLog });

  op(
    BOT_OPERATIONS.listBotAccessKeys,
    {
      params: BotParam,
      response: listOf('keys', TokenInfo),
    },
    async (req) => ({ keys: await bots.listKeys(req.actor, req.params.id) }),
  );

  op(
    BOT_OPERATIONS.createBotAccessKey,
    {
      params: BotParam,
      body: CreateTokenBody,
      status: 201,
      response: Type.Object({ key: CreatedToken }),
    },
    async (req) => ({ key: await bots.createKey(req.actor, req.params.id, req.body ?? {}) }),
  );

  op(BOT_OPERATIONS.revokeBotAccessKey, { params: KeyParam, response: Empty }, async (req) =>
    empty(bots.revokeKey(req.actor, req.params.id, req.params.keyId)),
  );
}
