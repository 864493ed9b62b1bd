import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as tar from 'tar';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../../testkit/src/server/temp-dirs.js';
import { writePrivateTar } from './private-tar.js';

const tempDir = useTempDirs('parley-private-tar-');

describe('writePrivateTar (backup and bot export archives)', () => {
  it('writes every file entry 0600 and every folder 0700 whatever the staged modes, and the archive 0600', async () => {
    const stage = await tempDir();
    await writeFile(join(stage, 'parley.db'), 'secret database');
    await chmod(join(stage, 'parley.db'), 0o644);
    await mkdir(join(stage, 'blobs', 'a'), { recursive: true });
    await chmod(join(stage, 'blobs'), 0o755);
    await chmod(join(stage, 'blobs', 'a'), 0o777);
    await writeFile(join(stage, 'blobs', 'a', 'b'), 'bytes');
    await chmod(join(stage, 'blobs', 'a', 'b'), 0o755);
    const output = join(await tempDir(), 'out.tar.gz');

    await writePrivateTar(stage, ['parley.db', 'blobs'], output);

    expect((await stat(output)).mode & 0o777).toBe(0o600);
    const modes: Record<string, number> = {};
    await tar.list({ file: output, onReadEntry: (e) => (modes[e.path] = (e.mode ?? 0) & 0o7777) });
    expect(modes).toEqual({ 'parley.db': 0o600, 'blobs/': 0o700, 'blobs/a/': 0o700, 'blobs/a/b': 0o600 });

    // Plain tar (no umask games) extracts it private, with the bytes.
    const out = await tempDir();
    execFileSync('tar', ['-xzf', output, '-C', out]);
    expect((await stat(join(out, 'parley.db'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(out, 'blobs', 'a', 'b'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(out, 'parley.db'), 'utf8')).toBe('secret database');
  });
});
