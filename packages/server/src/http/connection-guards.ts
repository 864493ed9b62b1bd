import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody } from '../errors/errors.js';

/** Time and count bounds on the connections and request bodies of a server. */
export interface ConnectionLimits {
  /** Most time the headers of a request may take to arrive. */
  headersTimeoutMs: number;
  /** Most time the whole body of an ordinary request may take to arrive. */
  bodyTimeoutMs: number;
  /** Most time the body of an upload may take (the idle timeout also ends one that stalls). */
  uploadTimeoutMs: number;
  /** Operation ids of the routes whose body is an upload (streamed, up to gigabytes). */
  uploadOperations: readonly string[];
  /** Most open connections from one client address (0: no cap). */
  perAddress: number;
}

/**
 * Bounds what a caller can hold open: headers and bodies must arrive in time (a body dripping one byte at a
 * time is answered 408 and its connection closed; an upload's body gets a long but finite bound, and the
 * socket idle timeout set on the server ends one that stalls), and one address may hold at most
 * `perAddress` connections (further ones are closed at once), so no single client can exhaust the
 * process's file descriptors.
 */
export function guardConnections(app: FastifyInstance, limits: ConnectionLimits): void {
  const server: Server = app.server;
  server.headersTimeout = limits.headersTimeoutMs;
  // Node checks request and header timeouts on this interval: keep it below the bounds it enforces.
  server.requestTimeout = 0;

  if (limits.perAddress > 0) {
    const open = new Map<string, number>();
    server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? '';
      const count = (open.get(address) ?? 0) + 1;
      if (count > limits.perAddress) {
        socket.destroy();
        return;
      }
      open.set(address, count);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
    });
  }

  // The bound is armed only for a body still missing once the event loop has handled what was read (a
  // setImmediate: ticks and microtasks run between the parser's headers and its body, before the rest of
  // the same read, usually the whole body, is parsed). A timer with its listeners for every small request
  // was a visible share of a chat message's path.
  const armBodyBound = (req: FastifyRequest, reply: FastifyReply): void => {
    const raw = req.raw;
    if (raw.complete || raw.destroyed) return;
    const operationId = (req.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
    const upload = operationId !== undefined && limits.uploadOperations.includes(operationId);
    const bound = upload ? limits.uploadTimeoutMs : limits.bodyTimeoutMs;
    const timer = setTimeout(() => {
      if (raw.complete || raw.destroyed) return;
      req.log.warn({ boundMs: bound }, 'request body did not arrive in time; connection closed');
      const socket = raw.socket;
      if (!reply.raw.headersSent && socket.writable) {
        const body = JSON.stringify({
          ...errorBody(
            new ApiError(
              'OperationTimeout',
              `The request body did not arrive within ${Math.round(bound / 1000)} s; send it at a steady pace or split it`,
            ),
          ),
          code: 408,
        });
        socket.end(
          `HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
        setTimeout(() => socket.destroy(), 1000).unref();
      } else {
        socket.destroy();
      }
    }, bound);
    timer.unref();
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    raw.once('close', clear);
    reply.raw.once('finish', clear);
  };

  app.addHook('onRequest', (req, reply, done) => {
    if (!req.raw.complete) setImmediate(armBodyBound, req, reply);
    done();
  });
}
