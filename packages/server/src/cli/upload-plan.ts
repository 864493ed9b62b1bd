import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { CommandFailure } from './context.js';

/** A local file to upload, and the key it gets. */
export interface PlannedFile {
  /** Absolute path on disk. */
  path: string;
  /** File key on the bot: the path under the folder (or a glob's fixed part) given, with `/`. */
  key: string;
  size: number;
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The fixed folder a glob starts from: its segments before the first one holding a pattern. */
function globBase(pattern: string): string {
  const segments = pattern.split(/[\\/]/);
  const fixed: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (isDynamicPattern(segment)) break;
    fixed.push(segment);
  }
  if (fixed.length === 0) return '.';
  const joined = fixed.join('/');
  return joined === '' ? '/' : joined;
}

const toKey = (prefix: string, rel: string) => posix.join(prefix, rel.split(sep).join('/'));

/** The files one argument names: a file, every file under a folder, or every file a glob matches. */
async function expand(input: string, cwd: string, prefix: string): Promise<PlannedFile[]> {
  const full = resolve(cwd, input);
  let found: Awaited<ReturnType<typeof stat>> | undefined;
  try {
    found = await stat(full);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  let base: string;
  let paths: string[];
  if (found?.isFile()) return [{ path: full, key: toKey(prefix, basename(full)), size: Number(found.size) }];
  if (found?.isDirectory()) {
    base = full;
    paths = await glob('**/*', { cwd: full, onlyFiles: true, dot: false, absolute: true });
  } else if (!found && isDynamicPattern(input)) {
    base = resolve(cwd, globBase(input));
    const pattern = isAbsolute(input) ? relative(cwd, input).split(sep).join('/') : input;
    paths = await glob(pattern, { cwd, onlyFiles: true, dot: false, absolute: true });
  } else {
    throw new CommandFailure(`${input}: no such file or folder`);
  }
  if (paths.length === 0) throw new CommandFailure(`${input}: matches no file`);
  const files: PlannedFile[] = [];
  for (const path of paths.sort()) {
    const s = await stat(path);
    files.push({ path, key: toKey(prefix, relative(base, path)), size: Number(s.size) });
  }
  return files;
}

/**
 * Every file the arguments name (files, folders, globs; hidden files under folders and globs are left out),
 * each once, with its key. Two paths that would get the same key are refused before anything is sent.
 */
export async function planUpload(inputs: string[], cwd: string, prefix = ''): Promise<PlannedFile[]> {
  const byPath = new Map<string, PlannedFile>();
  for (const input of inputs) {
    for (const file of await expand(input, cwd, prefix)) byPath.set(file.path, file);
  }
  const byKey = new Map<string, string>();
  for (const file of byPath.values()) {
    const other = byKey.get(file.key);
    if (other !== undefined)
      throw new CommandFailure(
        `${relative(cwd, other)} and ${relative(cwd, file.path)} would both be uploaded as ${file.key}; upload them in separate runs or with --prefix`,
      );
    byKey.set(file.key, file.path);
  }
  return [...byPath.values()];
}

/** The sha256 of a file's bytes (hex), read as a stream. */
export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A path for messages: relative to `cwd` when under it. */
export function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : join(rel);
}
