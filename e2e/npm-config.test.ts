// The repository as npm sees it: no project setting npm does not know (npm 11.2+ warns about each on every
// command a user types), one inference runtime in the lock file, and onnxruntime-node's install script off.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../packages/testkit/src/e2e/server.js';

const run = promisify(execFile);

describe('npm in this repository', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'parley-npm-'));
    const userconfig = join(home, '.npmrc');
    await writeFile(userconfig, '');
    // As a user's shell has it: none of the npm_* variables the npm running this test set, and an empty user
    // config, so only the project's own settings (and npm's) are read.
    env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
    );
    env.npm_config_userconfig = userconfig;
    env.npm_config_cache = join(home, 'cache');
    env.npm_config_update_notifier = 'false'; // a newer npm on the registry is not this test's business
  });
  afterAll(() => rm(home, { recursive: true, force: true }));

  it('prints no warning on a command (no unknown project config)', async () => {
    const { stdout, stderr } = await run('npm', ['pkg', 'get', 'name'], { cwd: repoRoot, env });
    expect(stdout.trim()).toBe('"parley"');
    expect(stderr).toBe('');
  }, 60_000);

  it('keeps onnxruntime-node’s install script off (it would fetch CUDA libraries) and holds no TensorFlow.js', async () => {
    const root = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
      allowScripts: Record<string, boolean>;
    };
    expect(root.allowScripts['onnxruntime-node']).toBe(false);
    const lock = JSON.parse(await readFile(join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    const installed = Object.keys(lock.packages);
    expect(installed).toContain('node_modules/onnxruntime-node');
    expect(installed.filter((path) => path.includes('@tensorflow/'))).toEqual([]);
  });
});
