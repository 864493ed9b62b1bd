// Two server processes on one fresh PostgreSQL database: exactly one bootstraps, both serve the same data.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  cleanup,
  onMaintenanceDb,
  ownerLists,
  type PrintedBootstrap,
  parseBootstrapBanner,
  postgresTestUrl,
  requireBuild,
  type ServerProcess,
  startServer,
  withDatabase,
} from '../packages/testkit/src/e2e/server.js';

requireBuild();

const serverUrl = postgresTestUrl();

describe.skipIf(!serverUrl)('two processes on one PostgreSQL database', () => {
  const database = `parley_e2e_${randomBytes(6).toString('hex')}`;
  let servers: ServerProcess[] = [];
  let a: ServerProcess;
  let b: ServerProcess;
  let owner: PrintedBootstrap;

  beforeAll(async () => {
    if (!serverUrl) return;
    await onMaintenanceDb(serverUrl, `create database "${database}"`);
    const env = { PARLEY_DATABASE_URL: withDatabase(serverUrl, database) };
    // Both start at the same moment on the empty database; each has its own data dir.
    servers = await Promise.all([startServer({ env }), startServer({ env })]);
    await Promise.all(servers.map((s) => s.waitForStdout(/Parley listening on/)));
    const bootstrapped = servers.filter((s) => parseBootstrapBanner(s.stdout()) !== undefined);
    if (bootstrapped.length !== 1) {
      throw new Error(
        `expected exactly one process to bootstrap, got ${bootstrapped.length}:\n${servers
          .map((s, i) => `--- process ${i} ---\n${s.stdout()}`)
          .join('\n')}`,
      );
    }
    [a] = bootstrapped as [ServerProcess];
    [b] = servers.filter((s) => s !== a) as [ServerProcess];
    owner = parseBootstrapBanner(a.stdout()) as PrintedBootstrap;
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await cleanup();
    if (serverUrl) await onMaintenanceDb(serverUrl, `drop database if exists "${database}" with (force)`);
  });

  it('bootstraps in exactly one process; the other prints nothing new and both serve', async () => {
    expect(b.stdout()).not.toContain('personal access token');
    expect(b.stdout()).toContain(`Parley listening on ${b.url}`);
    expect(existsSync(join(a.dataDir, 'bootstrap.json'))).toBe(true);
    expect(existsSync(join(b.dataDir, 'bootstrap.json'))).toBe(false);
    for (const server of servers) {
      const { bots, workspaces } = await ownerLists(server.url, owner);
      expect(bots.status).toBe(200);
      expect(bots.body.bots.map((bot) => bot.id)).toEqual([owner.botId]);
      expect(workspaces.body.workspaces.map((w) => w.id)).toEqual([owner.workspaceId]);
    }
  });

  it('lists through one process a bot created through the other', async () => {
    const created = await api<{ bot: { id: string } }>(a.url, '/v1/admin/bots', {
      token: owner.token,
      workspaceId: owner.workspaceId,
      body: { name: 'Made through A' },
    });
    expect(created.status).toBe(201);
    const listed = await api<{ bots: { id: string; name: string }[] }>(b.url, '/v1/admin/bots', {
      token: owner.token,
      workspaceId: owner.workspaceId,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.bots).toContainEqual(
      expect.objectContaining({ id: created.body.bot.id, name: 'Made through A' }),
    );
    expect(listed.body.bots).toHaveLength(2);
  });

  it('reports the postgres database on /readyz in both processes', async () => {
    for (const server of servers) {
      const ready = await api(server.url, '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ready', database: 'postgres' });
    }
  });

  it('stops both processes with exit code 0 on SIGTERM', async () => {
    const exits = await Promise.all(servers.map((s) => s.stop()));
    expect(exits).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  });
});
