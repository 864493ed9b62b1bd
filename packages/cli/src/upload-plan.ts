import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { CommandFailure } from '@parley/server/cli';
import { glob, isDynamicPattern } from 'tinyglobby';

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

/** A symbolic link met under a folder or glob and left out, and why. */
export interface SkippedLink {
  /** The link's path on disk. */
  path: string;
  /**
   * `link`: links are not followed (no --follow-symlinks); `outside`: it resolves outside the folder given;
   * `loop`: a folder link to a folder that holds it.
   */
  reason: 'link' | 'outside' | 'loop';
}

/** What `planUpload` found: the files to upload and the links it left out. */
export interface UploadPlan {
  files: PlannedFile[];
  skipped: SkippedLink[];
}

export interface PlanOptions {
  /** Put the keys under this folder. */
  prefix?: string;
  /** Follow symbolic links under folders and globs, as long as they resolve inside the folder given. */
  followSymlinks?: boolean;
}

/** True when `path` is `root` or under it (both real paths). */
function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Hidden names (dot files and folders) are left out under folders, as globs leave them out. */
const hidden = (name: string) => name.startsWith('.');

/**
 * Every file under `folder`, walked with lstat semantics: a symbolic link is left out (and named in
 * `skipped`) unless `follow`, and even then when its target is outside `realRoot` or is a folder being
 * walked (a loop; `ancestors` holds the real paths of the folders from the root down to `folder`).
 */
async function walk(
  folder: string,
  realRoot: string,
  follow: boolean,
  found: { files: string[]; skipped: SkippedLink[] },
  ancestors: ReadonlySet<string>,
): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (hidden(entry.name)) continue;
    const path = join(folder, entry.name);
    if (entry.isSymbolicLink()) {
      if (!follow) {
        found.skipped.push({ path, reason: 'link' });
        continue;
      }
      let target: string;
      try {
        target = await realpath(path);
      } catch (error) {
        if (isNotFound(error)) continue; // a dangling link names nothing
        throw error;
      }
      if (!inside(realRoot, target)) {
        found.skipped.push({ path, reason: 'outside' });
        continue;
      }
      const s = await stat(target);
      if (s.isFile()) found.files.push(path);
      else if (s.isDirectory()) {
        if (ancestors.has(target)) found.skipped.push({ path, reason: 'loop' });
        else await walk(path, realRoot, follow, found, new Set([...ancestors, target]));
      }
    } else if (entry.isFile()) found.files.push(path);
    else if (entry.isDirectory())
      await walk(path, realRoot, follow, found, new Set([...ancestors, await realpath(path)]));
  }
}

/**
 * Paths a glob matched, checked as a folder's are: one reached through a symbolic link (the glob's fixed
 * part aside, which was named) is left out unless `follow`, and always when it resolves outside that part.
 */
async function checkMatches(
  paths: string[],
  base: string,
  follow: boolean,
  skipped: SkippedLink[],
): Promise<string[]> {
  const realBase = await realpath(base);
  const kept: string[] = [];
  for (const path of paths) {
    const real = await realpath(path);
    const linked = real !== join(realBase, relative(base, path));
    if (!inside(realBase, real)) skipped.push({ path, reason: 'outside' });
    else if (linked && !follow) skipped.push({ path, reason: 'link' });
    else kept.push(path);
  }
  return kept;
}

/** The files one argument names: a file, every file under a folder, or every file a glob matches. */
async function expand(
  input: string,
  cwd: string,
  prefix: string,
  follow: boolean,
  skipped: SkippedLink[],
): Promise<PlannedFile[]> {
  const full = resolve(cwd, input);
  const skippedBefore = skipped.length;
  let found: Awaited<ReturnType<typeof stat>> | undefined;
  try {
    // A path named on the command line is the user's choice: followed when it is a link.
    found = await stat(full);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  let base: string;
  let paths: string[];
  if (found?.isFile()) return [{ path: full, key: toKey(prefix, basename(full)), size: Number(found.size) }];
  if (found?.isDirectory()) {
    base = full;
    const realRoot = await realpath(full);
    const walked = { files: [] as string[], skipped };
    await walk(full, realRoot, follow, walked, new Set([realRoot]));
    paths = walked.files;
  } else if (!found && isDynamicPattern(input)) {
    base = resolve(cwd, globBase(input));
    const pattern = isAbsolute(input) ? relative(cwd, input).split(sep).join('/') : input;
    const matched = await glob(pattern, {
      cwd,
      onlyFiles: true,
      dot: false,
      absolute: true,
      followSymbolicLinks: follow,
    });
    paths = await checkMatches(matched, base, follow, skipped);
  } else {
    throw new CommandFailure(`${input}: no such file or folder`);
  }
  if (paths.length === 0) {
    const links = skipped.length - skippedBefore;
    throw new CommandFailure(
      links > 0
        ? `${input}: matches no file (${links} symbolic link(s) left out: --follow-symlinks follows the ones inside it)`
        : `${input}: matches no file`,
    );
  }
  const files: PlannedFile[] = [];
  for (const path of paths.sort()) {
    const s = await stat(path);
    files.push({ path, key: toKey(prefix, relative(base, path)), size: Number(s.size) });
  }
  return files;
}

/**
 * Every file the arguments name (files, folders, globs; hidden files under folders and globs are left out),
 * each once, with its key. Symbolic links under folders and globs are left out (listed in `skipped`) unless
 * `followSymlinks`, and even then when they resolve outside the folder given. Two paths that would get the
 * same key are refused before anything is sent.
 */
export async function planUpload(
  inputs: string[],
  cwd: string,
  options: PlanOptions = {},
): Promise<UploadPlan> {
  const prefix = options.prefix ?? '';
  const follow = options.followSymlinks ?? false;
  const byPath = new Map<string, PlannedFile>();
  const skipped: SkippedLink[] = [];
  for (const input of inputs) {
    for (const file of await expand(input, cwd, prefix, follow, skipped)) byPath.set(file.path, file);
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
  return { files: [...byPath.values()], skipped };
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
