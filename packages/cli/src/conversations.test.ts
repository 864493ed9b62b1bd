import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatClient } from '../../testkit/src/server/chat.js';
import { listeningApp, parley } from '../../testkit/src/server/cli.js';
import { useTempDirs } from '../../testkit/src/server/temp-dirs.js';

const tempDir = useTempDirs('parley-conversations-cli-');

describe('parley conversations export (over HTTP)', () => {
  let app: Awaited<ReturnType<typeof listeningApp>>;
  let conversationId: string;
  const env = () => ({ ...app.env, PARLEY_WORKSPACE_ID: app.workspaceId });

  beforeAll(async () => {
    app = await listeningApp({ workers: false });
    const chat = chatClient(app);
    const visitor = await chat.user({ name: 'Vera' });
    conversationId = await chat.conversation(visitor);
    await chat.message(visitor, conversationId, 'Where is my parcel, please?');
  });
  afterAll(() => app.close());

  it('writes the conversations of a period as CSV to standard output, and as JSON to a file', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const csv = await parley(['conversations', 'export', '--format', 'csv', '--from', today], env());
    expect(csv.err).toBe('');
    expect(csv.code).toBe(0);
    const lines = csv.out.trim().split('\r\n');
    expect(lines[0]).toBe(
      'conversation_id,conversation_created_at,message_id,created_at,author,user_name,answer,text',
    );
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([conversationId]);
    expect(lines[1]).toContain(',visitor,Vera,,"Where is my parcel, please?"');

    const none = await parley(['conversations', 'export', '--format', 'csv', '--to', '2000-01-01'], env());
    expect(none.out.trim().split('\r\n')).toHaveLength(1);

    const file = join(await tempDir(), 'all.json');
    const written = await parley(['conversations', 'export', '-o', file], env());
    expect(written.code).toBe(0);
    expect(written.err).toBe(`Exported to ${file}\n`);
    const exported = JSON.parse(await readFile(file, 'utf8')) as { conversations: Array<{ id: string }> };
    expect(exported.conversations.map((c) => c.id)).toEqual([conversationId]);
  });

  it('fails with one clear line for a bad format, a bad period or an unknown conversation', async () => {
    const format = await parley(['conversations', 'export', '--format', 'xml'], env());
    expect(format.code).toBe(1);
    expect(format.err).toContain('--format is csv or json, not "xml"');
    const period = await parley(['conversations', 'export', '--from', 'soon'], env());
    expect(period.code).toBe(1);
    expect(period.err).toContain('InvalidQuery');
    const unknown = await parley(['conversations', 'export', '--conversation', 'conv_nope'], env());
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('ResourceNotFound');
  });
});
