import type { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { FileObject, ResumableUpload } from '@parley/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rangeParser from 'range-parser';
import Type, { type TSchema } from 'typebox';
import type { ByteRange } from '../../../blob/blob-store.js';
import { newErrorId } from '../../../errors/errors.js';
import { clientGone } from '../../../http/connection-guards.js';
import { contentDisposition } from '../../../http/content-disposition.js';
import { installOpenCors, OPEN_CORS, openCorsAnswer } from '../../../http/cors.js';
import { header } from '../../../http/headers.js';
import { responses } from '../../../http/route-helpers.js';
import { parseOffset } from '../resumable.js';
import type { FileContent, FilesService } from '../service.js';

const tags = ['files'];
const FileAnswer = Type.Object({ file: FileObject });
const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
/** Types shown inline; anything else downloads as an attachment so uploaded HTML never runs on our origin. */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif)|audio\/|video\/|application\/pdf$|text\/plain)/;

/**
 * CORS of the capability URLs (signed upload URLs, download URLs): the URL itself is the credential and no
 * cookie is ever read, so any origin may use them, e.g. a webchat on a customer's site uploading a file.
 */
const CAPABILITY_CORS = OPEN_CORS.capability;
/** Route config of the capability URLs: the token APIs' CORS (PARLEY_CORS_ORIGINS) leaves them alone. */
const OWN_CORS = { cors: false, auth: 'none' } as const;

/** The options of a documented capability route: its own CORS and no token (OWN_CORS), its schema under `tags`. */
function capabilityRoute<S extends { operationId: string; description?: string; params: TSchema }>(
  schema: S,
) {
  return { config: OWN_CORS, schema: { ...schema, tags } };
}

type DownloadRequest = FastifyRequest<{ Params: { id: string }; Querystring: Record<string, string> }>;

/** The byte range a Range header asks of `size` bytes: none (the whole file), one range, or unsatisfiable. */
function rangeOf(size: number, rangeHeader: string | undefined): ByteRange | 'unsatisfiable' | undefined {
  if (!rangeHeader) return undefined;
  const parsed = rangeParser(size, rangeHeader, { combine: true });
  if (parsed === -1) return 'unsatisfiable';
  if (parsed !== -2 && parsed.type === 'bytes' && parsed.length === 1 && parsed[0])
    return { start: parsed[0].start, end: parsed[0].end };
  return undefined;
}

/** The headers of a download: sandboxed, inline only for safe types, cacheable only when public. */
function contentHeaders(reply: FastifyReply, content: FileContent, isPublic: boolean): void {
  const inline = INLINE.test(content.contentType);
  const filename = content.key.split('/').pop() || 'file';
  reply
    .header('content-type', content.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "sandbox; default-src 'none'")
    .header('content-disposition', contentDisposition(filename, inline ? 'inline' : 'attachment'))
    .header('accept-ranges', 'bytes')
    .header('etag', content.etag)
    .header('last-modified', new Date(content.lastModified).toUTCString())
    .header('cache-control', isPublic ? 'public, max-age=60' : 'private, no-store');
}

/** How an upload's bytes arrive besides the body: its declared length, a signal aborted if the client goes away. */
type UploadOptions = ReturnType<typeof uploadStream>['options'];

/**
 * Receives an upload's body: `store` reads it (see uploadStream). When that fails because the client went away
 * mid-body (dropped, or closed by the connection guards), logs it at debug level and answers nothing (there is
 * nobody to answer): a dropped upload is no failure of the service. Other failures propagate to the error renderer.
 */
async function receiving<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  store: (body: Readable, options: UploadOptions) => Promise<T>,
) {
  const { body, options } = uploadStream(req);
  try {
    return await store(body, options);
  } catch (error) {
    if (!clientGone(req)) throw error;
    req.log.debug(
      { reason: error instanceof Error ? error.message : String(error) },
      'upload dropped: the connection closed before its body arrived',
    );
    reply.hijack();
    return undefined;
  }
}

