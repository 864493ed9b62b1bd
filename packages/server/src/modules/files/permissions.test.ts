import type { FileAccessPolicy, FileObject } from '@parley/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putBytes } from '../../../../testkit/src/server/files-api.js';
import { createTestApp, type TestApp } from '../../../../testkit/src/server/harness.js';

/**
 * The file permission matrix (issue 3): every principal × every operation × files created by the bot, by an
 * integration installed on it and by a user, with each access policy, asserting the exact status code. The
 * expectations are written from the spec's "File permissions" table and rule, not read from FILE_POLICY.
 */

const PRINCIPALS = [
  'public',
  'bot',
  'other bot',
  'integration installed',
  'integration not installed',
  'owner',
  'administrator',
  'manager',
  'developer',
  'viewer',
  'billing',
  'member of another workspace',
] as const;
type PrincipalName = (typeof PRINCIPALS)[number];

/** Who created a file; the values are also the file's `owner.type`. */
const CREATORS = ['bot', 'integration', 'user'] as const;
type Creator = (typeof CREATORS)[number];
/** Who creates the files of each kind: the bot's key, the installed integration's key, a developer's PAT. */
const CREATED_BY: Record<Creator, PrincipalName> = {
  bot: 'bot',
  integration: 'integration installed',
  user: 'developer',
};

const POLICIES = ['none', 'integrations', 'public_content'] as const;
type Policy = (typeof POLICIES)[number];
const POLICY_VALUES: Record<Policy, FileAccessPolicy[]> = {
  none: [],
  integrations: ['integrations'],
  public_content: ['public_content'],
};

/** Operations on the bot's files as a whole. */
const BOT_OPS = ['upsert a new key', 'list', 'list tags', 'list tag values'] as const;
/** Operations on one file. */
const FILE_OPS = [
  'get by id',
  'get by key',
  'update metadata',
  'delete',
  'copy',
  'upsert (replace)',
] as const;
type BotOp = (typeof BOT_OPS)[number];
type FileOp = (typeof FILE_OPS)[number];
type Op = BotOp | FileOp;

interface Target {
  creator: Creator;
  policy: Policy;
}

/** Operations a viewer may do: reading and listing. */
const READ_OPS: readonly Op[] = ['list', 'list tags', 'list tag values', 'get by id', 'get by key'];

/**
 * The expected status of `op` by `principal` (on a file of `target` for file operations), from the rules:
 * - public (no token): 401 on every API operation;
 * - the bot: everything on its own files whoever created them;
 * - another bot's key or an integration installed only on another bot, with x-bot-id of this bot: 403;
 * - the installed integration: creates; reads and copies its own and shared (`integrations`) files, any
 *   other file is 404 (no existence oracle); updates and deletes its own files, 403 on shared ones, 404 on
 *   the rest; replacing an existing key it did not create is refused with 403 (the key is taken: see the
 *   report on this choice);
 * - owner, administrator, manager, developer: everything, whatever the creator and policies;
 * - viewer: list, get and tags; 403 on anything that writes (upsert, update, delete, copy);
 * - billing: 403 on everything;
 * - a member of another workspace: 404 (it may not know the bot exists).
 */
function expectedStatus(principal: PrincipalName, op: Op, target?: Target): number {
  switch (principal) {
    case 'public':
      return 401;
    case 'other bot':
    case 'integration not installed':
    case 'billing':
      return 403;
    case 'member of another workspace':
      return 404;
    case 'bot':
    case 'owner':
    case 'administrator':
    case 'manager':
    case 'developer':
      return 200;
    case 'viewer':
      return READ_OPS.includes(op) ? 200 : 403;
    case 'integration installed': {
      if (!target) return 200;
      const own = target.creator === 'integration';
      const shared = target.policy === 'integrations';
      switch (op) {
        case 'get by id':
        case 'get by key':
        case 'copy':
          return own || shared ? 200 : 404;
        case 'update metadata':
        case 'delete':
          return own ? 200 : shared ? 403 : 404;
        default:
          return own ? 200 : 403;
      }
    }
  }
}

/** Files of a set that `principal` sees in listFiles (only asked when listing is allowed). */
function visible(principal: PrincipalName, target: Target): boolean {
  if (principal !== 'integration installed') return true;
  return target.creator === 'integration' || target.policy === 'integrations';
}

