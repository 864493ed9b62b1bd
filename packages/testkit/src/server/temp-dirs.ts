import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Declares the temp folders of a test file: answers a function that makes a fresh one named `<prefix>…`,
 * and removes every one it made after the file's last test. Call it at the top level.
 * @example const tempDir = useTempDirs('parley-sqlite-'); // then await tempDir()
 */
export function useTempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/**
 * A folder outside the one a test uploads, made with `tempDir`: what a symbolic link leading out of it reaches,
 * the file `secret.txt` and the folder `private` (with `key.txt`). Answers its path.
 */
export async function outsideFolder(tempDir: () => Promise<string>): Promise<string> {
  const outside = await tempDir();
  await writeFile(join(outside, 'secret.txt'), 'outside file');
  await mkdir(join(outside, 'private'));
  await writeFile(join(outside, 'private', 'key.txt'), 'outside folder');
  return outside;
}
