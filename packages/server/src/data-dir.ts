import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { chmod, lstat, opendir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * The data folder holds secrets (the URL-signing and chat user-key secrets, webhook secrets, tokens' hashes)
 * and every indexed text: only the account running Parley may read it. Folders are 0700, files 0600.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and missing parents) with mode 0700, and tightens it to 0700 when it exists looser. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Creates an empty `file` with mode 0600 unless it exists (an existing file is left as it is). SQLite opens an
 * empty file as a new database and gives its -wal and -shm files the database file's mode, so creating the
 * database file first keeps all three private whatever the umask.
 */
export function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  }
}

/** What `tightenPrivateTree` changed: paths relative to its root ('.' for the root), and what it could not. */
export interface Tightened {
  paths: string[];
  failed: { path: string; message: string }[];
}

/**
 * Walks `root` (not following symbolic links) and sets every folder that others may use to 0700 and every
 * file that others may read or write to 0600; a missing root is nothing to do.
 * @example const { paths } = await tightenPrivateTree('/var/lib/parley') // ['.', 'parley.db', 'parley.db-wal']
 */
export async function tightenPrivateTree(root: string): Promise<Tightened> {
  const result: Tightened = { paths: [], failed: [] };
  const visit = async (path: string, isDir: boolean): Promise<void> => {
    let mode: number;
    try {
      mode = (await lstat(path)).mode;
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return;
      throw error;
    }
    const wanted = isDir ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((mode & 0o077) !== 0) {
      try {
        await chmod(path, wanted);
        result.paths.push(relative(root, path) || '.');
      } catch (error) {
        result.failed.push({ path, message: (error as Error).message });
      }
    }
    if (!isDir) return;
    let dir: Awaited<ReturnType<typeof opendir>>;
    try {
      dir = await opendir(path);
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return;
      throw error;
    }
    for await (const entry of dir) {
      if (entry.isDirectory()) await visit(join(path, entry.name), true);
      else if (entry.isFile()) await visit(join(path, entry.name), false);
    }
  };
  const top = await lstat(root).catch((error: { code?: string }) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (top?.isDirectory()) await visit(root, true);
  return result;
}