const ERROR_TYPES: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'ResourceNotFound',
  409: 'AlreadyExists',
};
const OWNER_TYPES: Partial<Record<PrincipalName, 'bot' | 'integration' | 'user'>> = {
  bot: 'bot',
  'integration installed': 'integration',
};

/** Asserts the exact status, and the wire error `{id, code, type, message}` of a refusal. */
function expectStatus(res: LightMyRequestResponse, status: number): void {
  expect(res.statusCode, res.body).toBe(status);
  if (status >= 400) {
    expect(res.json()).toMatchObject({
      code: status,
      type: ERROR_TYPES[status],
      message: expect.any(String),
    });
  }
}

/** Declares one test per case, named in full (it.each would quote and truncate the fields in the name). */
function eachCase<T>(cases: readonly T[], name: (c: T) => string, fn: (c: T) => Promise<void>): void {
  for (const c of cases) it(name(c), () => fn(c));
}

const CONTENT = 'matrix content\n';
const labelOf = (target: Target) => `${target.creator}-${target.policy}`;
const targetName = (target: Target) =>
  `a file by ${target.creator === 'user' ? 'a user' : `the ${target.creator}`} with ${
    target.policy === 'none' ? 'no policy' : `policy ${target.policy}`
  }`;
const TARGETS: Target[] = CREATORS.flatMap((creator) => POLICIES.map((policy) => ({ creator, policy })));

/** Every principal doing each of `ops` on a file of every target, with the status the rules expect. */
function fileMatrix<O extends FileOp>(ops: readonly O[]) {
  return PRINCIPALS.flatMap((principal) =>
    ops.flatMap((op) =>
      TARGETS.map((target) => ({
        principal,
        op,
        target,
        name: targetName(target),
        status: expectedStatus(principal, op, target),
      })),
    ),
  );
}

