import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, listeningApp, parley, writeDocuments } from '../../../testkit/src/server/cli.js';
import { useTempDirs } from '../../../testkit/src/server/temp-dirs.js';
import { eventually } from '../../../testkit/src/shared/eventually.js';
import { loadConfig } from '../config/config.js';
import { type RunningServer, startServer } from '../server.js';

const tempDir = useTempDirs('parley-backup-');
type App = Awaited<ReturnType<typeof listeningApp>>;

const until = (check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> =>
  eventually(check, timeoutMs, 50);

/** Keys of the files in a state, read from a data folder's database. */
function keysIn(dataDir: string, status: string): string[] {
  const db = new SQLite(join(dataDir, 'parley.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('select key from files where status = ? order by key').pluck().all(status) as string[];
  } finally {
    db.close();
  }
}

/** Keys of the files with stored bytes in a data folder's database. */
function storedKeys(dataDir: string): string[] {
  const db = new SQLite(join(dataDir, 'parley.db'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare('select key from files where blob_key is not null order by key')
      .pluck()
      .all() as string[];
  } finally {
    db.close();
  }
}

describe('parley backup and restore (SQLite and local disk)', () => {
  let t: App;
  let docsDir: string;
  const words = new Map<string, string>();

  beforeAll(async () => {
    // A short job lease (the least allowed): the indexing job running at the backup's instant is claimed in the
    // archive until its lease runs out, and the restored Parley takes it up only then (5 s, not the 60 s default).
    t = await listeningApp({ env: { PARLEY_JOB_LEASE_SECONDS: '5' } });
    docsDir = await tempDir();
    for (const doc of await writeDocuments(docsDir, 2)) words.set(doc.name, doc.word);
    for (let i = 1; i <= 30; i += 1) {
      const word = `capybara${i}x`;
      await writeFile(
        join(docsDir, 'notes', `extra-${i}.md`),
        `# Extra ${i}\n\nThe ${word} sits by the river ${i}.\n`,
      );
      words.set(`notes/extra-${i}.md`, word);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('restores a backup taken while files upload and index: every file indexed at that instant is byte-identical and searchable', {
    timeout: 240_000,
  }, async () => {
    const upload = parley(['files', 'upload', docsDir, '--concurrency', '1', '--json'], t.env);
    await until(async () => keysIn(t.dataDir, 'indexing_completed').length >= 3);
    const archive = join(await tempDir(), 'parley-during.tar.gz');
    const backup = await parley(['backup', '-o', archive, '--json'], { PARLEY_DATA_DIR: t.dataDir });
    expect(backup.err).toBe('');
    expect(backup.code).toBe(0);
    expect(JSON.parse(backup.out)).toMatchObject({ backup: archive, format: 'parley-backup', version: 1 });
    expect((await stat(archive)).mode & 0o777).toBe(0o600);
    // Every entry is private too (plain `tar -x` keeps the modes): files 0600, folders 0700.
    const modes = new Map<string, number>();
    await tar.list({ file: archive, onReadEntry: (e) => modes.set(e.path, (e.mode ?? 0) & 0o7777) });
    expect(modes.get('parley.db')).toBe(0o600);
    expect(modes.get('parley-backup.json')).toBe(0o600);
    expect([...modes].filter(([path, mode]) => mode !== (path.endsWith('/') ? 0o700 : 0o600))).toEqual([]);
    expect([...modes.keys()].some((path) => path.startsWith('blobs/') && !path.endsWith('/'))).toBe(true);
    expect((await upload).code).toBe(0);
    // Nothing of the backup's working copy is left in the data folder.
    expect((await readdir(t.dataDir)).filter((n) => n.startsWith('.backup-'))).toEqual([]);

    const restored = join(await tempDir(), 'data');
    const restore = await parley(['restore', archive, '--data-dir', restored], {});
    expect(restore.err).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.out).toContain(`into ${restored}`);
    expect((await stat(restored)).mode & 0o777).toBe(0o700);
    expect((await stat(join(restored, 'parley.db'))).mode & 0o777).toBe(0o600);
    expect((await readdir(restored)).sort()).toEqual(['blobs', 'bootstrap.json', 'parley.db']);

    const completed = keysIn(restored, 'indexing_completed');
    const stored = storedKeys(restored);
    // Taken during the run: some files were indexed, not all of them.
    expect(completed.length).toBeGreaterThanOrEqual(3);
    expect(completed.length).toBeLessThan(words.size);

    const port = await freePort();
    let server: RunningServer | undefined;
    try {
      server = await startServer(
        loadConfig({
          PARLEY_DATA_DIR: restored,
          PORT: String(port),
          HOST: '127.0.0.1',
          PARLEY_EMBEDDER: 'none',
          PARLEY_LOG_LEVEL: 'silent',
          PARLEY_RATE_LIMIT_MAX: '0',
        }),
      );
      const env = {
        PARLEY_API_URL: `http://127.0.0.1:${port}`,
        PARLEY_TOKEN: t.owner.token,
        PARLEY_BOT_ID: t.botId,
      };
      const out = await tempDir();
      for (const [i, key] of completed.entries()) {
        const target = join(out, `${i}`);
        const down = await parley(['files', 'download', key, '-o', target], env);
        expect(down.err, key).toBe('');
        expect(await readFile(target), key).toEqual(await readFile(join(docsDir, key)));
        const found = await parley(['search', `${words.get(key)}`, '--limit', '1', '--json'], env);
        expect(JSON.parse(found.out).passages[0]?.file.key, key).toBe(key);
      }
      // Files that were still being indexed at the backup's instant are indexed on the restored Parley (a job
      // that was running then is taken up once its lease has run out).
      await until(async () => keysIn(restored, 'indexing_completed').length === stored.length, 150_000);
      expect(keysIn(restored, 'indexing_completed')).toEqual(stored);
    } finally {
      await server?.close();
    }
  });

  it('refuses to restore into a data folder that is not empty, and leaves it untouched', async () => {
    const archive = join(await tempDir(), 'b.tar.gz');
    expect((await parley(['backup', '-o', archive], { PARLEY_DATA_DIR: t.dataDir })).code).toBe(0);
    const busy = await tempDir();
    await writeFile(join(busy, 'parley.db'), 'the live database');
    const run = await parley(['restore', archive], { PARLEY_DATA_DIR: busy });
    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      new RegExp(
        `^error: ${busy} is not empty \\(1 entries\\): restore writes only into an empty or new data folder`,
      ),
    );
    expect(await readdir(busy)).toEqual(['parley.db']);
    expect(await readFile(join(busy, 'parley.db'), 'utf8')).toBe('the live database');
  });

  it('refuses an archive that is not a Parley backup, or one holding other paths, and leaves the folder empty', async () => {
    const work = await tempDir();
    await writeFile(join(work, 'notes.txt'), 'hello');
    const foreign = join(work, 'foreign.tar.gz');
    await tar.create({ gzip: true, file: foreign, cwd: work }, ['notes.txt']);
    const target = join(work, 'data');
    const run = await parley(['restore', foreign, '--data-dir', target], {});
    expect(run).toMatchObject({
      code: 1,
      err: `error: ${foreign} is not a Parley backup (no parley-backup.json); parley backup writes one\n`,
    });

    await writeFile(
      join(work, 'parley-backup.json'),
      JSON.stringify({ format: 'parley-backup', version: 1 }),
    );
    const sneaky = join(work, 'sneaky.tar.gz');
    await tar.create({ gzip: true, file: sneaky, cwd: work }, ['parley-backup.json', 'notes.txt']);
    const refused = await parley(['restore', sneaky, '--data-dir', target], {});
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/holds entries a Parley backup never holds: notes\.txt \(File\)/);

    await writeFile(join(work, 'garbage.tar.gz'), 'not gzip at all');
    const garbage = await parley(['restore', join(work, 'garbage.tar.gz'), '--data-dir', target], {});
    expect(garbage.code).toBe(1);
    const missing = await parley(['restore', join(work, 'nope.tar.gz'), '--data-dir', target], {});
    expect(missing).toMatchObject({ code: 1, err: `error: ${join(work, 'nope.tar.gz')}: no such file\n` });
    await expect(readdir(target)).rejects.toThrow(/ENOENT/);
  });

  it('refuses PostgreSQL and S3 deployments, saying to use pg_dump and a copy of the bucket', async () => {
    const pg = await parley(['backup', '-o', join(await tempDir(), 'x.tar.gz')], {
      PARLEY_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/parley',
      PARLEY_DATA_DIR: t.dataDir,
    });
    expect(pg.code).toBe(1);
    expect(pg.err).toMatch(
      /^error: PostgreSQL \(PARLEY_DATABASE_URL\) in use: .*pg_dump --format=custom .*S3 bucket/,
    );
    const s3 = await parley(['restore', 'whatever.tar.gz'], {
      PARLEY_S3_BUCKET: 'parley-files',
      PARLEY_DATA_DIR: t.dataDir,
    });
    expect(s3.code).toBe(1);
    expect(s3.err).toMatch(/^error: S3 \(PARLEY_S3_BUCKET\) in use: /);
  });

  it('says when the data folder holds no Parley database, and documents itself as a local command', async () => {
    const empty = await tempDir();
    await mkdir(join(empty, 'data'));
    const run = await parley(['backup', '-o', join(empty, 'x.tar.gz')], {
      PARLEY_DATA_DIR: join(empty, 'data'),
    });
    expect(run).toMatchObject({
      code: 1,
      err: `error: No Parley database at ${join(empty, 'data', 'parley.db')} (set PARLEY_DATA_DIR or --data-dir)\n`,
    });
    const help = await parley(['backup', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.out.replace(/\s+/g, ' ')).toContain(
      "a local command, run on the server's machine, not over HTTP",
    );
  });
});
