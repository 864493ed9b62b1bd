import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileObject } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fakeTerminal,
  faultyProxy,
  freePort,
  type GeneratedDocument,
  listeningApp,
  parley,
  writeDocuments,
} from '../../testkit/src/server/cli.js';
import { getFile } from '../../testkit/src/server/files-api.js';
import { outsideFolder, useTempDirs } from '../../testkit/src/server/temp-dirs.js';
import type { UploadSummary } from './upload-display.js';
import type { FileReport } from './upload-run.js';

type App = Awaited<ReturnType<typeof listeningApp>>;
const tempDir = useTempDirs('parley-cli-');

interface Report {
  summary: UploadSummary;
  files: FileReport[];
}

const json = <T>(out: string) => JSON.parse(out) as T;

describe('parley files, kb and search against a running Parley', () => {
  let t: App;
  let dir: string;
  let docs: GeneratedDocument[];

  beforeAll(async () => {
    t = await listeningApp();
    dir = await tempDir();
    docs = await writeDocuments(dir, 2);
  });
  afterAll(async () => {
    await t.close();
  });

  it('uploads a folder of PDF, DOCX and Markdown files, links them to a knowledge base, tags them and waits until each is indexed', async () => {
    const kb = await parley(['kb', 'create', 'Handbook', '--json'], t.env);
    expect(kb.code).toBe(0);
    const up = await parley(
      ['files', 'upload', dir, '--kb', 'Handbook', '--tags', 'team=ops,lang=en'],
      t.env,
    );
    expect(up.err).toBe('');
    expect(up.code).toBe(0);
    expect(up.out).toContain(`Uploading ${docs.length} file(s)`);
    for (const doc of docs)
      expect(up.out).toMatch(new RegExp(`indexed\\s+${doc.name.replace('.', '\\.')}\\b`));
    expect(up.out).toMatch(/│ indexed\s+│\s+6 │/);
    for (const doc of docs) {
      const file = await getFile(t, doc.name);
      expect(file).toMatchObject({
        key: doc.name,
        status: 'indexing_completed',
        tags: { team: 'ops', lang: 'en' },
      });
    }
    const list = await parley(['kb', 'list', '--json'], t.env);
    const [handbook] = json<{
      knowledgeBases: Array<{ name: string; files: { total: number; indexed: number } }>;
    }>(list.out).knowledgeBases;
    expect(handbook).toMatchObject({ name: 'Handbook', files: { total: 6, indexed: 6 } });
  });

  it("finds each document's own word with `search`, best first, in the knowledge base", async () => {
    for (const doc of docs) {
      const found = await parley(['search', `${doc.word} office team`, '--kb', 'Handbook', '--json'], t.env);
      expect(found.code).toBe(0);
      const { passages } = json<{ passages: Array<{ file: { key: string }; content: string }> }>(found.out);
      expect(passages[0]?.file.key).toBe(doc.name);
      expect(passages[0]?.content).toContain(doc.word);
    }
    const shown = await parley(['search', 'quokka1pdf', '--limit', '1'], t.env);
    expect(shown.out).toMatch(/^1\. guide-1\.pdf, page 1 \(score [\d.]+\)\n {3}.*quokka1pdf/);
    const none = await parley(['search', 'xylophonezzz'], t.env);
    expect(none).toMatchObject({ code: 0, out: 'No passage found.\n' });
  });

  it('skips every file on a second run (same key, same sha256), and sends again only the file that changed', async () => {
    const again = await parley(['files', 'upload', dir, '--json'], t.env);
    expect(again.code).toBe(0);
    const first = json<Report>(again.out);
    expect(first.summary).toMatchObject({
      files: 6,
      unchanged: 6,
      uploaded: 0,
      indexed: 0,
      failed: 0,
      sentBytes: 0,
    });
    expect(first.files.every((f) => f.state === 'unchanged' && f.status === 'indexing_completed')).toBe(true);

    const before = await getFile(t, 'notes/note-1.md');
    await writeFile(
      join(dir, 'notes', 'note-1.md'),
      '# Note 1\n\nThe numbat1md team now meets on Fridays.\n',
    );
    const changed = json<Report>((await parley(['files', 'upload', dir, '--json'], t.env)).out);
    expect(changed.summary).toMatchObject({ unchanged: 5, indexed: 1, failed: 0 });
    const note = changed.files.find((f) => f.key === 'notes/note-1.md');
    expect(note).toMatchObject({ state: 'indexed', status: 'indexing_completed', id: before.id });
    const after = await getFile(t, 'notes/note-1.md');
    expect(after.checksum).toBe(note?.sha256);
    expect(after.checksum).not.toBe(before.checksum);
  });

  it('updates the tags of an unchanged file instead of sending its bytes again', async () => {
    const run = json<Report>(
      (await parley(['files', 'upload', join(dir, 'guide-1.pdf'), '--tags', 'team=sales', '--json'], t.env))
        .out,
    );
    expect(run.summary).toMatchObject({ unchanged: 1, sentBytes: 0 });
    expect((await getFile(t, 'guide-1.pdf')).tags).toMatchObject({ team: 'sales', lang: 'en' });
  });

  it('reports a file that fails to index, keeps going with the others, and exits 1', async () => {
    const bad = await tempDir();
    await writeFile(join(bad, 'broken.pdf'), 'this is not a PDF at all');
    await writeFile(join(bad, 'fine.md'), '# Fine\n\nA pangolin is fine.\n');
    const run = await parley(['files', 'upload', bad, '--json'], t.env);
    expect(run.code).toBe(1);
    expect(run.err).toBe('error: 1 of 2 file(s) failed\n');
    const report = json<Report>(run.out);
    expect(report.summary).toMatchObject({ files: 2, indexed: 1, failed: 1 });
    const broken = report.files.find((f) => f.key === 'broken.pdf');
    expect(broken).toMatchObject({ state: 'failed', status: 'indexing_failed' });
    expect(broken?.error).toMatch(/^indexing_failed: .*PDF/);

    const plain = await parley(['files', 'upload', join(bad, 'broken.pdf')], t.env);
    expect(plain.code).toBe(1);
    expect(plain.out).toMatch(/failed\s+broken\.pdf\s+indexing_failed/);
    expect(plain.out).toMatch(/│ failed file\s+│ reason/);
  });

  it('retries a transient failure (a 503 and a dropped connection on the upload) and still indexes the file', async () => {
    const port = await freePort();
    const flaky = await listeningApp({ publicUrl: `http://127.0.0.1:${port}` });
    const proxy = await faultyProxy(port, flaky.apiUrl, (method, path, n) => {
      if (method !== 'PUT' || !path.endsWith('/upload')) return undefined;
      if (n === 1) return 503;
      if (n === 2) return 'reset';
      return undefined;
    });
    try {
      const file = join(dir, 'notes', 'note-2.md');
      const run = await parley(['files', 'upload', file, '--json'], {
        ...flaky.env,
        PARLEY_API_URL: proxy.url,
      });
      expect(run.err).toBe('');
      expect(run.code).toBe(0);
      expect(json<Report>(run.out).files[0]).toMatchObject({ key: 'note-2.md', state: 'indexed' });
      const uploads = [...proxy.seen].filter(([id]) => id.startsWith('PUT ') && id.endsWith('/upload'));
      expect(uploads.map(([, n]) => n)).toEqual([3]);
      expect((await getFile(flaky, 'note-2.md')).checksum).toBe(json<Report>(run.out).files[0]?.sha256);
    } finally {
      await proxy.close();
      await flaky.close();
    }
  });

  it('gives up on a file after --retries attempts and exits 1 naming the error', async () => {
    const port = await freePort();
    const flaky = await listeningApp({ publicUrl: `http://127.0.0.1:${port}` });
    const proxy = await faultyProxy(port, flaky.apiUrl, (method, path) =>
      method === 'PUT' && path.endsWith('/upload') ? 503 : undefined,
    );
    try {
      const run = await parley(
        ['files', 'upload', join(dir, 'notes', 'note-2.md'), '--retries', '2', '--json'],
        {
          ...flaky.env,
          PARLEY_API_URL: proxy.url,
        },
      );
      expect(run.code).toBe(1);
      expect(json<Report>(run.out).files[0]?.error).toMatch(/^Internal: injected by the test proxy/);
      expect([...proxy.seen].find(([id]) => id.endsWith('/upload'))?.[1]).toBe(2);
    } finally {
      await proxy.close();
      await flaky.close();
    }
  });

  it('draws live bars on a terminal: the total, a line per file as it ends, then the summary table', async () => {
    const terminal = fakeTerminal();
    const dirTty = await tempDir();
    await writeFile(join(dirTty, 'tty-1.md'), '# TTY one\n\nA tapir reads the terminal.\n');
    await writeFile(join(dirTty, 'tty-2.md'), '# TTY two\n\nA tapir writes the terminal.\n');
    const run = await parley(['files', 'upload', dirTty], t.env, terminal);
    expect(run.code).toBe(0);
    expect(run.out).toBe('');
    const text = terminal.text;
    expect(text).toMatch(
      /total\s+\S+ \d+ B\/\d+ B · files 2\/2: 0 indexing, 2 indexed, 0 unchanged, 0 failed/,
    );
    expect(text).toMatch(/indexed {3}tty-1\.md/);
    expect(text).toMatch(/indexed {3}tty-2\.md/);
    expect(text).toMatch(/│ indexed\s+│\s+2 │/);
    // Drawn in place: cursor moves and line clears, not a log of lines.
    expect(text).toContain('\u001b[');
  });

  it('uploads the files a glob matches, keyed under its fixed part, with --prefix and --public', async () => {
    const run = await parley(
      ['files', 'upload', `${dir}/notes/*.md`, '--prefix', 'kb/notes', '--public', '--no-wait', '--json'],
      t.env,
    );
    expect(run.code).toBe(0);
    const report = json<Report>(run.out);
    expect(report.files.map((f) => f.key).sort()).toEqual(['kb/notes/note-1.md', 'kb/notes/note-2.md']);
    expect(report.files.every((f) => f.state === 'uploaded')).toBe(true);
    const file: FileObject = await getFile(t, 'kb/notes/note-2.md');
    expect(file.accessPolicies).toEqual(['public_content']);
  });

  it('leaves symbolic links out of a folder upload with a note, and with --follow-symlinks follows only those inside it', async () => {
    const outside = await outsideFolder(tempDir);
    const root = join(await tempDir(), 'linked');
    await mkdir(join(root, 'sub'), { recursive: true });
    await writeFile(join(root, 'sub', 'inner.md'), '# Inner\n\nA real file.\n');
    await symlink(join(outside, 'secret.txt'), join(root, 'file-out.txt'));
    await symlink(join(outside, 'private'), join(root, 'folder-out'));
    await symlink(join('sub', 'inner.md'), join(root, 'file-in.md'));
    const args = ['files', 'upload', root, '--prefix', 'links', '--no-wait', '--json'];

    const plain = await parley(args, t.env);
    expect(json<Report>(plain.out).files.map((f) => f.key)).toEqual(['links/sub/inner.md']);
    expect(plain.code).toBe(0);
    for (const name of ['file-out.txt', 'folder-out', 'file-in.md'])
      expect(plain.err).toContain(`note: skipped ${join(root, name)}: a symbolic link (--follow-symlinks`);

    const followed = await parley([...args, '--follow-symlinks'], t.env);
    expect(followed.code).toBe(0);
    expect(
      json<Report>(followed.out)
        .files.map((f) => f.key)
        .sort(),
    ).toEqual(['links/file-in.md', 'links/sub/inner.md']);
    for (const name of ['file-out.txt', 'folder-out'])
      expect(followed.err).toContain(
        `note: skipped ${join(root, name)}: a symbolic link to outside the folder`,
      );
    const stored = await parley(['files', 'list', '--key-contains', 'links/', '--json'], t.env);
    expect(
      json<{ files: FileObject[] }>(stored.out)
        .files.map((f) => f.key)
        .sort(),
    ).toEqual(['links/file-in.md', 'links/sub/inner.md']);
  });

  it('refuses paths that name nothing, globs that match nothing and two files that would share a key', async () => {
    const missing = await parley(['files', 'upload', join(dir, 'nope.pdf')], t.env);
    expect(missing).toMatchObject({
      code: 1,
      err: `error: ${join(dir, 'nope.pdf')}: no such file or folder\n`,
    });
    const none = await parley(['files', 'upload', `${dir}/**/*.xlsx`], t.env);
    expect(none).toMatchObject({ code: 1, err: `error: ${dir}/**/*.xlsx: matches no file\n` });
    const twice = await parley(
      ['files', 'upload', join(dir, 'notes', 'note-1.md'), join(dir, 'notes')],
      t.env,
    );
    expect(twice.code).toBe(0);
    const clash = await parley(
      ['files', 'upload', join(dir, 'guide-1.pdf'), `${dir}/*/../guide-1.pdf`],
      t.env,
    );
    expect(clash.code).toBe(0);
    const other = await tempDir();
    await writeFile(join(other, 'guide-1.pdf'), 'another file with the same name');
    const same = await parley(
      ['files', 'upload', join(dir, 'guide-1.pdf'), join(other, 'guide-1.pdf')],
      t.env,
    );
    expect(same.code).toBe(1);
    expect(same.err).toMatch(/would both be uploaded as guide-1\.pdf/);
  });

  it('exits 1 with the API error for an unknown bot, before reading any file', async () => {
    const run = await parley(['files', 'upload', dir, '--bot', 'bot_doesnotexist'], t.env);
    expect(run.code).toBe(1);
    expect(run.out).toBe('');
    expect(run.err).toMatch(/^error: (ResourceNotFound|Forbidden): .+\n$/);
    const search = await parley(['search', 'anything', '--bot', 'bot_doesnotexist'], t.env);
    expect(search.code).toBe(1);
    expect(search.err).toMatch(/^error: (ResourceNotFound|Forbidden): /);
  });

  it('exits 2 naming the flag and the variable when the token or the bot is missing, 1 for a wrong token', async () => {
    const noToken = await parley(['files', 'list'], { ...t.env, PARLEY_TOKEN: undefined });
    expect(noToken).toMatchObject({ code: 2, err: 'error: no token: pass --token or set PARLEY_TOKEN\n' });
    const noBot = await parley(['search', 'x'], { ...t.env, PARLEY_BOT_ID: undefined });
    expect(noBot).toMatchObject({ code: 2, err: 'error: no bot: pass --bot or set PARLEY_BOT_ID\n' });
    const wrong = await parley(['files', 'list', '--token', 'pat_wrong'], t.env);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/^error: Unauthorized: /);
    const badTags = await parley(['files', 'upload', dir, '--tags', 'novalue'], t.env);
    expect(badTags.code).toBe(2);
    expect(badTags.err).toContain('"novalue" is not key=value');
  });

  it('exits 1 with a clear message when no Parley answers at --url', async () => {
    const port = await freePort();
    const run = await parley(['files', 'list', '--url', `http://127.0.0.1:${port}`, '--retries', '1'], t.env);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^error: cannot reach Parley: GET http:\/\/127\.0\.0\.1:\d+\/v1\/files.* failed/);
  });

  it('lists, downloads (byte-identical) and removes files', async () => {
    const list = await parley(['files', 'list', '--key-contains', 'guide', '--json'], t.env);
    const keys = json<{ files: FileObject[] }>(list.out).files.map((f) => f.key);
    expect(keys).toEqual(['guide-1.pdf', 'guide-2.pdf']);
    const table = await parley(['files', 'list', '--status', 'indexing_completed'], t.env);
    expect(table.out).toMatch(/^KEY\s+STATUS\s+SIZE\s+UPDATED\s+ID\n/);
    expect(table.out).toMatch(/guide-2\.pdf\s+indexing_completed/);

    const target = join(await tempDir(), 'copy.pdf');
    const down = await parley(['files', 'download', 'guide-2.pdf', '-o', target], t.env);
    expect(down.code).toBe(0);
    expect(await readFile(target)).toEqual(await readFile(join(dir, 'guide-2.pdf')));

    const removed = await parley(['files', 'rm', 'guide-2.pdf'], t.env);
    expect(removed).toMatchObject({ code: 0, out: 'deleted guide-2.pdf\n' });
    const gone = await parley(['files', 'download', 'guide-2.pdf', '-o', target], t.env);
    expect(gone.code).toBe(1);
    expect(gone.err).toMatch(/^error: ResourceNotFound: /);
    const rmGone = await parley(['files', 'rm', 'guide-2.pdf'], t.env);
    expect(rmGone.code).toBe(1);
  });

  it('links and unlinks files with `kb`, by knowledge base name or id, and refuses an unknown one', async () => {
    const created = json<{ knowledgeBase: { id: string } }>(
      (await parley(['kb', 'create', 'Notes', '--tags', 'area=notes', '--json'], t.env)).out,
    ).knowledgeBase;
    const link = await parley(['kb', 'link', 'Notes', 'notes/note-1.md', 'notes/note-2.md'], t.env);
    expect(link.code).toBe(0);
    expect(link.out).toContain('notes/note-2.md linked to Notes\n');
    expect(link.out).toMatch(/now kb_\S+ "Notes": 2 file\(s\)/);
    const unlink = await parley(['kb', 'unlink', created.id, 'notes/note-1.md', '--json'], t.env);
    expect(json<{ knowledgeBase: { files: { total: number } } }>(unlink.out).knowledgeBase.files.total).toBe(
      1,
    );
    const unknown = await parley(['kb', 'link', 'Nowhere', 'notes/note-1.md'], t.env);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(
      /^error: No knowledge base "Nowhere" on bot \S+ \(parley kb list shows them\)\n$/,
    );
    const upload = await parley(['files', 'upload', dir, '--kb', 'Nowhere'], t.env);
    expect(upload.code).toBe(1);
    expect(upload.err).toMatch(/No knowledge base "Nowhere"/);
    const table = await parley(['kb', 'list'], t.env);
    expect(table.out).toMatch(/^ID\s+NAME\s+FILES\s+INDEXED\s+PENDING\s+FAILED\n/);
    expect(table.out).toMatch(/Notes\s+1\s+1\s+0\s+0/);
  });
});
