import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installSurfaceCaller } from './surface-caller.js';

describe('installSurfaceCaller', () => {
  it('authenticates every route but those of auth none and preflights, and reads the caller back', async () => {
    const app = Fastify();
    const seen: string[] = [];
    installSurfaceCaller(app, 'someCaller', async (req) => {
      seen.push(req.url);
      return { name: 'ann' };
    });
    const read = (req: object) => (req as { someCaller: unknown }).someCaller;
    app.get('/me', async (req) => read(req));
    app.get('/open', { config: { auth: 'none' } }, async (req) => {
      try {
        return read(req);
      } catch (error) {
        return { error: (error as Error).message };
      }
    });
    app.options('/me', async () => 'preflight');
    expect((await app.inject({ url: '/me' })).json()).toEqual({ name: 'ann' });
    expect((await app.inject({ url: '/open' })).json()).toEqual({
      error: '/open reads request.someCaller unauthenticated',
    });
    expect((await app.inject({ method: 'OPTIONS', url: '/me' })).body).toBe('preflight');
    expect(seen).toEqual(['/me']);
    await app.close();
  });
});
