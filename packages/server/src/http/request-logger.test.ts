import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger } from './request-logger.js';

/** A Fastify app logging at `level` into `lines` (parsed), through lazyRequestLogger; and its logger's child spy. */
function appAt(level: string): { app: FastifyInstance; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      callback();
    },
  });
  const app = Fastify({
    logger: { level, stream },
    childLoggerFactory: lazyRequestLogger,
    genReqId: () => 'req_test',
  });
  app.get('/quiet', async (req) => {
    req.log.debug('not written at warn');
    return { ok: true };
  });
  app.get('/warns', async (req) => {
    req.log.info('not written at warn');
    req.log.warn({ detail: 1 }, 'written');
    req.log.child({ part: 'inner' }).error('from a child');
    return { ok: true };
  });
  app.get('/debug-route', { logLevel: 'debug' }, async (req) => {
    req.log.debug('written: the route logs at debug');
    return { ok: true };
  });
  return { app, lines };
}

describe('lazyRequestLogger', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
    vi.restoreAllMocks();
  });

  it('makes no child logger for a request that writes no line', async () => {
    const built = appAt('warn');
    app = built.app;
    await app.ready();
    const child = vi.spyOn(app.log, 'child');
    const res = await app.inject({ method: 'GET', url: '/quiet' });
    expect(res.statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect(built.lines).toEqual([]);
  });

  it('writes the lines of enabled levels with the request id, from the request and from its children', async () => {
    const built = appAt('warn');
    app = built.app;
    const res = await app.inject({ method: 'GET', url: '/warns' });
    expect(res.statusCode).toBe(200);
    expect(built.lines.map((l) => [l.level, l.msg, l.reqId, l.detail, l.part])).toEqual([
      [40, 'written', 'req_test', 1, undefined],
      [50, 'from a child', 'req_test', undefined, 'inner'],
    ]);
  });

  it("logs Fastify's own request lines at info, and a route's own level", async () => {
    const built = appAt('info');
    app = built.app;
    await app.inject({ method: 'GET', url: '/quiet' });
    expect(built.lines.map((l) => [l.msg, l.reqId])).toEqual([
      ['incoming request', 'req_test'],
      ['request completed', 'req_test'],
    ]);
    built.lines.length = 0;
    await app.inject({ method: 'GET', url: '/debug-route' });
    expect(built.lines.map((l) => l.msg)).toContain('written: the route logs at debug');
  });

  it("reports the parent's level, and takes a level of its own", async () => {
    const built = appAt('warn');
    app = built.app;
    app.get('/level', async (req) => {
      const before = req.log.level;
      req.log.level = 'debug';
      req.log.debug('written after the level change');
      return { before, after: req.log.level };
    });
    const res = await app.inject({ method: 'GET', url: '/level' });
    expect(res.json()).toEqual({ before: 'warn', after: 'debug' });
    // The request's own level now lets Fastify's info line through as well, as a pino child would.
    expect(built.lines.map((l) => l.msg)).toEqual(['written after the level change', 'request completed']);
    expect(app.log.level).toBe('warn');
  });
});
