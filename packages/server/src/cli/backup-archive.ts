import { chmod, copyFile, link, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, posix, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import * as tar from 'tar';
import { safePath } from '../blob/local-disk.js';
import { CommandFailure } from './context.js';
import { extractTar, writePrivateTar } from './private-tar.js';

/** The manifest at the top of a backup archive: what it holds and when it was taken. */
export interface BackupManifest {
  format: 'parley-backup';
  version: 1;
  /** Parley's version that wrote it. */
  parley: string;
  createdAt: string;
  /** File records in the database copy, and how many of them have committed bytes (one blob each). */
  files: number;
  blobs: number;
  /** Bytes of those blobs. */
  blobBytes: number;
}

const MANIFEST = 'parley-backup.json';
const DATABASE = 'parley.db';
const BOOTSTRAP = 'bootstrap.json';
const BLOBS = 'blobs';

function code(error: unknown): string | undefined {
  return (error as { code?: string }).code;
}

/** `parley-YYYYMMDD.tar.gz` for a day (UTC). */
export function defaultBackupName(now = new Date()): string {
  return `parley-${now.toISOString().slice(0, 10).replaceAll('-', '')}.tar.gz`;
}

/** Hard-links `from` to `to` (a snapshot that later deletes cannot touch), else copies it; false when gone. */
async function keep(from: string, to: string): Promise<boolean> {
  await mkdir(dirname(to), { recursive: true, mode: 0o700 });
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if (code(error) === 'ENOENT') return false;
    // Another file system, or links not allowed: a copy does.
  }
  try {
    await copyFile(from, to);
    return true;
  } catch (error) {
    if (code(error) === 'ENOENT') return false;
    throw error;
  }
}

/** Blob keys (and their total size) the database copy's file records point to. */
function blobKeysOf(database: string): { files: number; keys: string[] } {
  const db = new SQLite(database);
  try {
    // One file in the archive: the copy leaves WAL mode (Parley turns it back on when it opens the database).
    db.pragma('journal_mode = DELETE');
    const files = db.prepare('select count(*) as n from files').get() as { n: number };
    const keys = db
      .prepare('select blob_key from files where blob_key is not null')
      .pluck()
      .all() as string[];
    return { files: files.n, keys };
  } finally {
    db.close();
  }
}

/**
 * A consistent copy of a running Parley's data folder (SQLite and local blobs) as a gzipped tar: the
 * database through SQLite's online backup API (a snapshot of one instant, taken while the server writes),
 * then every blob its file records point to. Blobs are written before their record commits, so each one
 * the snapshot names exists; one deleted since (a file replaced or removed after the snapshot) makes the
 * copy start again, up to `attempts` times. Blobs no record names (uploads still in flight) stay out.
 */
