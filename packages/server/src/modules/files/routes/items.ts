import { Empty, FileObject, UpdateFileBody } from '@parley/protocol';
import { FILE_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { header } from '../../../http/headers.js';
import { FILES_OPERATIONS, operations } from '../../../http/operation.js';
import { empty } from '../../../http/route-helpers.js';
import type { FilesService } from '../service.js';

const FileAnswer = Type.Object({ file: FileObject });
const IdParam = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 1024, description: 'File id or key' }),
});
const CopyParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 1024 }),
  destinationKey: Type.String({ minLength: 1, maxLength: 1024 }),
});

/** One file of the bot, by id or key: get, update its fields, delete, copy. */
export function fileItemRoutes(app: FastifyInstance, files: FilesService): void {
  const op = operations(app, FILES_OPERATIONS);

  op(FILE_OPERATIONS.getFile, { params: IdParam, response: FileAnswer }, async (req) => ({
    file: await files.get(req.filesCaller, req.params.id),
  }));

  op(
    FILE_OPERATIONS.updateFileMetadata,
    { params: IdParam, body: UpdateFileBody, response: FileAnswer },
    async (req) => ({ file: await files.update(req.filesCaller, req.params.id, req.body) }),
  );

  op(FILE_OPERATIONS.deleteFile, { params: IdParam, response: Empty }, async (req) =>
    empty(files.delete(req.filesCaller, req.params.id)),
  );

  op(
    FILE_OPERATIONS.copyFile,
    {
      description:
        'Copies a file to destinationKey, on the same bot or on the bot named by x-destination-bot-id.',
      params: CopyParams,
      body: Type.Optional(Type.Object({ overwrite: Type.Optional(Type.Boolean()) })),
      response: FileAnswer,
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
      const overwrite = req.body?.overwrite ?? false;
      return {
        file: await files.copy(source, req.params.id, req.params.destinationKey, destination, overwrite),
      };
    },
  );
}
