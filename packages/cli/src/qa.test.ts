import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningApp, parley } from '../../testkit/src/server/cli.js';
import { useTempDirs } from '../../testkit/src/server/temp-dirs.js';

const tempDir = useTempDirs('parley-qa-cli-');

describe('parley qa list|add|rm|import|export (over HTTP)', () => {
  let app: Awaited<ReturnType<typeof listeningApp>>;
  const env = () => ({ ...app.env, PARLEY_WORKSPACE_ID: app.workspaceId });
  const entries = async () => {
    const client = new Client({ apiUrl: app.apiUrl, token: app.owner.token, workspaceId: app.workspaceId });
    return client.listQaEntries({ id: app.botId, pageSize: 100 }).collect();
  };

  beforeAll(async () => {
    app = await listeningApp();
  });
  afterAll(() => app.close());

  it('adds an entry, lists it, and deletes it', async () => {
    const added = await parley(
      [
        'qa',
        'add',
        '-q',
        'How do I get a refund?',
        '-q',
        'Money back?',
        '-a',
        'Within **30 days**.',
        '--tags',
        'topic=billing',
        '--json',
      ],
      env(),
    );
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    const { entry } = JSON.parse(added.out) as { entry: { id: string } };
    expect(await entries()).toEqual([
      expect.objectContaining({
        id: entry.id,
        questions: ['How do I get a refund?', 'Money back?'],
        tags: { topic: 'billing' },
      }),
    ]);
    const list = await parley(['qa', 'list'], env());
    expect(list.out).toMatch(
      new RegExp(
        `^ID +ENABLED +QUESTIONS +ANSWER\\n${entry.id} +yes +How do I get a refund\\? \\(\\+1\\) +Within \\*\\*30 days\\*\\*\\.\\n$`,
      ),
    );
    const bad = await parley(['qa', 'add', '-q', 'x?', '-a', '[x](javascript:alert(1))'], env());
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('InvalidPayload');
    expect((await parley(['qa', 'rm', entry.id], env())).out).toBe(`deleted ${entry.id}\n`);
    expect(await entries()).toEqual([]);
  });

  it('imports CSV with a summary (a refused row named, the others in), exports CSV and JSON, and imports an export back as updates', async () => {
    const dir = await tempDir();
    const csv = join(dir, 'entries.csv');
    await writeFile(
      csv,
      [
        'questions,answer,tags,enabled',
        '"Where are you?\nYour address?","Our shop: 1 Main St, [map](https://example.com/map)",place=shop;team=front,true',
        'Opening hours?,"9 to 5, ""weekdays""",,false',
        'Bad link?,[x](javascript:alert(1)),,',
      ].join('\n'),
    );
    const run = await parley(['qa', 'import', csv], env());
    expect(run.code).toBe(1);
    expect(run.out).toMatch(
      /^Imported .*entries\.csv: 2 added, 0 updated, 1 failed\n {2}entry 3: InvalidPayload: /,
    );
    expect(run.err).toContain('1 of 3 entries were not imported');
    const made = await entries();
    expect(made).toEqual([
      expect.objectContaining({
        questions: ['Where are you?', 'Your address?'],
        answer: 'Our shop: 1 Main St, [map](https://example.com/map)',
        tags: { place: 'shop', team: 'front' },
        enabled: true,
      }),
      expect.objectContaining({
        questions: ['Opening hours?'],
        answer: '9 to 5, "weekdays"',
        enabled: false,
      }),
    ]);

    const outCsv = join(dir, 'out.csv');
    expect((await parley(['qa', 'export', '-o', outCsv], env())).out).toBe(
      `Exported 2 entries to ${outCsv}\n`,
    );
    const exported = await readFile(outCsv, 'utf8');
    expect(exported.split('\r\n')[0]).toBe('id,questions,answer,tags,enabled');
    expect(exported).toContain(`${made[1]?.id},Opening hours?,"9 to 5, ""weekdays""",,false`);

    const json = JSON.parse((await parley(['qa', 'export', '--format', 'json'], env())).out) as {
      entries: Array<{ id: string; answer: string }>;
    };
    expect(json.entries.map((e) => e.id)).toEqual(made.map((e) => e.id));
    const outJson = join(dir, 'out.json');
    json.entries[1] = { ...(json.entries[1] as { id: string; answer: string }), answer: 'Changed.' };
    await writeFile(outJson, JSON.stringify(json));
    const again = await parley(['qa', 'import', outJson, '--json'], env());
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toEqual({ added: 0, updated: 2, failed: [] });
    expect((await entries()).map((e) => e.answer)).toEqual([made[0]?.answer, 'Changed.']);
    // The CSV export imports back as updates too.
    expect(JSON.parse((await parley(['qa', 'import', outCsv, '--json'], env())).out)).toEqual({
      added: 0,
      updated: 2,
      failed: [],
    });
    expect((await entries()).map((e) => e.answer)).toEqual([made[0]?.answer, made[1]?.answer]);
  });
});
