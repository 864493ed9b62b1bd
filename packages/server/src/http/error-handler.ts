import { ERROR_TYPES, type ErrorType } from '@parley/protocol';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, errorBody, type FieldError } from '../errors/errors.js';

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
    return new ApiError(type, e.message || type);
  }
  return new ApiError(
    'Internal',
    'An internal error occurred. It has been logged; quote the error id when reporting it.',
  );
}

/** Installs the one error renderer and the not-found answer on an app. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    const body = errorBody(apiError);
    if (apiError.code >= 500) {
      request.log.error({ err: error, errorId: body.id }, 'request failed');
    } else {
      request.log.info(
        { errorType: apiError.type, errorId: body.id, message: apiError.message },
        'request rejected',
      );
    }
    if (apiError.type === 'RateLimited' && !reply.hasHeader('retry-after')) {
      // A service that knows how long to wait says so in the error's metadata (`retryAfterSeconds`).
      const wait = apiError.metadata?.retryAfterSeconds;
      reply.header('retry-after', String(typeof wait === 'number' && wait > 0 ? Math.ceil(wait) : 1));
    }
    void reply.status(ERROR_TYPES[apiError.type]).type('application/json; charset=utf-8').send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const apiError = new ApiError(
      'ResourceNotFound',
      `No operation at ${request.method} ${request.url.split('?')[0]}; see /docs for the API`,
    );
    void reply.status(404).send(errorBody(apiError));
  });
}