export async function backupDataDir(
  dataDir: string,
  output: string,
  version: string,
  attempts = 3,
): Promise<BackupManifest> {
  const database = join(dataDir, DATABASE);
  try {
    await stat(database);
  } catch (error) {
    if (code(error) === 'ENOENT')
      throw new CommandFailure(`No Parley database at ${database} (set PARLEY_DATA_DIR or --data-dir)`);
    throw error;
  }
  // In the data folder, so blobs can be hard-linked (same file system) rather than copied.
  const stage = await mkdtemp(join(dataDir, '.backup-'));
  try {
    let manifest: BackupManifest | undefined;
    let missing: string[] = [];
    for (let attempt = 1; attempt <= attempts && !manifest; attempt += 1) {
      await rm(join(stage, BLOBS), { recursive: true, force: true });
      await rm(join(stage, DATABASE), { force: true });
      const source = new SQLite(database, { fileMustExist: true });
      try {
        source.pragma('busy_timeout = 5000');
        // After the first step, the rest in one step: no write can land between two steps and restart it.
        await source.backup(join(stage, DATABASE), { progress: () => 1 << 30 });
      } finally {
        source.close();
      }
      const { files, keys } = blobKeysOf(join(stage, DATABASE));
      missing = [];
      let blobBytes = 0;
      for (const key of keys) {
        const from = safePath(join(dataDir, BLOBS), key);
        if (await keep(from, safePath(join(stage, BLOBS), key))) blobBytes += (await stat(from)).size;
        else missing.push(key);
      }
      if (missing.length === 0)
        manifest = {
          format: 'parley-backup',
          version: 1,
          parley: version,
          createdAt: new Date().toISOString(),
          files,
          blobs: keys.length,
          blobBytes,
        };
    }
    if (!manifest)
      throw new CommandFailure(
        `${missing.length} blob(s) of the database snapshot were deleted before they could be copied, ${attempts} times in a row (files replaced while the backup ran); run it again`,
      );
    const entries = [MANIFEST, DATABASE];
    if (manifest.blobs > 0) entries.push(BLOBS);
    if (await keep(join(dataDir, BOOTSTRAP), join(stage, BOOTSTRAP))) entries.push(BOOTSTRAP);
    await writeFile(join(stage, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    await writePrivateTar(stage, entries, output);
    return manifest;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/** True for the paths a Parley backup holds: its manifest, the database, bootstrap.json, and blobs. */
function allowedEntry(path: string): boolean {
  const name = posix.normalize(path.replace(/\/+$/, ''));
  if (name.startsWith('/') || name.split('/').includes('..')) return false;
  return [MANIFEST, DATABASE, BOOTSTRAP, BLOBS].includes(name) || name.startsWith(`${BLOBS}/`);
}

/** Sets folders to 0700 and files to 0600 under `root` (the data folder holds secrets). */
async function makePrivate(root: string): Promise<void> {
  await chmod(root, 0o700);
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) await makePrivate(path);
    else if (entry.isFile()) await chmod(path, 0o600);
  }
}

/**
 * Restores a backup archive into an empty (or missing) data folder: checks that it is a Parley backup
 * holding only regular files and folders under known names, extracts it, makes it private (0700/0600),
 * and checks the database (`quick_check`) and that every blob a file record names is there. A folder that
 * is not empty is refused untouched; on failure the folder is emptied again.
 */
export async function restoreDataDir(archive: string, dataDir: string): Promise<BackupManifest> {
  const target = resolve(dataDir);
  let existing: string[] = [];
  try {
    existing = await readdir(target);
  } catch (error) {
    if (code(error) !== 'ENOENT') throw error;
  }
  if (existing.length > 0)
    throw new CommandFailure(
      `${target} is not empty (${existing.length} entries): restore writes only into an empty or new data folder. Stop Parley, move that folder aside or pick a new one (--data-dir or PARLEY_DATA_DIR), then run restore again`,
    );
  try {
    await stat(archive);
  } catch {
    throw new CommandFailure(`${archive}: no such file`);
  }
  const refused: string[] = [];
  let manifestText = '';
  try {
    await tar.list({
      file: archive,
      onReadEntry: (entry) => {
        const regular = entry.type === 'File' || entry.type === 'Directory';
        if (!regular || !allowedEntry(entry.path)) refused.push(`${entry.path} (${entry.type})`);
        if (entry.path === MANIFEST)
          entry.on('data', (chunk: Buffer) => {
            manifestText += chunk.toString('utf8');
          });
        else entry.resume();
      },
    });
  } catch (error) {
    throw new CommandFailure(`${archive} is not a readable .tar.gz: ${(error as Error).message}`);
  }
  let manifest: BackupManifest | undefined;
  try {
    manifest = JSON.parse(manifestText) as BackupManifest;
  } catch {}
  if (manifest?.format !== 'parley-backup')
    throw new CommandFailure(`${archive} is not a Parley backup (no ${MANIFEST}); parley backup writes one`);
  if (refused.length > 0)
    throw new CommandFailure(
      `${archive} holds entries a Parley backup never holds: ${refused.slice(0, 5).join(', ')}`,
    );
  await mkdir(target, { recursive: true, mode: 0o700 });
  try {
    await extractTar(archive, target, (p) => p !== MANIFEST);
    await makePrivate(target);
    const db = new SQLite(join(target, DATABASE), { fileMustExist: true });
    try {
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok')
        throw new CommandFailure(`The restored database fails SQLite's quick_check: ${String(check)}`);
      const keys = db
        .prepare('select blob_key from files where blob_key is not null')
        .pluck()
        .all() as string[];
      const lost: string[] = [];
      for (const key of keys) {
        try {
          await stat(safePath(join(target, BLOBS), key));
        } catch {
          lost.push(key);
        }
      }
      if (lost.length > 0)
        throw new CommandFailure(`${lost.length} blob(s) named by file records are missing from the archive`);
    } finally {
      db.close();
    }
    return manifest;
  } catch (error) {
    for (const name of await readdir(target)) await rm(join(target, name), { recursive: true, force: true });
    throw error;
  }
}
