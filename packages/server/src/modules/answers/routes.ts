import { AnswerPreviewBody, AnswerPreviewResponse } from '@parley/protocol';
import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import Type from 'typebox';
import { ADMIN_SECURITY, operations } from '../../http/operation.js';
import type { AnswerPreviewService } from './preview.js';

const BotParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** The Admin API's preview of a bot's knowledge answers (`POST /v1/admin/bots/{id}/answer-preview`). */
export function answerPreviewRoutes(
  app: FastifyInstance,
  deps: { previews: AnswerPreviewService; toBotLog: preValidationAsyncHookHandler },
): void {
  const op = operations(app, { tags: ['bots'], security: ADMIN_SECURITY, preValidation: deps.toBotLog });

  op(
    BOT_OPERATIONS.previewBotAnswer,
    {
      description:
        'The reply the bot would give to a question in a conversation (text, sources, retrieval details), made by its own knowledge answers; nothing is stored. Reading the bot is enough.',
      params: BotParam,
      body: AnswerPreviewBody,
      response: AnswerPreviewResponse,
    },
    async (req) => deps.previews.preview(req.actor, req.params.id, req.body.question),
  );
}
