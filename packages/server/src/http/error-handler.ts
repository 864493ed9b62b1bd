import { ERROR_TYPES, type ErrorType } from '@parley/protocol';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ApiError, errorBody, type FieldError, newErrorId } from '../errors/errors.js';

const BY_STATUS: Record<number, ErrorType> = {
  400: 'InvalidPayload',
  401: 'Unauthorized',
  402: 'PaymentRequired',
  403: 'Forbidden',
  404: 'ResourceNotFound',
  405: 'MethodNotFound',
  409: 'AlreadyExists',
  410: 'ResourceGone',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'RateLimited',
  504: 'OperationTimeout',
};

function fieldName(instancePath: string, missing: unknown, context: string | undefined): string {
  const path = instancePath.replace(/^\//, '').replace(/\//g, '.');
  const base = typeof missing === 'string' ? (path ? `${path}.${missing}` : missing) : path;
  return base || context || 'body';
}

/** Turns any thrown error into the wire error, so clients always get `{id, code, type, message}`. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const e = (error ?? {}) as FastifyError & {
    validationContext?: string;
    validation?: Array<Record<string, unknown>>;
  };
  if (e.validation) {
    const context = e.validationContext;
    const fields: FieldError[] = e.validation.map((v) => {
      const params = (v.params ?? {}) as Record<string, unknown>;
      const field = fieldName(String(v.instancePath ?? ''), params.missingProperty, context);
      return { field, message: String(v.message ?? 'is invalid') };
    });
    const type: ErrorType =
      context === 'querystring'
        ? 'InvalidQuery'
        : context === 'params'
          ? 'InvalidIdentifier'
          : 'InvalidPayload';
    const where =
      context === 'querystring'
        ? 'query'
        : context === 'params'
          ? 'path'
          : context === 'headers'
            ? 'headers'
            : 'body';
    const summary = fields.map((f) => `${f.field} ${f.message}`).join('; ');
    return new ApiError(type, `Invalid request ${where}: ${summary}`, { errors: fields });
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(
        'PayloadTooLarge',
        `Request body is larger than this endpoint accepts: ${e.message}`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        'UnsupportedMediaType',
        `${e.message}. Send JSON with "Content-Type: application/json".`,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(
        'InvalidPayload',
        'The body is empty but Content-Type is application/json: send a JSON body or no Content-Type.',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('InvalidPayload', `Malformed JSON body: ${e.message}`);
  }
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status === 400 && e instanceof SyntaxError)
    return new ApiError('InvalidPayload', `Malformed JSON body: ${e.message}`);
  if (status >= 400 && status < 500) {
    const type = BY_STATUS[status] ?? 'InvalidPayload';
    return new ApiError(type, typeof e.message === 'string' && e.message ? e.message : type);
  }
  return internalError();
}

const internalError = () =>
  new ApiError(
    'Internal',
    'An internal error occurred. It has been logged; quote the error id when reporting it.',
  );

/**
 * The wire body of an error as JSON text. Serialised here, never by Fastify: when Fastify's serialiser of an
 * error fails, it answers its own body with its internal message (`FST_ERR_FAILED_ERROR_SERIALIZATION…`).
 * A body that cannot be serialised (metadata that is not JSON) becomes the generic internal error, same id.
 */
export function errorText(error: ApiError, id: string = newErrorId()): string {
  try {
    return JSON.stringify(errorBody(error, id));
  } catch {
    return JSON.stringify(errorBody(internalError(), id));
  }
}

/** Sends an error in the wire format, as text (see {@link errorText}). */
function sendError(reply: FastifyReply, apiError: ApiError, id: string): void {
  void reply
    .status(ERROR_TYPES[apiError.type])
    .type('application/json; charset=utf-8')
    .send(errorText(apiError, id));
}

/**
 * Installs the one error renderer and the not-found answer on an app. The renderer never throws: whatever was
 * thrown (a non-Error value, an object whose properties throw when read), the answer is a wire error, and a
 * 500's is the generic one.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const id = newErrorId();
    let apiError: ApiError;
    try {
      apiError = toApiError(error);
    } catch {
      apiError = internalError();
    }
    try {
      if (apiError.code >= 500) {
        request.log.error({ err: error, errorId: id }, 'request failed');
      } else {
        request.log.info(
          { errorType: apiError.type, errorId: id, message: apiError.message },
          'request rejected',
        );
      }
    } catch {
      // A log line that cannot be written does not change the answer.
    }
    if (apiError.type === 'RateLimited' && !reply.hasHeader('retry-after')) {
      // A service that knows how long to wait says so in the error's metadata (`retryAfterSeconds`).
      const wait = apiError.metadata?.retryAfterSeconds;
      reply.header('retry-after', String(typeof wait === 'number' && wait > 0 ? Math.ceil(wait) : 1));
    }
    sendError(reply, apiError, id);
  });
  app.setNotFoundHandler((request, reply) => {
    const apiError = new ApiError(
      'ResourceNotFound',
      `No operation at ${request.method} ${request.url.split('?')[0]}; see /docs for the API`,
    );
    sendError(reply, apiError, newErrorId());
  });
}
