// The `parley` command as npm links it: packages/cli/bin/parley.js (committed plain JS, so `npx parley`
// works right after `npm install` of a fresh clone and `npm install -g` gets a `parley` too). One command: the
// server's own commands and the remote ones of @parley/cli, while the server package does not depend on the client.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild } from '../packages/testkit/src/e2e/server.js';

const run = promisify(execFile);
const cliDir = join(repoRoot, 'packages', 'cli');
const shim = join(cliDir, 'bin', 'parley.js');

interface PackageJson {
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
}
const packageJson = async (name: string) =>
  JSON.parse(await readFile(join(repoRoot, 'packages', name, 'package.json'), 'utf8')) as PackageJson;

/** Runs `node <script> <args>`; answers the exit code and both outputs. */
async function node(
  script: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args], { cwd: repoRoot });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

describe('the parley bin', () => {
  it('is the committed shim of @parley/cli, and the package publishes it with the built CLI', async () => {
    const pkg = await packageJson('cli');
    expect(join(cliDir, pkg.bin?.parley ?? '')).toBe(shim);
    // What `npm pack` / `npm install -g` of the CLI package would carry (scripts skipped: no build here).
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: cliDir,
    });
    const files = (JSON.parse(stdout) as { files: { path: string; mode: number }[] }[])[0]?.files ?? [];
    const bin = files.find((f) => f.path === 'bin/parley.js');
    expect(bin).toBeDefined();
    expect((bin?.mode ?? 0) & 0o111).not.toBe(0);
    expect(files.map((f) => f.path)).toContain('dist/main.js');
  }, 60_000);

  it('is the only parley bin; the server package depends on neither the client nor the CLI', async () => {
    const server = await packageJson('server');
    expect(server.bin).toBeUndefined();
    expect(Object.keys(server.dependencies ?? {})).not.toContain('@parley/client');
    expect(Object.keys(server.dependencies ?? {})).not.toContain('@parley/cli');
    expect((await packageJson('cli')).dependencies).toMatchObject({
      '@parley/server': expect.any(String),
      '@parley/client': expect.any(String),
    });
  });

  it('--help lists the commands, and <command> --help lists its subcommands and options', async () => {
    requireBuild();
    // Each run loads the whole CLI: in parallel, and with time for a loaded machine.
    const [top, bots, create] = await Promise.all([
      node(shim, ['--help']),
      node(shim, ['bots', '--help']),
      node(shim, ['bots', 'create', '--help']),
    ]);
    expect(top.code).toBe(0);
    // The server's own commands, and the remote ones of @parley/cli.
    for (const command of [
      ...['serve', 'migrate', 'accounts', 'tokens', 'workspaces', 'bots', 'backup', 'restore'],
      ...['files', 'kb', 'qa', 'conversations', 'search'],
    ])
      expect(top.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'));
    expect(bots.code).toBe(0);
    expect(bots.stdout).toContain('Usage: parley bots');
    // `bots create` of the server and `bots export|import` of @parley/cli in one group.
    for (const sub of ['create', 'export', 'import'])
      expect(bots.stdout).toMatch(new RegExp(`^ {2}${sub}\\b`, 'm'));
    expect(create.code).toBe(0);
    expect(create.stdout).toContain('--workspace <workspaceId>');
  }, 120_000);

  it('says how to build when the CLI is not built, and exits 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-bin-'));
    temps.push(dir);
    await mkdir(join(dir, 'bin'));
    await copyFile(shim, join(dir, 'bin', 'parley.js'));
    const result = await node(join(dir, 'bin', 'parley.js'), ['--help']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${join(dir, 'dist')}/main.js is missing`);
    expect(result.stderr).toContain('npm run build');
  });
});
