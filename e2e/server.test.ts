// `parley serve` as a new user meets it: first start, restart, admin token, graceful stop, bad settings.
import { readFile, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  makeDataDir,
  ownerLists,
  parseBootstrapBanner,
  runCli,
  startServer,
  useFirstRun,
  useServerProcesses,
} from '../packages/testkit/src/e2e/server.js';

useServerProcesses();

interface BotList {
  bots: { id: string; name: string }[];
}

/** Splits the printed `curl -H "…" -H "…" URL` line into its headers and URL, as a shell would. */
function parseCurl(line: string): { headers: Record<string, string>; url: string } {
  const headers: Record<string, string> = {};
  for (const [, name, value] of line.matchAll(/-H "([^:"]+):\s*([^"]*)"/g)) {
    if (name !== undefined && value !== undefined) headers[name.toLowerCase()] = value;
  }
  const url = line.match(/\s(https?:\/\/\S+)\s*$/)?.[1];
  if (!url) throw new Error(`no URL in ${line}`);
  return { headers, url };
}

describe('first start on an empty data dir, then a restart', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await makeDataDir();
  });
  const run = useFirstRun(() => ({ dataDir }));

  it('prints the token, workspace id, demo bot id, bot access key and a curl line once', () => {
    expect(run.boot.email).toBe('admin@parley.local');
    expect(run.boot.token).toMatch(/^pat_\S{20,}$/);
    expect(run.boot.workspaceId).toMatch(/\S{10,}/);
    expect(run.boot.botId).toMatch(/\S{10,}/);
    expect(run.boot.botAccessKey).toMatch(/^bak_\S{20,}$/);
    expect(run.boot.file).toBe(join(dataDir, 'bootstrap.json'));
    expect(run.boot.curl).toContain(run.boot.token);
    expect(run.boot.curl).toContain(run.boot.workspaceId);
    expect(run.boot.curl).toContain(`${run.server.url}/v1/admin/bots`);
    expect(run.server.stdout().match(/personal access token/g)).toHaveLength(1);
    expect(run.server.stdout()).toContain(`Parley listening on ${run.server.url}`);
  });

  it('writes bootstrap.json with mode 0600 and the same values', async () => {
    const file = join(dataDir, 'bootstrap.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({
      email: run.boot.email,
      token: run.boot.token,
      workspaceId: run.boot.workspaceId,
      botId: run.boot.botId,
      botAccessKey: run.boot.botAccessKey,
      apiUrl: run.server.url,
    });
  });

  it('answers the printed curl line with a list holding the demo bot', async () => {
    const { headers, url } = parseCurl(run.boot.curl);
    expect(headers).toEqual({
      authorization: `Bearer ${run.boot.token}`,
      'x-workspace-id': run.boot.workspaceId,
    });
    const res = await fetch(url, { headers });
    expect(res.status).toBe(200);
    const body = (await res.json()) as BotList;
    expect(body.bots.map((b) => b.id)).toEqual([run.boot.botId]);
    expect(body.bots[0]?.name).toBe('Demo bot');
  });

  it('prints the demo bot’s webchat page, which serves the chat', async () => {
    const line = run.server.stdout().match(/Chat with the demo bot: (\S+)/)?.[1];
    expect(line).toBe(`${run.server.url}/webchat/${run.boot.botId}`);
    const res = await fetch(String(line));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('/webchat/v1/inject.js');
  });

  it('rejects the API without a token', async () => {
    const res = await api(run.server.url, '/v1/admin/bots', { workspaceId: run.boot.workspaceId });
    expect(res.status).toBe(401);
  });

  it('serves /healthz, /readyz, /openapi.json and /docs', async () => {
    expect((await api(run.server.url, '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await api(run.server.url, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', database: 'sqlite' });

    const openapi = await api<{ openapi: string; paths: Record<string, unknown> }>(
      run.server.url,
      '/openapi.json',
    );
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toMatch(/^3\./);
    expect(Object.keys(openapi.body.paths)).toContain('/v1/admin/bots');

    const docs = await fetch(`${run.server.url}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    expect(await docs.text()).toMatch(/swagger/i);
  });

  it('on a restart with the same data dir prints nothing new and keeps the token, workspace and bot', async () => {
    const bootstrapBefore = await readFile(join(dataDir, 'bootstrap.json'), 'utf8');
    expect(await run.server.stop()).toEqual({ code: 0, signal: null });

    const server = await startServer({ dataDir });
    await server.waitForStdout(/Parley listening on/);
    expect(parseBootstrapBanner(server.stdout())).toBeUndefined();
    expect(server.stdout()).not.toContain('personal access token');
    expect(server.stdout()).not.toContain(run.boot.token);

    const { bots, workspaces } = await ownerLists(server.url, run.boot);
    expect(bots.status).toBe(200);
    expect(bots.body.bots.map((b) => b.id)).toEqual([run.boot.botId]);
    expect(workspaces.status).toBe(200);
    expect(workspaces.body.workspaces.map((w) => w.id)).toEqual([run.boot.workspaceId]);

    expect(await readFile(join(dataDir, 'bootstrap.json'), 'utf8')).toBe(bootstrapBefore);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });
});

describe('PARLEY_ADMIN_TOKEN', () => {
  const first = `e2e-admin-token-${'a'.repeat(32)}`;
  const second = `e2e-admin-token-${'b'.repeat(32)}`;

  it('is the owner token on first start, and a new value on a restart works too', async () => {
    const dataDir = await makeDataDir();
    let server = await startServer({ dataDir, env: { PARLEY_ADMIN_TOKEN: first } });
    await server.waitForStdout(/Parley listening on/);
    const printed = parseBootstrapBanner(server.stdout());
    if (!printed) throw new Error(`no first-start banner on stdout:\n${server.stdout()}`);
    expect(printed.token).toBe(first);
    const saved = JSON.parse(await readFile(join(dataDir, 'bootstrap.json'), 'utf8')) as { token: string };
    expect(saved.token).toBe(first);
    const workspaceId = printed.workspaceId;
    expect((await api(server.url, '/v1/admin/bots', { token: first, workspaceId })).status).toBe(200);
    expect(await server.stop()).toEqual({ code: 0, signal: null });

    server = await startServer({ dataDir, env: { PARLEY_ADMIN_TOKEN: second } });
    await server.waitForStdout(/Parley listening on/);
    expect(parseBootstrapBanner(server.stdout())).toBeUndefined();
    const me = await api<{ account: { email: string } }>(server.url, '/v1/admin/account/me', {
      token: second,
    });
    expect(me.status).toBe(200);
    expect(me.body.account.email).toBe('admin@parley.local');
    const bots = await api<BotList>(server.url, '/v1/admin/bots', { token: second, workspaceId });
    expect(bots.status).toBe(200);
    expect(bots.body.bots.map((b) => b.id)).toEqual([printed.botId]);
    // The earlier value was not revoked.
    expect((await api(server.url, '/v1/admin/bots', { token: first, workspaceId })).status).toBe(200);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });
});

describe('graceful stop', () => {
  it('on SIGTERM finishes a request already in flight and exits 0', async () => {
    // Info logs show when the server has received the request's headers (`incoming request`).
    const server = await startServer({ env: { PARLEY_LOG_LEVEL: 'info' } });
    await server.waitForStdout(/Parley listening on/);
    const printed = parseBootstrapBanner(server.stdout());
    if (!printed) throw new Error('no first-start banner');
    const before = await api(server.url, '/v1/admin/bots', {
      token: printed.token,
      workspaceId: printed.workspaceId,
    });
    expect(before.status).toBe(200);

    // A create-bot request whose body arrives in two halves, with SIGTERM in between.
    const payload = Buffer.from(
      JSON.stringify({ name: 'Created while stopping', description: 'x'.repeat(1500) }),
    );
    const half = Math.floor(payload.length / 2);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.url}/v1/admin/bots`, {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${printed.token}`,
          'x-workspace-id': printed.workspaceId,
          'content-type': 'application/json',
          'content-length': String(payload.length),
        },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      });
      req.write(payload.subarray(0, half));
      server
        .waitForStdout(/"method":"POST","url":"\/v1\/admin\/bots".*"msg":"incoming request"/)
        .then(async () => {
          server.child.kill('SIGTERM');
          await server.waitForStdout(/SIGTERM received/);
          req.end(payload.subarray(half));
        })
        .catch(reject);
    });

    const done = await response;
    expect(done.status).toBe(201);
    expect((JSON.parse(done.body) as { bot: { name: string } }).bot.name).toBe('Created while stopping');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});

describe('bad configuration', () => {
  it('exits with code 2 and lists every bad variable at once', async () => {
    const dataDir = await makeDataDir();
    const result = await runCli(['serve'], {
      PARLEY_DATA_DIR: dataDir,
      PORT: 'abc',
      PARLEY_DATABASE_URL: 'mysql://x',
      PARLEY_LOG_LEVEL: 'loud',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('abc');
    expect(result.stderr).toContain('PARLEY_DATABASE_URL');
    expect(result.stderr).toContain('PARLEY_LOG_LEVEL');
    expect(result.stderr).toContain('loud');
    expect(result.stdout).not.toContain('personal access token');
  });
});
