import { Usage } from '@parley/protocol';
import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { type AuthResolver, requirePrincipal, sessionPrincipal } from '../../http/context.js';
import { header } from '../../http/headers.js';
import { ADMIN_SECURITY, operations } from '../../http/operation.js';
import { IdParam } from '../../http/route-helpers.js';
import type { SessionTransport } from '../../http/session-cookie.js';
import { capabilityRoutes } from './routes/capabilities.js';
import { fileCollectionRoutes } from './routes/collection.js';
import { fileItemRoutes } from './routes/items.js';
import type { FilesContext, FilesService } from './service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of a Files API route: its token acting on the bot named by `x-bot-id` (see filesAuth). */
    readonly filesCaller: FilesContext;
  }
}

/**
 * The authentication of the Files API surface: unless a route says `config: { auth: 'none' }` (the capability
 * URLs, whose URL is the credential), the caller is its token acting on the bot named by `x-bot-id`, put on
 * the request as `filesCaller` (and its bot named in the bot's request log). Without an Authorization header, a
 * signed-in person's session cookie stands for their account (state changes from the service's origin only).
 * Install once on the surface.
 */
export function installFilesAuth(
  app: FastifyInstance,
  deps: { files: FilesService; auth: AuthResolver; sessions: SessionTransport },
): void {
  app.decorateRequest('filesCaller', {
    getter(this: FastifyRequest): FilesContext {
      const caller = (this.parley as { files?: FilesContext }).files;
      if (!caller)
        throw new Error(`${this.routeOptions.url ?? this.url} reads request.filesCaller unauthenticated`);
      return caller;
    },
  } as never);
  // Before the body is read: an unauthenticated request is refused with its body unread.
  app.addHook('preParsing', async (req) => {
    if ((req.routeOptions.config?.auth ?? 'bot') === 'none' || req.method === 'OPTIONS') return;
    await sessionPrincipal(req, deps.auth, deps.sessions, 'account');
    const caller = await deps.files.context(await requirePrincipal(req, deps.auth), header(req, 'x-bot-id'));
    req.parley.botId = caller.botId;
    (req.parley as { files?: FilesContext }).files = { ...caller, log: req.log };
  });
}

/** Admin API routes the files module answers: a bot's File Storage usage. */
export function fileAdminRoutes(app: FastifyInstance, deps: { files: FilesService }) {
  operations(app, { tags: ['bots'], security: ADMIN_SECURITY })(
    BOT_OPERATIONS.listBotUsages,
    {
      description: "The bot's usage figures: File Storage bytes (storage_count) against the per-bot quota.",
      params: IdParam,
      response: Type.Object({ usages: Type.Array(Usage) }),
    },
    async (req) => ({ usages: await deps.files.botUsages(req.actor, req.params.id) }),
  );
}

/** The Files API (`/v1/files`, `x-bot-id` required) plus the upload and download URLs it hands out. */
export function fileRoutes(fastify: FastifyInstance, deps: { files: FilesService }) {
  // Registered in this order, so the OpenAPI document lists the operations as it always has.
  fileCollectionRoutes(fastify, deps.files);
  fileItemRoutes(fastify, deps.files);
  capabilityRoutes(fastify, deps);
}
