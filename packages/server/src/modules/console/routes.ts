import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ApiError } from '../../errors/errors.js';
import { sendBuiltFile } from '../../http/built-files.js';
import { operations } from '../../http/operation.js';
import { FAVICON_MAX_AGE, FAVICON_TYPE, favicon } from './favicon.js';
import { CONSOLE_CSP, type ConsoleService } from './service.js';

/** A year: the assets' names carry their content hash, so a changed file is a new URL. */
const ASSET_MAX_AGE = 31_536_000;

/** The name of a file under assets/. */
const AssetFile = Type.Object({ file: Type.String({ maxLength: 200 }) });

/**
 * The Console: `GET /` and `GET /console` redirect to `/console/`; `GET /favicon.svg` (and `/favicon.ico`) answer
 * Parley's icon; `GET /console/assets/{file}` serves the
 * hashed bundle files (cached for a year, immutable); every other `GET /console/…` answers the one HTML page
 * (no-store, strict CSP), so that a deep link works on reload and the Console's router shows the page.
 */
export function consoleRoutes(app: FastifyInstance, deps: { console: ConsoleService }) {
  // Public files: the page signs people in through the Admin API, which authenticates each call itself.
  const op = operations(app, { tags: ['console'], security: {} });

  for (const [path, operationId] of [
    ['/', 'console.redirectRoot'],
    ['/console', 'console.redirect'],
  ] as const) {
    op(`GET ${path}`, { operationId, hide: true }, async (_req, reply) => reply.redirect('/console/', 302));
  }

  // The icon of the Console and of the hosted webchat page; browsers also ask /favicon.ico unprompted.
  for (const [path, operationId] of [
    ['/favicon.svg', 'console.getIcon'],
    ['/favicon.ico', 'console.getIconIco'],
  ] as const) {
    op(`GET ${path}`, { operationId, hide: true }, async (_req, reply) =>
      sendBuiltFile(reply, favicon(), { type: FAVICON_TYPE, maxAge: FAVICON_MAX_AGE }),
    );
  }

  op(
    'GET /console/assets/:file',
    { operationId: 'console.getAsset', hide: true, params: AssetFile },
    async (req, reply) => {
      const asset = await deps.console.asset(req.params.file);
      if (!asset) throw new ApiError('ResourceNotFound', `No Console file "${req.params.file}"`);
      return sendBuiltFile(reply, asset, { type: asset.type, maxAge: ASSET_MAX_AGE, immutable: true });
    },
  );

  op('GET /console/*', { operationId: 'console.getPage', hide: true }, async (req, reply) => {
    // A file under assets/ that is not one (a nested path) is a missing file, not a page.
    if (req.url.startsWith('/console/assets/')) {
      throw new ApiError('ResourceNotFound', `No Console file "${req.url.slice('/console/assets/'.length)}"`);
    }
    const page = await deps.console.page();
    if (!page) {
      throw new ApiError(
        'ResourceNotFound',
        'The Console is not built (packages/console/dist/index.html is missing): run `npm run build` and restart',
      );
    }
    return reply
      .header('content-type', page.type)
      .header('content-security-policy', CONSOLE_CSP)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'same-origin')
      .send(page.body);
  });
}