/** The principals, bots and helpers of one test app. */
interface World {
  t: TestApp;
  botId: string;
  bot2Id: string;
  tokens: Record<PrincipalName, string | undefined>;
  /** A request by `principal` with x-bot-id of the target bot (unless overridden). */
  as(
    principal: PrincipalName,
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** Creates and uploads a file of `target` on the target bot. */
  createFile(target: Target, key: string, tags?: Record<string, string>): Promise<FileObject>;
  /** Gets a file of the target bot as its bot (to check what a refused call left behind). */
  botView(idOrKey: string): Promise<LightMyRequestResponse>;
  /** GET on a url the API handed out, with no token. */
  fetchUrl(url: string): Promise<LightMyRequestResponse>;
}

let unique = 0;
const nextKey = (prefix: string) => {
  unique += 1;
  return `${prefix}-${unique}.txt`;
};

/** The body of an Admin API answer that must have this status. */
function created<T>(res: LightMyRequestResponse, status = 201): T {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

/** Sets up bot B (the target) and B2 in workspace W, their keys, two integrations, every role and a stranger. */
async function world(t: TestApp): Promise<World> {
  const botId = t.botId;
  const bot2 = created<{ bot: { id: string } }>(
    await t.asOwner('POST', '/v1/admin/bots', { name: 'Second bot' }),
  );
  const bot2Id = bot2.bot.id;
  const bot2Key = created<{ key: { value: string } }>(
    await t.asOwner('POST', `/v1/admin/bots/${bot2Id}/access-keys`, { note: 'matrix' }),
  );

  async function integrationKey(name: string, onBot: string): Promise<string> {
    const { integration } = created<{ integration: { id: string } }>(
      await t.asOwner('POST', '/v1/admin/integrations', {
        name: `${name}-${Math.random().toString(36).slice(2, 8)}`,
      }),
    );
    const installed = await t.asOwner('PUT', `/v1/admin/bots/${onBot}/integrations/${integration.id}`);
    expect(installed.statusCode, installed.body).toBe(200);
    const { key } = created<{ key: { value: string } }>(
      await t.asOwner('POST', `/v1/admin/bots/${onBot}/integrations/${integration.id}/keys`, {
        note: 'matrix',
      }),
    );
    return key.value;
  }

  const tokens: Record<PrincipalName, string | undefined> = {
    public: undefined,
    bot: t.botKey,
    'other bot': bot2Key.key.value,
    'integration installed': await integrationKey('installed', botId),
    'integration not installed': await integrationKey('elsewhere', bot2Id),
    owner: t.owner.token,
    administrator: (await t.addMember('administrator')).token,
    manager: (await t.addMember('manager')).token,
    developer: (await t.addMember('developer')).token,
    viewer: (await t.addMember('viewer')).token,
    billing: (await t.addMember('billing')).token,
    'member of another workspace': (await t.otherTenant()).token,
  };

  const as: World['as'] = (principal, method, url, body, headers) =>
    t.call({ method, url, token: tokens[principal], body, headers: { 'x-bot-id': botId, ...headers } });

  const fetchUrl = (url: string) => {
    const u = new URL(url);
    return t.app.inject({ method: 'GET', url: `${u.pathname}${u.search}` });
  };

  async function createFile(target: Target, key: string, tags: Record<string, string> = {}) {
    const res = await as(CREATED_BY[target.creator], 'PUT', '/v1/files', {
      key,
      size: Buffer.byteLength(CONTENT),
      accessPolicies: POLICY_VALUES[target.policy],
      tags,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { file } = res.json() as { file: FileObject & { uploadUrl: string } };
    const upload = await putBytes(t, file.uploadUrl, Buffer.from(CONTENT), { 'content-type': 'text/plain' });
    expect(upload.statusCode, upload.body).toBe(200);
    const uploaded = (upload.json() as { file: FileObject }).file;
    expect(uploaded).toMatchObject({
      status: 'upload_completed',
      owner: { type: target.creator },
    });
    return uploaded;
  }

  return {
    t,
    botId,
    bot2Id,
    tokens,
    as,
    createFile,
    botView: (idOrKey) => as('bot', 'GET', `/v1/files/${encodeURIComponent(idOrKey)}`),
    fetchUrl,
  };
}

describe('file permission matrix: reading and listing', () => {
  let w: World;
  const files = new Map<string, FileObject>();
  const fileOf = (target: Target) => files.get(labelOf(target)) as FileObject;
  const tagKeyOf = (target: Target) => `only_${target.creator}_${target.policy}`;

  beforeAll(async () => {
    w = await world(await createTestApp());
    // A fixed set of files, one per creator × policy; nothing in this block writes.
    for (const target of TARGETS) {
      const file = await w.createFile(target, nextKey(`read-${labelOf(target)}`), {
        set: labelOf(target),
        [tagKeyOf(target)]: 'yes',
      });
      files.set(labelOf(target), file);
    }
  });
  afterAll(() => w.t.close());

  const botCases = PRINCIPALS.flatMap((principal) =>
    (['list', 'list tags', 'list tag values'] as const).map((op) => ({
      principal,
      op,
      status: expectedStatus(principal, op),
    })),
  );
  eachCase(
    botCases,
    (c) => `${c.principal}: ${c.op} → ${c.status}`,
    async ({ principal, op, status }) => {
      const seen = TARGETS.filter((target) => status === 200 && visible(principal, target));
      if (op === 'list') {
        const res = await w.as(principal, 'GET', '/v1/files?pageSize=100');
        expectStatus(res, status);
        if (status !== 200) return;
        const body = res.json() as { files: FileObject[]; meta: { nextToken?: string } };
        expect(body.meta.nextToken).toBeUndefined();
        expect(body.files.map((f) => f.id).sort()).toEqual(seen.map((target) => fileOf(target).id).sort());
      } else if (op === 'list tags') {
        const res = await w.as(principal, 'GET', '/v1/files/tags');
        expectStatus(res, status);
        if (status !== 200) return;
        const body = res.json() as { tags: string[]; meta: object };
        expect(body.tags.sort()).toEqual(['set', ...seen.map(tagKeyOf)].sort());
      } else {
        const res = await w.as(principal, 'GET', '/v1/files/tags/set/values');
        expectStatus(res, status);
        if (status !== 200) return;
        const body = res.json() as { values: string[]; meta: object };
        expect(body.values.sort()).toEqual(seen.map(labelOf).sort());
      }
    },
  );

  const fileCases = fileMatrix(['get by id', 'get by key'] as const);
  eachCase(
    fileCases,
    (c) => `${c.principal}: ${c.op} ${c.name} → ${c.status}`,
    async ({ principal, op, target, status }) => {
      const file = fileOf(target);
      const ref = op === 'get by id' ? file.id : encodeURIComponent(file.key);
      const res = await w.as(principal, 'GET', `/v1/files/${ref}`);
      expectStatus(res, status);
      if (status === 200) {
        const got = (res.json() as { file: FileObject }).file;
        expect(got).toMatchObject({
          id: file.id,
          key: file.key,
          botId: w.botId,
          accessPolicies: POLICY_VALUES[target.policy],
          owner: { type: target.creator },
          tags: { set: labelOf(target) },
        });
        expect(got.url).toEqual(expect.any(String));
      }
    },
  );
});

describe('file permission matrix: writing', () => {
  let w: World;
  /** Files shared by the cases that leave them as they were (update of metadata only, copy as source). */
  const shared = new Map<string, FileObject>();

  beforeAll(async () => {
    w = await world(await createTestApp());
    for (const target of TARGETS)
      shared.set(labelOf(target), await w.createFile(target, nextKey(`shared-${labelOf(target)}`)));
  });
  afterAll(() => w.t.close());

  const upsertCases = PRINCIPALS.map((principal) => ({
    principal,
    status: expectedStatus(principal, 'upsert a new key'),
  }));
  eachCase(
    upsertCases,
    (c) => `${c.principal}: upsert a new key → ${c.status}`,
    async ({ principal, status }) => {
      const key = nextKey('new');
      const res = await w.as(principal, 'PUT', '/v1/files', { key, size: Buffer.byteLength(CONTENT) });
      expectStatus(res, status);
      if (status === 200) {
        const { file } = res.json() as { file: FileObject & { uploadUrl: string } };
        expect(file).toMatchObject({
          key,
          botId: w.botId,
          status: 'upload_pending',
          uploadUrl: expect.any(String),
        });
        expect(file.owner.type).toBe(OWNER_TYPES[principal] ?? 'user');
      } else {
        expect((await w.botView(key)).statusCode).toBe(404);
      }
    },
  );

  const cases = fileMatrix(['update metadata', 'delete', 'copy', 'upsert (replace)'] as const);
  eachCase(
    cases,
    (c) => `${c.principal}: ${c.op} ${c.name} → ${c.status}`,
    async ({ principal, op, target, status }) => {
      switch (op) {
        case 'update metadata': {
          const file = shared.get(labelOf(target)) as FileObject;
          const mark = `by_${principal.replaceAll(' ', '_')}`;
          const res = await w.as(principal, 'PUT', `/v1/files/${file.id}`, { metadata: { [mark]: true } });
          expectStatus(res, status);
          const after = (await w.botView(file.id)).json() as { file: FileObject };
          expect(after.file.metadata[mark]).toBe(status === 200 ? true : undefined);
          if (status === 200) expect((res.json() as { file: FileObject }).file.metadata[mark]).toBe(true);
          return;
        }
        case 'delete': {
          const file = await w.createFile(target, nextKey(`delete-${labelOf(target)}`));
          const res = await w.as(principal, 'DELETE', `/v1/files/${file.id}`);
          expectStatus(res, status);
          if (status === 200) expect(res.json()).toEqual({});
          expect((await w.botView(file.id)).statusCode).toBe(status === 200 ? 404 : 200);
          return;
        }
        case 'copy': {
          const file = shared.get(labelOf(target)) as FileObject;
          const destination = nextKey('copy');
          const res = await w.as(
            principal,
            'POST',
            `/v1/files/${file.id}/${encodeURIComponent(destination)}`,
            {},
          );
          expectStatus(res, status);
          if (status === 200) {
            const copy = (res.json() as { file: FileObject }).file;
            expect(copy).toMatchObject({
              key: destination,
              botId: w.botId,
              size: file.size,
              status: 'upload_completed',
              accessPolicies: POLICY_VALUES[target.policy],
              owner: { type: OWNER_TYPES[principal] ?? 'user' },
            });
            expect(copy.id).not.toBe(file.id);
          }
          expect((await w.botView(destination)).statusCode).toBe(status === 200 ? 200 : 404);
          return;
        }
        case 'upsert (replace)': {
          const file = await w.createFile(target, nextKey(`replace-${labelOf(target)}`));
          const res = await w.as(principal, 'PUT', '/v1/files', { key: file.key, size: 3 });
          expectStatus(res, status);
          const after = ((await w.botView(file.id)).json() as { file: FileObject }).file;
          if (status === 200) {
            const replaced = (res.json() as { file: FileObject & { uploadUrl: string } }).file;
            expect(replaced).toMatchObject({ id: file.id, key: file.key, status: 'upload_pending' });
            expect(replaced.uploadUrl).toEqual(expect.any(String));
            // Replacing never changes who created the file.
            expect(after.owner).toEqual(file.owner);
            expect(after.status).toBe('upload_pending');
          } else {
            expect(after).toMatchObject({
              status: 'upload_completed',
              size: file.size,
              updatedAt: file.updatedAt,
            });
          }
          return;
        }
      }
    },
  );
});

describe('file URLs and isolation', () => {
  let w: World;
  let other: { token: string; botId: string };

  beforeAll(async () => {
    const t = await createTestApp();
    w = await world(t);
    other = await t.otherTenant();
  });
  afterAll(() => w.t.close());

  const readers: PrincipalName[] = [
    'bot',
    'integration installed',
    'owner',
    'administrator',
    'manager',
    'developer',
    'viewer',
  ];
  it.each(readers)('a private url handed to %s downloads the content without a token', async (principal) => {
    const file = await w.createFile({ creator: 'bot', policy: 'integrations' }, nextKey('handed'));
    const res = await w.as(principal, 'GET', `/v1/files/${file.id}`);
    expectStatus(res, 200);
    const { url } = (res.json() as { file: FileObject }).file;
    expect(url).not.toContain('public=1');
    const download = await w.fetchUrl(url);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.body).toBe(CONTENT);
  });

  it('a private url with an altered signature is refused with 403', async () => {
    const file = await w.createFile({ creator: 'user', policy: 'none' }, nextKey('tampered'));
    const u = new URL(file.url);
    const signature = u.searchParams.get('signature') ?? '';
    u.searchParams.set('signature', `${signature.slice(0, -2)}${signature.endsWith('aa') ? 'bb' : 'aa'}`);
    expectStatus(await w.fetchUrl(u.toString()), 403);
  });

  it('a public_content file downloads without a token through a permanent url; its metadata is never public', async () => {
    const file = await w.createFile({ creator: 'integration', policy: 'public_content' }, nextKey('public'));
    const first = ((await w.botView(file.id)).json() as { file: FileObject }).file.url;
    const second = ((await w.botView(file.id)).json() as { file: FileObject }).file.url;
    expect(second).toBe(first);
    const download = await w.fetchUrl(first);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.body).toBe(CONTENT);
    for (const ref of [file.id, encodeURIComponent(file.key)])
      expectStatus(await w.as('public', 'GET', `/v1/files/${ref}`), 401);
    expectStatus(await w.as('public', 'GET', '/v1/files'), 401);
  });

  it('removing public_content makes the old permanent url 404; the new url is a private signed one', async () => {
    const file = await w.createFile({ creator: 'bot', policy: 'public_content' }, nextKey('unpublished'));
    const permanent = ((await w.botView(file.id)).json() as { file: FileObject }).file.url;
    expect((await w.fetchUrl(permanent)).statusCode).toBe(200);
    const updated = await w.as('owner', 'PUT', `/v1/files/${file.id}`, { accessPolicies: [] });
    expectStatus(updated, 200);
    expectStatus(await w.fetchUrl(permanent), 404);
    const fresh = (updated.json() as { file: FileObject }).file.url;
    expect(fresh).not.toBe(permanent);
    expect(fresh).not.toContain('public=1');
    expect((await w.fetchUrl(fresh)).body).toBe(CONTENT);
  });

  it('a permanent public url does not open a private file', async () => {
    const pub = await w.createFile({ creator: 'bot', policy: 'public_content' }, nextKey('pub'));
    const priv = await w.createFile({ creator: 'bot', policy: 'none' }, nextKey('priv'));
    const u = new URL(pub.url);
    const forged = `${u.pathname.replace(pub.id, priv.id)}${u.search}`;
    const res = await w.t.app.inject({ method: 'GET', url: forged });
    // The signature covers the path: it does not carry over to another file.
    expectStatus(res, 403);
  });

  /** Operations of another context on a file of bot B: all 404, and the file is untouched. */
  const foreignOps = ['get by id', 'get by key', 'update metadata', 'delete', 'copy'] as const;
  const foreignCallers = [
    "the other bot's key, on its own bot",
    'the integration installed on the other bot, on that bot',
    'the owner of the workspace, with x-bot-id of the other bot',
    'the owner of another workspace, on its own bot',
  ] as const;
  const foreignCases = foreignCallers.flatMap((caller) => foreignOps.map((op) => ({ caller, op })));
  eachCase(
    foreignCases,
    (c) => `${c.caller}: ${c.op} a file of bot B → 404`,
    async ({ caller, op }) => {
      const file = await w.createFile({ creator: 'bot', policy: 'integrations' }, nextKey('foreign'));
      const [token, botId] = {
        "the other bot's key, on its own bot": [w.tokens['other bot'], w.bot2Id],
        'the integration installed on the other bot, on that bot': [
          w.tokens['integration not installed'],
          w.bot2Id,
        ],
        'the owner of the workspace, with x-bot-id of the other bot': [w.tokens.owner, w.bot2Id],
        'the owner of another workspace, on its own bot': [other.token, other.botId],
      }[caller];
      const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) =>
        w.t.call({ method, url, token, body, headers: { 'x-bot-id': botId as string } });
      const res = await {
        'get by id': () => call('GET', `/v1/files/${file.id}`),
        'get by key': () => call('GET', `/v1/files/${encodeURIComponent(file.key)}`),
        'update metadata': () => call('PUT', `/v1/files/${file.id}`, { metadata: { foreign: true } }),
        delete: () => call('DELETE', `/v1/files/${file.id}`),
        copy: () => call('POST', `/v1/files/${file.id}/stolen.txt`, {}),
      }[op]();
      expectStatus(res, 404);
      const after = ((await w.botView(file.id)).json() as { file: FileObject }).file;
      expect(after.metadata).toEqual({});
      // The caller's context still works: it is the file, not the caller, that is unknown there.
      const own = await call('GET', '/v1/files');
      expect(own.statusCode, own.body).toBe(200);
      expect((own.json() as { files: FileObject[] }).files.map((f) => f.id)).not.toContain(file.id);
    },
  );

  it('copies to another bot of the workspace with x-destination-bot-id only for a caller with rights on both', async () => {
    const file = await w.createFile({ creator: 'bot', policy: 'integrations' }, nextKey('cross'));
    const copy = (principal: PrincipalName, destinationBot: string, key: string) =>
      w.as(principal, 'POST', `/v1/files/${file.id}/${key}`, {}, { 'x-destination-bot-id': destinationBot });

    const ok = await copy('developer', w.bot2Id, 'cross-copy.txt');
    expectStatus(ok, 200);
    expect((ok.json() as { file: FileObject }).file).toMatchObject({
      botId: w.bot2Id,
      key: 'cross-copy.txt',
    });
    // Keys are bound to one bot: a bot key and an integration key cannot write to another bot.
    expectStatus(await copy('bot', w.bot2Id, 'by-bot.txt'), 403);
    expectStatus(await copy('integration installed', w.bot2Id, 'by-integration.txt'), 403);
    // A viewer reads the source but may not create on the destination.
    expectStatus(await copy('viewer', w.bot2Id, 'by-viewer.txt'), 403);
    // A bot of another workspace is unknown to members of this one.
    expectStatus(await copy('owner', other.botId, 'to-stranger.txt'), 404);
    // Existing destination without overwrite: 409; with overwrite: replaced.
    expectStatus(await copy('developer', w.bot2Id, 'cross-copy.txt'), 409);
    const overwritten = await w.as(
      'developer',
      'POST',
      `/v1/files/${file.id}/cross-copy.txt`,
      { overwrite: true },
      { 'x-destination-bot-id': w.bot2Id },
    );
    expectStatus(overwritten, 200);
  });
});
