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
  /** Fewest bytes an upload body must bring in every `uploadRateWindowMs` (0: no minimum). */
  uploadMinBytes: number;
  uploadRateWindowMs: number;
  /** Most upload bodies received at once for one URL (path), and from one client address (0: no cap). */
  uploadsPerUrl: number;
  uploadsPerAddress: number;
  /** Most open connections from one client address (0: no cap). */
  perAddress: number;
}

/** Answers 408 OperationTimeout on the socket itself (whatever the handler is doing) and closes it. */
function answerTimeout(req: FastifyRequest, reply: FastifyReply, message: string): void {
  const socket = req.raw.socket;
  if (!reply.raw.headersSent && socket.writable) {
    const body = JSON.stringify({ ...errorBody(new ApiError('OperationTimeout', message)), code: 408 });
    socket.end(
      `HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), 1000).unref();
  } else {
    socket.destroy();
  }
}

/**
 * True when the client went away before its request body ended (a dropped upload, or one the guards
 * closed): nobody is left to answer, and it is no failure of the service.
 */
export function clientGone(req: FastifyRequest): boolean {
  return !req.raw.complete && req.raw.socket?.destroyed === true;
}

/** The operation id of a request's route. */
const operationOf = (req: FastifyRequest): string | undefined =>
  (req.routeOptions.schema as { operationId?: string } | undefined)?.operationId;

/** Counts in flight by key, each at most `cap`: `take` answers false at the cap, else a release (once). */
function inFlight(cap: number) {
  const counts = new Map<string, number>();
  return (key: string): (() => void) | false => {
    const count = counts.get(key) ?? 0;
    if (cap > 0 && count >= cap) return false;
    counts.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (counts.get(key) ?? 1) - 1;
      if (left <= 0) counts.delete(key);
      else counts.set(key, left);
    };
  };
}

/**
 * Caps the upload bodies received at once, in this process: per URL (409 ResourceLockedConflict, so one
 * upload URL cannot hold thousands of connections) and per client address (429 RateLimited; `req.ip`, which
 * follows X-Forwarded-For only behind a trusted proxy). A refused request's connection closes after the answer.
 */
function capUploads(app: FastifyInstance, limits: ConnectionLimits): void {
  const perUrl = inFlight(limits.uploadsPerUrl);
  const perAddress = inFlight(limits.uploadsPerAddress);
  app.addHook('onRequest', async (req, reply) => {
    const operationId = operationOf(req);
    if (operationId === undefined || !limits.uploadOperations.includes(operationId)) return;
    const url = perUrl(`${req.method} ${req.url.split('?')[0]}`);
    if (!url) {
      reply.header('connection', 'close');
      throw new ApiError(
        'ResourceLockedConflict',
        `An upload to this URL is already in progress (at most ${limits.uploadsPerUrl} at once): wait for it to end, then ask where it stands`,
      );
    }
    const address = perAddress(req.ip);
    if (!address) {
      url();
      reply.header('connection', 'close');
      throw new ApiError(
        'RateLimited',
        `Too many uploads from your address at once (at most ${limits.uploadsPerAddress}): wait for one to end`,
        { retryAfterSeconds: 5 },
      );
    }
    const release = () => {
      url();
      address();
    };
    reply.raw.once('finish', release);
    reply.raw.once('close', release);
  });
}

/**
 * Ends an upload body that brings fewer than `uploadMinBytes` in a window of `uploadRateWindowMs` with 408
 * (bytes counted on the socket; a window in which the service itself had not read what arrived does not count).
 */
function watchUploadRate(req: FastifyRequest, reply: FastifyReply, limits: ConnectionLimits): () => void {
  const raw = req.raw;
  const socket = raw.socket;
  let last = socket.bytesRead;
  const window = limits.uploadRateWindowMs;
  const timer = setInterval(() => {
    if (raw.complete || raw.destroyed) {
      clearInterval(timer);
      return;
    }
    const read = socket.bytesRead;
    const arrived = read - last;
    last = read;
    if (arrived >= limits.uploadMinBytes || raw.readableLength > 0) return;
    clearInterval(timer);
    req.log.warn(
      { arrivedBytes: arrived, windowMs: window, minBytes: limits.uploadMinBytes },
      'upload body too slow; connection closed',
    );
    answerTimeout(
      req,
      reply,
      `The upload brought ${arrived} bytes in ${window / 1000} s, fewer than the ${limits.uploadMinBytes} required: send it at a steady pace, or resume it later`,
    );
  }, window);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Bounds what a caller can hold open: headers and bodies must arrive in time (a body dripping one byte at a
 * time is answered 408 and its connection closed; an upload's body gets a long but finite bound, must keep a
 * minimum byte rate, and the socket idle timeout set on the server ends one that stalls), one address may
 * hold at most `perAddress` connections (further ones are closed at once), and upload bodies are capped per
 * URL and per address, so no single client can exhaust the process's file descriptors.
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

  capUploads(app, limits);

  // The bound is armed only for a body still missing once the event loop has handled what was read (a
  // setImmediate: ticks and microtasks run between the parser's headers and its body, before the rest of
  // the same read, usually the whole body, is parsed). A timer with its listeners for every small request
  // was a visible share of a chat message's path.
  const armBodyBound = (req: FastifyRequest, reply: FastifyReply): void => {
    const raw = req.raw;
    if (raw.complete || raw.destroyed) return;
    const operationId = operationOf(req);
    const upload = operationId !== undefined && limits.uploadOperations.includes(operationId);
    const bound = upload ? limits.uploadTimeoutMs : limits.bodyTimeoutMs;
    const stopRate = upload && limits.uploadMinBytes > 0 ? watchUploadRate(req, reply, limits) : undefined;
    const timer = setTimeout(() => {
      if (raw.complete || raw.destroyed) return;
      stopRate?.();
      req.log.warn({ boundMs: bound }, 'request body did not arrive in time; connection closed');
      answerTimeout(
        req,
        reply,
        `The request body did not arrive within ${Math.round(bound / 1000)} s; send it at a steady pace or split it`,
      );
    }, bound);
    timer.unref();
    const clear = () => {
      clearTimeout(timer);
      stopRate?.();
    };
    raw.once('end', clear);
    raw.once('close', clear);
    reply.raw.once('finish', clear);
  };

  app.addHook('onRequest', (req, reply, done) => {
    if (!req.raw.complete) setImmediate(armBodyBound, req, reply);
    done();
  });
}
