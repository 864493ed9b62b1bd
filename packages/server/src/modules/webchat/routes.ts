import { WebchatConfiguration } from '@parley/protocol';
import { WEBCHAT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ApiError } from '../../errors/errors.js';
import { sendBuiltFile } from '../../http/built-files.js';
import { OPEN_CORS } from '../../http/cors.js';
import { header } from '../../http/headers.js';
import { operations } from '../../http/operation.js';
import { NOT_FOUND_PAGE_CSP, notFoundPage, prefersHtml } from './not-found-page.js';
import { WEBCHAT_ASSETS, type WebchatService } from './service.js';

/** The name of a webchat script (inject.js or webchat.js). */
const ScriptFile = Type.Object({ file: Type.String({ maxLength: 100 }) });

const BotId = Type.Object({
  botId: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }),
});

/**
 * The embeddable webchat: `GET /webchat/v1/{inject.js,webchat.js}` (the built bundle),
 * `GET /webchat/v1/bots/{botId}/config` (public configuration) and `GET /webchat/{botId}` (hosted page).
 */
export function webchatRoutes(app: FastifyInstance, deps: { webchat: WebchatService; publicUrl: string }) {
  // Public: nobody is authenticated, and no operation declares a security.
  const op = operations(app, { tags: ['webchat'], security: {} });

  op(
    'GET /webchat/v1/:file',
    { operationId: 'webchat.getScript', hide: true, params: ScriptFile },
    async (req, reply) => {
      const { file } = req.params;
      const spec = WEBCHAT_ASSETS[file];
      const asset = spec ? await deps.webchat.asset(file) : undefined;
      if (!spec || !asset) {
        throw new ApiError(
          'ResourceNotFound',
          spec
            ? `The webchat is not built (${file} is missing): run \`npm run build\` (or \`npm run build -w @parley/webchat\`) and restart`
            : `No webchat file "${file}" (inject.js or webchat.js)`,
        );
      }
      return sendBuiltFile(reply, asset, {
        type: spec.type,
        maxAge: spec.maxAge,
        headers: { ...OPEN_CORS.asset, 'cross-origin-resource-policy': 'cross-origin' },
      });
    },
  );

  op(
    WEBCHAT_OPERATIONS.getConfiguration,
    {
      description:
        "A bot's public webchat configuration (the dashboard one, without adminKey) and its name, read by the webchat script.",
      params: BotId,
      response: Type.Object({
        bot: Type.Object({ id: Type.String(), name: Type.String() }),
        configuration: WebchatConfiguration,
      }),
    },
    async (req, reply) => {
      const found = await deps.webchat.publicConfig(req.params.botId);
      reply.headers(OPEN_CORS.asset).header('cache-control', 'no-cache');
      if (!found) throw new ApiError('ResourceNotFound', `Bot "${req.params.botId}" was not found`);
      return found;
    },
  );

  op(
    'GET /webchat/:botId',
    { operationId: 'webchat.getHostedPage', hide: true, params: BotId },
    async (req, reply) => {
      const page = await deps.webchat.hostedPage(req.params.botId, {
        scriptUrl: '/webchat/v1/inject.js',
        connectOrigins: [new URL(deps.publicUrl).origin],
      });
      // A person following a link gets a page that says so; an API client keeps the JSON error.
      reply.header('vary', 'accept');
      if (!page && prefersHtml(header(req, 'accept'))) {
        return reply
          .status(404)
          .header('content-type', 'text/html; charset=utf-8')
          .header('content-security-policy', NOT_FOUND_PAGE_CSP)
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .send(notFoundPage(req.params.botId));
      }
      if (!page) throw new ApiError('ResourceNotFound', `Bot "${req.params.botId}" was not found`);
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', page.csp)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'strict-origin-when-cross-origin')
        .send(page.html);
    },
  );
}
