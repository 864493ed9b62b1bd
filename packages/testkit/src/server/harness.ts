import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role } from '@parley/protocol';
import type { FastifyServerOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type ParleyApp } from '../../../server/src/app.js';
import type { BlobStore } from '../../../server/src/blob/blob-store.js';
import { bootstrap } from '../../../server/src/bootstrap.js';
import { type Config, loadConfig } from '../../../server/src/config/config.js';
import { type Db, openDatabase } from '../../../server/src/db/database.js';
import type { KnowledgeResponder } from '../../../server/src/modules/chat/reply-port.js';
import type { Embedder } from '../../../server/src/search/types.js';

/** Options of a test app. */
export interface TestAppOptions {
  /** Extra environment variables (e.g. PARLEY_RATE_LIMIT_MAX). */
  env?: Record<string, string>;
  /** PostgreSQL URL; default SQLite in a temp dir. */
  databaseUrl?: string;
  clock?: () => Date;
  /** Blob store to use instead of the configured one (e.g. S3 against s3rver). */
  blobs?: BlobStore;
  /** Embedder to use instead of the configured one (null: none). */
  embedder?: Embedder | null;
  /** Run the background workers (indexing jobs) in the app. */
  workers?: boolean;
  /** With `workers`: crawls and indexing in the app's background thread (as `parley serve` runs them). */
  backgroundThread?: boolean;
  /** Knowledge responder of the Chat API (default: the built-in knowledge answers; null: none). */
  responder?: KnowledgeResponder | null;
  /** PostgreSQL schema to use instead of a fresh one (two apps sharing one database); not dropped on close. */
  pgSchema?: string;
  /** The app's logger (Fastify's option, e.g. `{ level: 'debug', stream }` to read its lines); default none. */
  logger?: FastifyServerOptions['logger'];
}

/** A request as tests write it. */
export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD' | 'PATCH';
  url: string;
  token?: string | undefined;
  workspaceId?: string | undefined;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A member of the bootstrap workspace with a token, for role tests. */
export interface TestMember {
  email: string;
  role: Role;
  token: string;
  accountId: string;
  memberId: string;
}

/**
 * An in-process Parley app on a fresh SQLite database in a temp dir (or a fresh PostgreSQL schema),
 * bootstrapped: `owner.token`, `workspaceId`, `botId`, `botKey` are ready to use.
 */
/** The password of the members `addMember` invites (they accept with it, as the Console's invitees do). */
export const MEMBER_PASSWORD = 'test member password';

