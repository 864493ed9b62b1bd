// The `parley` command as npm links it: packages/server/bin/parley.js (committed plain JS, so `npx parley`
// works right after `npm install` of a fresh clone and `npm install -g` gets a `parley` too).
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild } from '../packages/testkit/src/e2e/server.js';

const run = promisify(execFile);
const serverDir = join(repoRoot, 'packages', 'server');
const shim = join(serverDir, 'bin', 'parley.js');

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
  it('is the committed shim, and the package publishes it with the built CLI', async () => {
    const pkg = JSON.parse(await readFile(join(serverDir, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(join(serverDir, pkg.bin.parley ?? '')).toBe(shim);
    // What `npm pack` / `npm install -g` of the server package would carry (scripts skipped: no build here).
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: serverDir,
    });
    const files = (JSON.parse(stdout) as { files: { path: string; mode: number }[] }[])[0]?.files ?? [];
    const bin = files.find((f) => f.path === 'bin/parley.js');
    expect(bin).toBeDefined();
    expect((bin?.mode ?? 0) & 0o111).not.toBe(0);
    expect(files.map((f) => f.path)).toContain('dist/main.js');
  }, 60_000);

  it('--help lists the commands, and <command> --help lists its subcommands and options', async () => {
    requireBuild();
    // Each run loads the whole CLI: in parallel, and with time for a loaded machine.
    const [top, bots, create] = await Promise.all([
      node(shim, ['--help']),
      node(shim, ['bots', '--help']),
      node(shim, ['bots', 'create', '--help']),
    ]);
    expect(top.code).toBe(0);
    for (const command of ['serve', 'migrate', 'accounts', 'tokens', 'workspaces', 'bots'])
      expect(top.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'));
    expect(bots.code).toBe(0);
    expect(bots.stdout).toContain('Usage: parley bots');
    expect(bots.stdout).toMatch(/^ {2}create\b/m);
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
