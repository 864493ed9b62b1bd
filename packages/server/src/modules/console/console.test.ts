import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { installErrorHandling } from '../../http/error-handler.js';
import { consoleRoutes } from './routes.js';
import { consoleService } from './service.js';

const HTML =
  '<!doctype html><title>Parley Console</title><script type="module" src="/console/assets/console-ABC123.js"></script>';

describe('console serving', () => {
  let dist: string;
  let app: FastifyInstance;
  let unbuilt: FastifyInstance;

  beforeAll(async () => {
    // A built Console as packages/console/build.mjs writes one: index.html and hashed assets.
    dist = await mkdtemp(join(tmpdir(), 'parley-console-dist-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), HTML);
    await writeFile(join(dist, 'assets', 'console-ABC123.js'), 'console.log(1);');
    await writeFile(join(dist, 'assets', 'console-DEF456.css'), 'body{margin:0}');
    await writeFile(join(dist, 'secret.txt'), 'not an asset');
    app = Fastify({ logger: false });
    installErrorHandling(app);
    consoleRoutes(app, { console: consoleService({ distDir: dist }) });
    unbuilt = Fastify({ logger: false });
    installErrorHandling(unbuilt);
    consoleRoutes(unbuilt, { console: consoleService({ distDir: join(dist, 'nothing-here') }) });
  });

  afterAll(async () => {
    await app?.close();
    await unbuilt?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('answers the page at /console/ with a strict CSP, no-store and no framing', async () => {
    const res = await app.inject({ method: 'GET', url: '/console/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(HTML);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    const csp = String(res.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
    );
    expect(directives).toMatchObject({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'connect-src': "'self'",
      // The webchat designer frames the bot's hosted chat page, of the same origin, and nothing else.
      'frame-src': "'self'",
      'frame-ancestors': "'none'",
      'base-uri': "'none'",
    });
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
  });

  it.each(['/favicon.svg', '/favicon.ico'])(
    "answers Parley's icon at %s (an SVG of its own, cached a day)",
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect(res.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>\n$/s);
      expect(res.body).not.toMatch(/<script|href=/);
      const again = await app.inject({ method: 'GET', url, headers: { 'if-none-match': res.headers.etag } });
      expect(again.statusCode).toBe(304);
    },
  );

  it.each(['/console/bots', '/console/bots/3f1c-a/settings', '/console/account?tab=x', '/console/nowhere'])(
    'answers the same page for any deep link (%s), so a reload shows the same place',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(HTML);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    },
  );

  it('serves hashed assets for a year, immutable, with their type and an ETag', async () => {
    const js = await app.inject({ method: 'GET', url: '/console/assets/console-ABC123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.body).toBe('console.log(1);');
    expect(js.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    const again = await app.inject({
      method: 'GET',
      url: '/console/assets/console-ABC123.js',
      headers: { 'if-none-match': String(js.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const css = await app.inject({ method: 'GET', url: '/console/assets/console-DEF456.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it.each([
    '/console/assets/console-OLDHASH.js',
    '/console/assets/secret.txt',
    '/console/assets/..%2Fsecret.txt',
    '/console/assets/..%2Findex.html',
    '/console/assets/nested/console-ABC123.js',
  ])('answers 404 for a missing asset or a name that is not an asset (%s), never the page', async (url) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ type: 'ResourceNotFound' });
    expect(res.body).not.toContain('not an asset');
  });

  it('redirects /console to /console/', async () => {
    const res = await app.inject({ method: 'GET', url: '/console' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/console/');
  });

  it('says how to build it when the Console is not built', async () => {
    const res = await unbuilt.inject({ method: 'GET', url: '/console/bots' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('npm run build');
  });

  describe('in the Parley app', () => {
    const t = useTestApp();

    it('redirects / to /console/', async () => {
      const res = await t.call({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/console/');
    });
  });
});