export async function createTestApp(options: TestAppOptions = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'parley-test-'));
  const env: Record<string, string> = {
    PARLEY_DATA_DIR: dataDir,
    PARLEY_LOG_LEVEL: 'silent',
    PARLEY_RATE_LIMIT_MAX: '0',
    // Tests that need the semantic model ask for it; the others stay fast with lexical search.
    PARLEY_EMBEDDER: 'none',
    // Indexing at the test process's own priority: at nice 19 it would wait for the other test files keeping a
    // CI machine's cores busy (the lowered priority is tested on its own: thread-priority, use-lite and
    // document-reader tests).
    PARLEY_INDEXING_NICE: '0',
    ...options.env,
  };
  const config: Config = loadConfig(env);
  const schema = options.databaseUrl
    ? (options.pgSchema ?? `t_${Math.random().toString(36).slice(2, 12)}`)
    : undefined;
  const db: Db = await openDatabase({
    url: options.databaseUrl,
    dataDir,
    ...(schema ? { pgSchema: schema } : {}),
  });
  const app: ParleyApp = await buildApp({
    config,
    db,
    logger: options.logger ?? false,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.blobs ? { blobs: options.blobs } : {}),
    ...(options.embedder !== undefined ? { embedder: options.embedder } : {}),
    ...(options.workers ? { workers: true } : {}),
    ...(options.backgroundThread ? { backgroundThread: true } : {}),
    ...(options.responder !== undefined ? { responder: options.responder } : {}),
  });
  await app.ready();
  const boot = await bootstrap({ config, db: db.kysely, services: app.services });
  const info = boot.info;
  if (!info.token || !info.botAccessKey) throw new Error('bootstrap did not create tokens');
  if (!info.password && !config.adminPassword) throw new Error('bootstrap did not create a password');
  /** The bootstrap owner, with the password the first start generated (or PARLEY_ADMIN_PASSWORD). */
  const owner = {
    email: info.email,
    token: info.token,
    accountId: info.accountId,
    password: info.password ?? config.adminPassword ?? '',
  };

  async function call(c: Call): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...c.headers };
    if (c.token !== undefined) headers.authorization = `Bearer ${c.token}`;
    if (c.workspaceId !== undefined) headers['x-workspace-id'] = c.workspaceId;
    return app.inject({
      method: c.method,
      url: c.url,
      headers,
      ...(c.body !== undefined ? { payload: c.body as Record<string, unknown> } : {}),
    });
  }

  /** Calls in the bootstrap workspace with `token` (a member's token, a bot's key…). */
  const callWith = (token: string, method: Call['method'], url: string, body?: unknown) =>
    call({ method, url, token, workspaceId: info.workspaceId, body });

  /** Calls as the owner in the bootstrap workspace. */
  const asOwner = (method: Call['method'], url: string, body?: unknown) =>
    callWith(owner.token, method, url, body);

  /** Adds a member with `role` through the API (invitation + accept) and answers its token. */
  async function addMember(
    role: Role,
    email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.com`,
  ): Promise<TestMember> {
    const added = await asOwner('POST', '/v1/admin/workspace-members', { email, role });
    if (added.statusCode !== 201) throw new Error(`addMember failed: ${added.body}`);
    const member = added.json() as { id: string; invitation: { code: string } };
    const accepted = await call({
      method: 'POST',
      url: '/v1/admin/account/invitations/accept',
      body: { code: member.invitation.code, password: MEMBER_PASSWORD },
    });
    if (accepted.statusCode !== 201) throw new Error(`accept failed: ${accepted.body}`);
    // An anonymous accept answers no token: the member's first one, as signing in and making one would give.
    const account = await app.services.identity.accountByEmail(email);
    if (!account) throw new Error(`accept made no account: ${accepted.body}`);
    const principal = { kind: 'account' as const, accountId: account.id, email, tokenId: 'harness' };
    const pat = await app.services.identity.createPat(principal, { note: 'test member' });
    return { email, role, token: pat.value, accountId: account.id, memberId: member.id };
  }

  /** A second workspace with its own owner, bot and key: the "other tenant". */
  async function otherTenant() {
    const email = `other-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const created = await app.services.identity.createAccount(email, 'Other');
    const token = created.token.value;
    const ws = await call({
      method: 'POST',
      url: '/v1/admin/workspaces',
      token,
      body: { name: 'Other workspace' },
    });
    const workspaceId = (ws.json() as { id: string }).id;
    const bot = await call({
      method: 'POST',
      url: '/v1/admin/bots',
      token,
      workspaceId,
      body: { name: 'Other bot' },
    });
    const botId = (bot.json() as { bot: { id: string } }).bot.id;
    return { email, token, workspaceId, botId };
  }

  return {
    app,
    db,
    config,
    dataDir,
    /** The PostgreSQL schema of this app (undefined on SQLite). */
    pgSchema: schema,
    owner,
    workspaceId: info.workspaceId,
    botId: info.botId,
    botKey: info.botAccessKey,
    call,
    asOwner,
    callWith,
    addMember,
    otherTenant,
    async close() {
      await app.close();
      await db.close();
      if (schema && options.databaseUrl && !options.pgSchema) {
        const client = new pg.Client({ connectionString: options.databaseUrl });
        await client.connect();
        try {
          await client.query(`drop schema if exists ${schema} cascade`);
        } finally {
          await client.end();
        }
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
/** A test app. */
export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export { postgresTestUrl, testDatabases } from './postgres.js';
