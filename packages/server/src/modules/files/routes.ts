import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  Empty,
  FileObject,
  ListFilesQuery,
  ListMeta,
  UpdateFileBody,
  UpsertFileBody,
  Usage,
} from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { type AuthResolver, requirePrincipal } from '../../http/context.js';
import { header } from '../../http/headers.js';
import { BEARER, listBody, responses } from '../../http/route-helpers.js';
import { parseTagFilter } from '../../http/tag-filter.js';
import { capabilityRoutes } from './capability-routes.js';
import type { FilesContext, FilesService } from './service.js';

const IdParam = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 1024, description: 'File id or key' }),
});
const PageOnly = Type.Object({
  nextToken: Type.Optional(Type.String()),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});
const tags = ['files'];
const FileAnswer = Type.Object({ file: FileObject });

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of a Files API route: its token acting on the bot named by `x-bot-id` (see filesAuth). */
    readonly filesCaller: FilesContext;
  }
}

/**
 * The authentication of the Files API surface: unless a route says `config: { auth: 'none' }` (the capability
 * URLs, whose URL is the credential), the caller is its token acting on the bot named by `x-bot-id`, put on
 * the request as `filesCaller` (and its bot named in the bot's request log). Install once on the surface.
 */
export function installFilesAuth(
  app: FastifyInstance,
  deps: { files: FilesService; auth: AuthResolver },
): void {
  app.decorateRequest('filesCaller', {
    getter(this: FastifyRequest): FilesContext {
      const caller = (this.parley as { files?: FilesContext }).files;
      if (!caller)
        throw new Error(`${this.routeOptions.url ?? this.url} reads request.filesCaller unauthenticated`);
      return caller;
    },
  } as never);
  app.addHook('preHandler', async (req) => {
    if ((req.routeOptions.config?.auth ?? 'bot') === 'none' || req.method === 'OPTIONS') return;
    const caller = await deps.files.context(await requirePrincipal(req, deps.auth), header(req, 'x-bot-id'));
    req.parley.botId = caller.botId;
    (req.parley as { files?: FilesContext }).files = { ...caller, log: req.log };
  });
}

/** Admin API routes the files module answers: a bot's File Storage usage. */
export function fileAdminRoutes(fastify: FastifyInstance, deps: { files: FilesService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/bots/:id/usages',
    {
      schema: {
        operationId: 'admin.listBotUsages',
        tags: ['bots'],
        security: BEARER,
        description: "The bot's usage figures: File Storage bytes (storage_count) against the per-bot quota.",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: responses(200, Type.Object({ usages: Type.Array(Usage) })),
      },
    },
    async (req) => ({
      usages: await deps.files.botUsages(req.actor, req.params.id),
    }),
  );
}

/** The Files API (`/v1/files`, `x-bot-id` required) plus the upload and download URLs it hands out. */
export function fileRoutes(fastify: FastifyInstance, deps: { files: FilesService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { files } = deps;

  app.put(
    '/',
    {
      schema: {
        operationId: 'files.upsertFile',
        tags,
        security: BEARER,
        description:
          'Creates a file record, or replaces the one with the same key; answers the file with an uploadUrl to PUT the bytes to.',
        body: UpsertFileBody,
        response: responses(
          200,
          Type.Object({ file: Type.Object({ ...FileObject.properties, uploadUrl: Type.String() }) }),
        ),
      },
    },
    async (req) => ({ file: await files.upsert(req.filesCaller, req.body) }),
  );

  app.get(
    '/',
    {
      schema: {
        operationId: 'files.listFiles',
        tags,
        security: BEARER,
        description:
          'Files of the bot the caller may access; tag filters as tags.k=v, tags[k]=v or tags={JSON}.',
        querystring: ListFilesQuery,
        response: responses(200, Type.Object({ files: Type.Array(FileObject), meta: ListMeta })),
      },
    },
    async (req) => {
      const q = req.query;
      const page = await files.list(req.filesCaller, {
        nextToken: q.nextToken,
        pageSize: q.pageSize,
        sortField: q.sortField,
        sortDirection: q.sortDirection,
        tags: parseTagFilter(q as Record<string, unknown>),
        ids: q.ids,
        indexed: q.indexed,
      });
      return listBody('files', page) as { files: never[]; meta: object };
    },
  );

  app.get(
    '/tags',
    {
      schema: {
        operationId: 'files.listFileTags',
        tags,
        security: BEARER,
        querystring: PageOnly,
        response: responses(200, Type.Object({ tags: Type.Array(Type.String()), meta: ListMeta })),
      },
    },
    async (req) =>
      listBody('tags', await files.tagKeys(req.filesCaller, req.query)) as { tags: string[]; meta: object },
  );

  app.get(
    '/tags/:tag/values',
    {
      schema: {
        operationId: 'files.listFileTagValues',
        tags,
        security: BEARER,
        params: Type.Object({ tag: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: PageOnly,
        response: responses(200, Type.Object({ values: Type.Array(Type.String()), meta: ListMeta })),
      },
    },
    async (req) =>
      listBody('values', await files.tagValues(req.filesCaller, req.params.tag, req.query)) as {
        values: string[];
        meta: object;
      },
  );

  app.get(
    '/:id',
    {
      schema: {
        operationId: 'files.getFile',
        tags,
        security: BEARER,
        params: IdParam,
        response: responses(200, FileAnswer),
      },
    },
    async (req) => ({
      file: await files.get(req.filesCaller, req.params.id),
    }),
  );

  app.put(
    '/:id',
    {
      schema: {
        operationId: 'files.updateFileMetadata',
        tags,
        security: BEARER,
        params: IdParam,
        body: UpdateFileBody,
        response: responses(200, FileAnswer),
      },
    },
    async (req) => ({ file: await files.update(req.filesCaller, req.params.id, req.body) }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        operationId: 'files.deleteFile',
        tags,
        security: BEARER,
        params: IdParam,
        response: responses(200, Empty),
      },
    },
    async (req) => {
      await files.delete(req.filesCaller, req.params.id);
      return {};
    },
  );

  app.post(
    '/:id/:destinationKey',
    {
      schema: {
        operationId: 'files.copyFile',
        tags,
        security: BEARER,
        description:
          'Copies a file to destinationKey, on the same bot or on the bot named by x-destination-bot-id.',
        params: Type.Object({
          id: Type.String({ minLength: 1, maxLength: 1024 }),
          destinationKey: Type.String({ minLength: 1, maxLength: 1024 }),
        }),
        body: Type.Optional(Type.Object({ overwrite: Type.Optional(Type.Boolean()) })),
        response: responses(200, FileAnswer),
      },
      // The body is optional: a bare POST copies without overwrite (else validation answers "body must be object").
      preValidation: async (req) => {
        if (req.body == null) req.body = {};
      },
    },
    async (req) => {
      const source = req.filesCaller;
      const destinationBot = header(req, 'x-destination-bot-id');
      const destination =
        destinationBot && destinationBot !== source.botId
          ? await files.context(req.principal, destinationBot)
          : source;
      return {
        file: await files.copy(
          source,
          req.params.id,
          req.params.destinationKey,
          destination,
          req.body?.overwrite ?? false,
        ),
      };
    },
  );

  capabilityRoutes(fastify, deps);
}