/** GET and HEAD of a download URL (signed and short-lived, or permanent for public_content). No token. */
async function download(files: FilesService, req: DownloadRequest, reply: FastifyReply) {
  reply.headers(openCorsAnswer('capability'));
  const rangeHeader = header(req, 'range');
  // The size is needed to read a Range header, so the content is opened in two steps only when one is sent.
  const content = await files.openContent(req.params.id, req.query);
  const range = rangeOf(content.size, rangeHeader);
  contentHeaders(reply, content, req.query.public === '1');
  const ifNoneMatch = header(req, 'if-none-match');
  if (ifNoneMatch?.split(',').some((t) => t.trim() === content.etag || t.trim() === '*')) {
    return reply.status(304).send();
  }
  if (range === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${content.size}`)
      .type('application/json')
      .send({
        id: newErrorId(),
        code: 416,
        type: 'InvalidQuery',
        message: `Range "${rangeHeader}" cannot be satisfied: the file has ${content.size} bytes`,
      });
  }
  const length = range ? range.end - range.start + 1 : content.size;
  reply.header('content-length', String(length));
  if (range) reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${content.size}`);
  if (req.method === 'HEAD' || length === 0) return reply.send();
  return reply.send(await content.open(range));
}

/**
 * The capability URLs the Files API hands out, whose URL is the credential: downloads (GET, HEAD) and the
 * byte upload (PUT, streamed), with their own CORS.
 */
export function capabilityRoutes(fastify: FastifyInstance, deps: { files: FilesService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { files } = deps;
  const handler = (req: DownloadRequest, reply: FastifyReply) => download(files, req, reply);
  // HEAD: the same handler, which then sends headers only. Declared before the GET so that Fastify does not add
  // its own HEAD route (exposeHeadRoutes), which would answer Content-Length: 0 for a body-less reply.
  app.head('/:id/content', { config: OWN_CORS, schema: { hide: true, params: IdParam } }, handler as never);
  app.get(
    '/:id/content',
    capabilityRoute({ operationId: 'files.downloadFile', params: IdParam }),
    handler as never,
  );

  const preflight = async (_req: FastifyRequest, reply: FastifyReply) =>
    reply.status(204).headers(CAPABILITY_CORS).send();
  app.options('/:id/content', { config: OWN_CORS, schema: { hide: true } }, preflight);

  // Uploads: the raw bytes to the uploadUrl, streamed; no token (the URL is the capability).
  app.register(async (scope) => {
    const raw = uploadScope(scope, '/:id/upload');
    raw.put(
      '/:id/upload',
      capabilityRoute({
        operationId: 'files.uploadFileContent',
        description:
          'The byte upload to an uploadUrl: exactly the declared size, streamed. More bytes: 413 and nothing kept.',
        params: IdParam,
        response: responses(200, FileAnswer),
      }),
      async (req, reply) =>
        receiving(req, reply, async (body, options) => ({
          file: await files.upload(req.params.id, req.query as Record<string, string>, body, options),
        })),
    );
  });

  app.register(async (scope) => resumableRoutes(scope, files));
}

const UploadParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  uploadId: Type.String({ minLength: 1, maxLength: 100 }),
});
const UploadAnswer = Type.Object({ upload: ResumableUpload });
const AppendAnswer = Type.Object({ upload: ResumableUpload, file: Type.Optional(FileObject) });

/** An upload request's body, as the content type parser left it: the request's stream. */
const bodyOf = (req: FastifyRequest) => (req.body ?? req.raw) as Readable;

/** How an upload's bytes arrive: the body, its declared length, a signal aborted if the client goes away. */
function uploadStream(req: FastifyRequest) {
  const declared = header(req, 'content-length');
  const length = declared === undefined ? undefined : Number(declared);
  const options = {
    contentLength: Number.isFinite(length) ? length : undefined,
    signal: clientGoneSignal(req),
    log: req.log,
  };
  return { body: bodyOf(req), options };
}

/**
 * A plugin scope for routes that take upload bytes: the capability CORS with its preflight at `preflightPath`,
 * and every body left to the route as the request's stream (no content type parsed).
 */
