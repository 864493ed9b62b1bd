// The `parley` command line next to a running server on the same data dir (SQLite WAL lets both write).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  type PrintedBootstrap,
  runCli,
  type ServerProcess,
  startFirstRun,
  useServerProcesses,
} from '../packages/testkit/src/e2e/server.js';

useServerProcesses();

const ROLES = ['viewer', 'billing', 'developer', 'manager', 'administrator', 'owner'];

describe('parley CLI next to a running server', () => {
  let server: ServerProcess;
  let owner: PrintedBootstrap;
  let env: Record<string, string>;

  beforeAll(async () => {
    ({ server, boot: owner } = await startFirstRun());
    env = { PARLEY_DATA_DIR: server.dataDir };
  });

  /** Runs the CLI, expects exit code 0, and parses its JSON output. */
  async function cliJson<T>(args: string[]): Promise<T> {
    const result = await runCli(args, env);
    expect(result, `parley ${args.join(' ')}`).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(result.stdout) as T;
  }

  it('accounts create adds a developer whose token can create a bot but not add members', async () => {
    const created = await cliJson<{
      account: { id: string; email: string };
      token: string;
      member: { role: string };
    }>([
      'accounts',
      'create',
      '--email',
      'x@example.com',
      '--workspace',
      owner.workspaceId,
      '--role',
      'developer',
    ]);
    expect(created.account.email).toBe('x@example.com');
    expect(created.token).toMatch(/^pat_/);
    expect(created.member.role).toBe('developer');

    const call = { token: created.token, workspaceId: owner.workspaceId };
    const me = await api<{ role: string }>(server.url, '/v1/admin/workspace-members/me', call);
    expect(me.status).toBe(200);
    expect(me.body.role).toBe('developer');

    const bot = await api<{ bot: { name: string } }>(server.url, '/v1/admin/bots', {
      ...call,
      body: { name: 'Made by a developer' },
    });
    expect(bot.status).toBe(201);
    expect(bot.body.bot.name).toBe('Made by a developer');

    const member = await api<{ type: string }>(server.url, '/v1/admin/workspace-members', {
      ...call,
      body: { email: 'someone@example.com', role: 'viewer' },
    });
    expect(member.status).toBe(403);
    expect(member.body.type).toBe('Forbidden');
  });

  it('tokens create gives a working personal access token', async () => {
    // The account, through the server (an invitation accepted): `accounts create` is the test above's, and each
    // CLI process costs a second or more of start-up.
    const invited = await api<{ invitation: { code: string } }>(server.url, '/v1/admin/workspace-members', {
      token: owner.token,
      workspaceId: owner.workspaceId,
      body: { email: 'pat@example.com', role: 'developer' },
    });
    expect(invited.status).toBe(201);
    const accepted = await api(server.url, '/v1/admin/account/invitations/accept', {
      body: { code: invited.body.invitation.code, password: 'the pat password 123' },
    });
    expect(accepted.status).toBe(201);
    const { token } = await cliJson<{ token: { value: string } }>([
      'tokens',
      'create',
      '--email',
      'pat@example.com',
      '--note',
      'e2e',
    ]);
    expect(token.value).toMatch(/^pat_/);
    const me = await api<{ account: { email: string } }>(server.url, '/v1/admin/account/me', {
      token: token.value,
    });
    expect(me.status).toBe(200);
    expect(me.body.account.email).toBe('pat@example.com');
    const bots = await api(server.url, '/v1/admin/bots', {
      token: token.value,
      workspaceId: owner.workspaceId,
    });
    expect(bots.status).toBe(200);
  });

  it('bots create prints the bot and its access key, and the server sees the bot', async () => {
    const created = await cliJson<{
      bot: { id: string; name: string; workspaceId: string };
      botAccessKey: string;
    }>(['bots', 'create', '--workspace', owner.workspaceId, '--name', 'B']);
    expect(created.bot.name).toBe('B');
    expect(created.bot.workspaceId).toBe(owner.workspaceId);
    expect(created.botAccessKey).toMatch(/^bak_/);

    const got = await api<{ bot: { name: string } }>(server.url, `/v1/admin/bots/${created.bot.id}`, {
      token: owner.token,
      workspaceId: owner.workspaceId,
    });
    expect(got.status).toBe(200);
    expect(got.body.bot.name).toBe('B');
  });

  it('workspaces create makes a workspace the owner sees', async () => {
    const { workspace } = await cliJson<{ workspace: { id: string; name: string } }>([
      'workspaces',
      'create',
      '--name',
      'W',
    ]);
    expect(workspace.name).toBe('W');
    const listed = await api<{ workspaces: { id: string; name: string }[] }>(
      server.url,
      '/v1/admin/workspaces',
      {
        token: owner.token,
      },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.workspaces).toContainEqual(expect.objectContaining({ id: workspace.id, name: 'W' }));
  });

  it('accounts create for an existing e-mail fails with AlreadyExists', async () => {
    const result = await runCli(['accounts', 'create', '--email', owner.email], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('AlreadyExists');
    expect(result.stdout).toBe('');
  });

  it('accounts create with an unknown role fails and lists the valid roles', async () => {
    const result = await runCli(
      [
        'accounts',
        'create',
        '--email',
        'wizard@example.com',
        '--workspace',
        owner.workspaceId,
        '--role',
        'wizard',
      ],
      env,
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('wizard');
    for (const role of ROLES) expect(result.stderr).toContain(role);
    // Nothing was created: the same e-mail still works afterwards.
    await cliJson(['accounts', 'create', '--email', 'wizard@example.com']);
  });
});

describe('parley CLI on its own', () => {
  it('--help lists the configuration variables', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const variable of [
      'PORT',
      'HOST',
      'PARLEY_DATA_DIR',
      'PARLEY_DATABASE_URL',
      'PARLEY_PUBLIC_URL',
      'PARLEY_ADMIN_TOKEN',
      'PARLEY_ADMIN_EMAIL',
      'PARLEY_LOG_LEVEL',
    ]) {
      expect(result.stdout).toContain(variable);
    }
    for (const command of ['serve', 'migrate', 'accounts', 'tokens', 'workspaces', 'bots']) {
      expect(result.stdout).toContain(command);
    }
  });

  it('exits with code 2 on bad configuration', async () => {
    const result = await runCli(['migrate'], { PARLEY_LOG_LEVEL: 'loud', PARLEY_ADMIN_EMAIL: 'nobody' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PARLEY_LOG_LEVEL');
    expect(result.stderr).toContain('PARLEY_ADMIN_EMAIL');
  });
});
