// The data folder is private: created 0700 with files 0600 (the SQLite database and its -wal/-shm, blobs,
// bootstrap.json), and a folder found looser at start is tightened, with a log line naming what changed.
import { chmod, readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  makeDataDir,
  startFirstRun,
  startServer,
  useServerProcesses,
} from '../packages/testkit/src/e2e/server.js';
import { uploadAsBot } from '../packages/testkit/src/shared/bot-request.js';

useServerProcesses();

/** Every folder and file under `root` (itself as '.') with its permission bits. */
async function modes(root: string): Promise<Map<string, { dir: boolean; mode: number }>> {
  const found = new Map<string, { dir: boolean; mode: number }>();
  const visit = async (path: string): Promise<void> => {
    const s = await stat(path);
    found.set(relative(root, path) || '.', { dir: s.isDirectory(), mode: s.mode & 0o777 });
    if (s.isDirectory()) for (const name of await readdir(path)) await visit(join(path, name));
  };
  await visit(root);
  return found;
}

/** The paths whose modes are not private: folders other than 0700, files other than 0600. */
function notPrivate(found: Map<string, { dir: boolean; mode: number }>): string[] {
  return [...found]
    .filter(([, { dir, mode }]) => mode !== (dir ? 0o700 : 0o600))
    .map(([path, { mode }]) => `${path} ${mode.toString(8)}`);
}

describe('the data folder', () => {
  it('is created 0700 with every file 0600, and a loosened one is tightened at start with a log line', async () => {
    // A data folder Parley creates itself (its parent exists): not mkdtemp's, which is 0700 already.
    const dataDir = join(await makeDataDir(), 'data');
    const { server, boot } = await startFirstRun({ dataDir, readyTimeoutMs: 120_000 });
    const bot = { accessKey: boot.botAccessKey, id: boot.botId };
    await uploadAsBot(server.url, bot, 'notes/secret.txt', Buffer.from('the launch code is 1234'));

    const fresh = await modes(dataDir);
    expect(fresh.get('.')).toEqual({ dir: true, mode: 0o700 });
    for (const file of ['parley.db', 'parley.db-wal', 'parley.db-shm', 'bootstrap.json'])
      expect(fresh.get(file), file).toEqual({ dir: false, mode: 0o600 });
    const blobs = [...fresh].filter(([path, { dir }]) => path.startsWith('blobs/') && !dir);
    expect(blobs.length).toBeGreaterThan(0);
    expect(notPrivate(fresh)).toEqual([]);
    await server.stop();

    // As an older Parley or a copy made by hand would leave it: readable by every local user.
    await chmod(dataDir, 0o755);
    await chmod(join(dataDir, 'parley.db'), 0o644);
    await chmod(join(dataDir, 'bootstrap.json'), 0o644);
    await chmod(join(dataDir, 'blobs'), 0o755);
    const [blobPath] = blobs[0] ?? [''];
    await chmod(join(dataDir, blobPath), 0o664);

    const again = await startServer({ dataDir, readyTimeoutMs: 120_000 });
    await again.waitForStdout(/Parley listening on/);
    expect(notPrivate(await modes(dataDir))).toEqual([]);
    const lines = `${again.stdout()}${again.stderr()}`.split('\n').filter((l) => l.includes('tightened'));
    expect(lines).toHaveLength(1);
    for (const path of ['.', 'parley.db', 'bootstrap.json', 'blobs', blobPath])
      expect(lines[0]).toContain(path === '.' ? `data folder ${dataDir}` : path);
    await again.stop();

    // Already private: nothing to say.
    const third = await startServer({ dataDir, readyTimeoutMs: 120_000 });
    await third.waitForStdout(/Parley listening on/);
    expect(`${third.stdout()}${third.stderr()}`).not.toContain('tightened');
  }, 400_000);
});
