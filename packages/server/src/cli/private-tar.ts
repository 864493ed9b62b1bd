import { chmod, rename, rm } from 'node:fs/promises';
import * as tar from 'tar';

/** Permission bits of every entry of a private archive: files 0600, folders 0700. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Writes `entries` (paths under `cwd`) to a gzipped tar at `output` that holds secrets (a backup, a bot
 * export): every file entry is 0600 and every folder 0700 whatever the staged files' modes (plain `tar -x`
 * keeps them), and the archive itself is 0600. Written beside `output` and renamed, so a failure leaves no
 * partial archive.
 */
export async function writePrivateTar(cwd: string, entries: string[], output: string): Promise<void> {
  const partial = `${output}.part-${process.pid}`;
  try {
    await tar.create(
      {
        gzip: true,
        file: partial,
        cwd,
        portable: true,
        mode: PRIVATE_FILE_MODE,
        onWriteEntry: (entry) => {
          // Called before the header is written; the header's mode comes from this stat.
          const stat = entry.stat;
          if (!stat) return;
          const bits = entry.type === 'Directory' ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
          stat.mode = (stat.mode & ~0o7777) | bits;
        },
      },
      entries,
    );
    await chmod(partial, PRIVATE_FILE_MODE);
    await rename(partial, output);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * Extracts from the gzipped tar `archive` into `cwd` the regular files and folders whose path `keep` accepts
 * (links, devices and other entries never), owned by the user who runs it whatever the archive says; a
 * damaged archive rejects (strict).
 */
export async function extractTar(
  archive: string,
  cwd: string,
  keep: (path: string) => boolean,
): Promise<void> {
  await tar.extract({
    file: archive,
    cwd,
    strict: true,
    preserveOwner: false,
    filter: (path, entry) =>
      ('type' in entry ? entry.type === 'File' || entry.type === 'Directory' : true) && keep(path),
  });
}
