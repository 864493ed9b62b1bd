import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, type Stats } from 'node:fs';
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

function isNotFound(error: unknown): boolean {
  return (error as { code?: string }).code === 'ENOENT';
}

/**
 * Walks `root` (not following symbolic links) and sets every folder that others may use to 0700 and every
 * file that others may read or write to 0600; a missing root is nothing to do. Synchronous on purpose: it runs
 * once at start, before the server listens, and a walk of 20,000 blobs is far faster than with promises.
 * @example const { paths } = tightenPrivateTree('/var/lib/parley') // ['.', 'parley.db', 'parley.db-wal']
 */
export function tightenPrivateTree(root: string): Tightened {
  const result: Tightened = { paths: [], failed: [] };
  const visit = (path: string): void => {
    let stats: Stats;
    try {
      stats = lstatSync(path);
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    const isDir = stats.isDirectory();
    if (!isDir && !stats.isFile()) return;
    if ((stats.mode & 0o077) !== 0) {
      try {
        chmodSync(path, isDir ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE);
        result.paths.push(relative(root, path) || '.');
      } catch (error) {
        result.failed.push({ path, message: (error as Error).message });
      }
    }
    if (!isDir) return;
    let names: string[];
    try {
      names = readdirSync(path);
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    for (const name of names) visit(join(path, name));
  };
  visit(root);
  return result;
}
