import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Empty, FileObject, UpdateFileBody } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { header } from '../../../http/headers.js';
import { BEARER, responses } from '../../../http/route-helpers.js';
import type { FilesService } from '../service.js';

const tags = ['files'];
const FileAnswer = Type.Object({ file: FileObject });
const IdParam = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 1024, description: 'File id or key' }),
});

/** One file of the bot, by id or key: get, update its fields, delete, copy. */
export function fileItemRoutes(fastify: FastifyInstance, files: FilesService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
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
}
