import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, Principal } from '../access/principal.js';
import { type AuthResolver, authenticate, installRequestContext } from './context.js';
import { installErrorHandling } from './error-handler.js';
import { header, parseBearer } from './headers.js';

const PRINCIPAL: Principal = {
  kind: 'account',
  accountId: 'acc_1',
  email: 'a@example.com',
  tokenId: 'tok_1',
};
const ACTOR: Actor = {
  kind: 'member',
  accountId: 'acc_1',
  email: 'a@example.com',
  role: 'administrator',
  workspaceId: 'ws_1',
};

/** Knows one token (`good`) and one workspace (`ws_1`); no session (this surface is given none). */
const resolver: AuthResolver = {
  async resolveToken(value) {
    return value === 'good' ? PRINCIPAL : undefined;
  },
  async resolveSession() {
    return undefined;
  },
  async resolveActor(_principal, workspaceId) {
    return workspaceId === 'ws_1' ? ACTOR : undefined;
  },
};

describe('the auth hook of a token API surface', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    installRequestContext(app);
    installErrorHandling(app);
    app.addHook('preHandler', authenticate(resolver, 'workspace'));
    app.get('/workspace', async (req) => ({ actor: req.actor, principal: req.principal }));
    app.get('/account', { config: { auth: 'account' } }, async (req) => ({ principal: req.principal }));
    app.get('/account-reads-actor', { config: { auth: 'account' } }, async (req) => ({ actor: req.actor }));
    app.get('/optional', { config: { auth: 'optional' } }, async (req) => ({
      signedIn: req.parley.principal !== undefined,
    }));
    app.get('/none', { config: { auth: 'none' } }, async () => ({ ok: true }));
    app.options('/workspace', async (_req, reply) => reply.status(204).send());
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });

  it('authenticates a route at the surface default (workspace) and puts the actor and principal on it', async () => {
    const res = await get('/workspace', { authorization: 'Bearer good', 'x-workspace-id': 'ws_1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ actor: ACTOR, principal: PRINCIPAL });
  });

  it('answers 401 before the handler runs: no token, an unknown token, no workspace, another workspace', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer bad', 'x-workspace-id': 'ws_1' },
      { authorization: 'Bearer good' },
      { authorization: 'Bearer good', 'x-workspace-id': 'ws_2' },
    ]) {
      const res = await get('/workspace', headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toMatchObject({ code: 401, type: 'Unauthorized' });
    }
  });

  it('takes a token alone on an account route', async () => {
    const res = await get('/account', { authorization: 'bearer good' });
    expect(res.json()).toEqual({ principal: PRINCIPAL });
    expect((await get('/account')).statusCode).toBe(401);
  });

  it('answers 500 (never undefined) when a route reads the actor its auth level did not resolve', async () => {
    const res = await get('/account-reads-actor', { authorization: 'Bearer good' });
    expect(res.statusCode).toBe(500);
  });

  it('authenticates an optional route only when an Authorization header is sent', async () => {
    expect((await get('/optional')).json()).toEqual({ signedIn: false });
    expect((await get('/optional', { authorization: 'Bearer good' })).json()).toEqual({ signedIn: true });
    expect((await get('/optional', { authorization: 'Bearer bad' })).statusCode).toBe(401);
  });

  it('lets a route without authentication and a preflight through untouched', async () => {
    expect((await get('/none')).json()).toEqual({ ok: true });
    expect((await app.inject({ method: 'OPTIONS', url: '/workspace' })).statusCode).toBe(204);
  });
});

describe('parseBearer', () => {
  it('takes one token after the scheme, in any case, with whitespace around it', () => {
    expect(parseBearer('Bearer abc')).toBe('abc');
    expect(parseBearer('bearer abc')).toBe('abc');
    expect(parseBearer('  BEARER   abc  ')).toBe('abc');
  });

  it('refuses anything else', () => {
    for (const value of [undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b', 'Bearerabc']) {
      expect(parseBearer(value), String(value)).toBeUndefined();
    }
  });
});

describe('header', () => {
  it('answers the value of a header, whatever its case, and undefined for an absent one', async () => {
    const app = Fastify();
    app.get('/', async (req) => ({ a: header(req, 'x-a') ?? null, b: header(req, 'x-b') ?? null }));
    const res = await app.inject({ method: 'GET', url: '/', headers: { 'X-A': '1' } });
    expect(res.json()).toEqual({ a: '1', b: null });
    await app.close();
  });
});