function uploadScope(fastify: FastifyInstance, preflightPath: string) {
  const raw = fastify.withTypeProvider<TypeBoxTypeProvider>();
  installOpenCors(raw, 'capability', { preflightPaths: [preflightPath] });
  raw.removeAllContentTypeParsers();
  raw.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
  return raw;
}

/** Aborts when the client goes away before its request body ended. */
function clientGoneSignal(req: FastifyRequest): AbortSignal {
  const controller = new AbortController();
  req.raw.once('close', () => {
    if (!req.raw.complete) controller.abort(new Error('the client closed the connection during the upload'));
  });
  return controller.signal;
}

/**
 * Resumable uploads (see modules/files/resumable.ts): POST to an uploadUrl starts one (or answers the one
 * started), then its own signed URL takes PATCHes of bytes at the server's offset, GET of its state and DELETE.
 * No token: like the uploadUrl, the signed URL is the credential.
 */
function resumableRoutes(fastify: FastifyInstance, files: FilesService) {
  // The uploadUrl's preflight is answered beside its PUT (the same capability CORS).
  const raw = uploadScope(fastify, '/:id/uploads/:uploadId');
  const offsetHeader = (reply: FastifyReply, offset: number, size: number) =>
    reply.header('upload-offset', String(offset)).header('upload-length', String(size));

  raw.post(
    '/:id/upload',
    capabilityRoute({
      operationId: 'files.startResumableUpload',
      description:
        'Starts a resumable upload of an uploadUrl (201), or answers the one already started for it (200): PATCH the bytes to its url from its offset.',
      params: IdParam,
      response: { ...responses(200, UploadAnswer), 201: UploadAnswer },
    }),
    async (req, reply) => {
      bodyOf(req).resume();
      const { created, upload } = await files.startResumable(
        req.params.id,
        req.query as Record<string, string>,
      );
      offsetHeader(reply, upload.offset, upload.size).header('location', upload.url);
      return reply.status((created ? 201 : 200) as 201).send({ upload });
    },
  );

  raw.get(
    '/:id/uploads/:uploadId',
    capabilityRoute({
      operationId: 'files.getResumableUpload',
      description:
        'The state of a resumable upload: the offset to send the next bytes from (also `upload-offset`).',
      params: UploadParams,
      response: responses(200, UploadAnswer),
    }),
    async (req, reply) => {
      const upload = await files.resumableStatus(
        req.params.id,
        req.params.uploadId,
        req.query as Record<string, string>,
      );
      offsetHeader(reply, upload.offset, upload.size).header('cache-control', 'no-store');
      return { upload };
    },
  );

  raw.patch(
    '/:id/uploads/:uploadId',
    capabilityRoute({
      operationId: 'files.appendResumableUpload',
      description:
        'Appends the body at `upload-offset` (409 with the server offset unless it matches; 413 past the declared size). The request that completes the bytes answers the stored file too.',
      params: UploadParams,
      response: responses(200, AppendAnswer),
    }),
    async (req, reply) => {
      let offset: number;
      try {
        offset = parseOffset(header(req, 'upload-offset'));
      } catch (error) {
        bodyOf(req).resume();
        throw error;
      }
      const answer = await receiving(req, reply, (body, options) =>
        files.appendResumable(
          req.params.id,
          req.params.uploadId,
          req.query as Record<string, string>,
          offset,
          body,
          options,
        ),
      );
      if (answer === undefined) return reply;
      offsetHeader(reply, answer.upload.offset, answer.upload.size);
      return answer;
    },
  );

  raw.delete(
    '/:id/uploads/:uploadId',
    capabilityRoute({
      operationId: 'files.cancelResumableUpload',
      description: 'Cancels a resumable upload: the bytes received are dropped.',
      params: UploadParams,
      response: { 204: Type.Null() },
    }),
    async (req, reply) => {
      bodyOf(req).resume();
      await files.cancelResumable(req.params.id, req.params.uploadId, req.query as Record<string, string>);
      return reply.status(204).send(null);
    },
  );
}
