import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@parley/client';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type GeneratedDocument,
  listeningApp,
  parley,
  writeDocuments,
} from '../../testkit/src/server/cli.js';
import { useTempDirs } from '../../testkit/src/server/temp-dirs.js';
import { eventually } from '../../testkit/src/shared/eventually.js';

const tempDir = useTempDirs('parley-bots-');
type App = Awaited<ReturnType<typeof listeningApp>>;

describe('parley bots export and import (another Parley, over HTTP)', () => {
  let source: App;
  let target: App;
  let dir: string;
  let docs: GeneratedDocument[];
  let archive: string;
  let targetEnv: Record<string, string>;
  const sourceEnv = () => ({ ...source.env, PARLEY_WORKSPACE_ID: source.workspaceId });
  const client = (app: App, botId?: string) =>
    new Client({
      apiUrl: app.apiUrl,
      token: app.owner.token,
      workspaceId: app.workspaceId,
      botId,
      retry: { attempts: 1 },
    });

  beforeAll(async () => {
    source = await listeningApp();
    target = await listeningApp();
    targetEnv = {
      PARLEY_API_URL: target.apiUrl,
      PARLEY_TOKEN: target.owner.token,
      PARLEY_WORKSPACE_ID: target.workspaceId,
    };
    dir = await tempDir();
    docs = await writeDocuments(dir, 1);
    expect((await parley(['kb', 'create', 'Guides'], source.env)).code).toBe(0);
    const up = await parley(
      ['files', 'upload', dir, '--kb', 'Guides', '--tags', 'team=ops', '--public'],
      source.env,
    );
    expect(up.code).toBe(0);
    await client(source).updateBotWebchat({
      id: source.botId,
      configuration: { botName: 'Otter help', color: '#3276EA', greeting: 'Hello from the otters' },
    });
    await client(source).updateBot({
      id: source.botId,
      name: 'Otter bot',
      description: 'Answers otter questions',
      sourceLinks: 'none',
      replies: { notFound: 'No otter facts on that. Ask [the keeper](mailto:keeper@example.com).' },
    });
    const [guides] = await client(source, source.botId).list.knowledgeBases().collect();
    await client(source).createQaEntry({
      id: source.botId,
      questions: ['Do otters hold hands?', 'Why do otters hold paws?'],
      answer: 'Yes, [while they sleep](https://example.com/otters).',
      tags: { topic: 'otters' },
      enabled: false,
      ...(guides ? { knowledgeBaseId: guides.id } : {}),
    });
    archive = join(await tempDir(), 'bot.tar.gz');
  });
  afterAll(async () => {
    await source.close();
    await target.close();
  });

  it('exports the settings, the webchat configuration, the knowledge bases and every file with its bytes and passages', async () => {
    const run = await parley(['bots', 'export', '-o', archive], sourceEnv());
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(
      /^Exported bot \S+ to .*bot\.tar\.gz: 3 file\(s\) \([\d.]+ kB\), 1 knowledge base\(s\), 1 Q&A entry\n$/,
    );
    const names: string[] = [];
    const modes = new Map<string, number>();
    await tar.list({
      file: archive,
      onReadEntry: (e) => {
        names.push(e.path);
        modes.set(e.path, (e.mode ?? 0) & 0o7777);
      },
    });
    // The archive and every entry are private: files 0600, folders 0700.
    expect((await stat(archive)).mode & 0o777).toBe(0o600);
    expect([...modes].filter(([path, mode]) => mode !== (path.endsWith('/') ? 0o700 : 0o600))).toEqual([]);
    expect(names).toContain('bot.json');
    expect(names.filter((n) => /^files\/\d+$/.test(n))).toHaveLength(3);
    expect(names.filter((n) => /^passages\/\d+\.json$/.test(n))).toHaveLength(3);
  });

  it('imports it as a new bot of another workspace on another Parley: same settings, files byte-identical, tags, policies and links kept, indexed and searchable', async () => {
    const run = await parley(['bots', 'import', archive, '--json'], targetEnv);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const made = JSON.parse(run.out) as {
      botId: string;
      files: Record<string, string>;
      knowledgeBases: Record<string, string>;
    };
    expect(made.botId).not.toBe(source.botId);
    expect(Object.keys(made.files)).toHaveLength(3);
    const admin = client(target);
    const { bot } = await admin.getBot({ id: made.botId });
    expect(bot).toMatchObject({
      name: 'Otter bot',
      description: 'Answers otter questions',
      workspaceId: target.workspaceId,
      sourceLinks: 'none',
      replies: { notFound: 'No otter facts on that. Ask [the keeper](mailto:keeper@example.com).' },
    });
    expect((await admin.getBotWebchat({ id: made.botId })).configuration).toMatchObject({
      botName: 'Otter help',
      color: '#3276EA',
      greeting: 'Hello from the otters',
    });
    const onBot = client(target, made.botId);
    const [kb] = await onBot.list.knowledgeBases().collect();
    expect(kb).toMatchObject({ name: 'Guides', files: { total: 3 } });
    expect(Object.values(made.knowledgeBases)).toEqual([kb?.id]);
    const { entries } = await admin.listQaEntries({ id: made.botId });
    expect(entries).toEqual([
      expect.objectContaining({
        questions: ['Do otters hold hands?', 'Why do otters hold paws?'],
        answer: 'Yes, [while they sleep](https://example.com/otters).',
        tags: { topic: 'otters' },
        enabled: false,
        knowledgeBaseId: kb?.id,
      }),
    ]);
    const env = { ...targetEnv, PARLEY_BOT_ID: made.botId };
    await eventually(
      async () => (await onBot.listFiles({ status: ['indexing_completed'] })).files.length === 3,
      120_000,
      200,
    );
    for (const doc of docs) {
      const { file } = await onBot.getFile({ id: doc.name });
      expect(file).toMatchObject({ tags: { team: 'ops' }, accessPolicies: ['public_content'] });
      const out = join(await tempDir(), 'copy');
      expect((await parley(['files', 'download', doc.name, '-o', out], env)).code).toBe(0);
      expect(await readFile(out)).toEqual(await readFile(join(dir, doc.name)));
      const found = JSON.parse((await parley(['search', doc.word, '--json'], env)).out);
      expect(found.passages[0]?.file.key).toBe(doc.name);
    }
  });

  it('carries the passages with --carry-passages instead of extracting the files again', async () => {
    const run = await parley(
      ['bots', 'import', archive, '--name', 'Otter copy', '--carry-passages', '--json'],
      targetEnv,
    );
    expect(run.code).toBe(0);
    const made = JSON.parse(run.out) as { botId: string; carried: number };
    expect(made.carried).toBe(3);
    const onBot = client(target, made.botId);
    const from = client(source, source.botId);
    await eventually(
      async () => (await onBot.listFiles({ status: ['indexing_completed'] })).files.length === 3,
      120_000,
      200,
    );
    for (const doc of docs) {
      const copied = (await onBot.list.filePassages({ id: doc.name }).collect()).map((p) => p.content);
      const original = (await from.list.filePassages({ id: doc.name }).collect()).map((p) => p.content);
      expect(copied).toEqual(original);
    }
    expect((await client(target).getBot({ id: made.botId })).bot.name).toBe('Otter copy');
  });

  it('refuses an archive that is not a bot export, and needs a workspace to import into', async () => {
    const work = await tempDir();
    await writeFile(join(work, 'x.txt'), 'x');
    const foreign = join(work, 'foreign.tar.gz');
    await tar.create({ gzip: true, file: foreign, cwd: work }, ['x.txt']);
    const run = await parley(['bots', 'import', foreign], targetEnv);
    expect(run).toMatchObject({
      code: 1,
      err: `error: ${foreign} is not a Parley bot export (no bot.json); parley bots export writes one\n`,
    });
    const noWorkspace = await parley(['bots', 'import', archive], {
      ...targetEnv,
      PARLEY_WORKSPACE_ID: undefined,
    });
    expect(noWorkspace).toMatchObject({
      code: 2,
      err: 'error: no workspace: pass --workspace or set PARLEY_WORKSPACE_ID\n',
    });
    const unknownBot = await parley(
      ['bots', 'export', '--bot', 'bot_nope', '-o', join(work, 'b.tar.gz')],
      sourceEnv(),
    );
    expect(unknownBot.code).toBe(1);
    expect(unknownBot.err).toMatch(/^error: (ResourceNotFound|Forbidden): /);
  });
});
