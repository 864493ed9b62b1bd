import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { askAndReply, withChatAt } from '../../../../testkit/src/server/chat.js';
import { type TestApp, testDatabases } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import { csvCell, EXPORT_CSV_COLUMNS } from './export.js';

const databases = testDatabases();

/**
 * Three conversations, on 2026-03-01, 03-02 and 03-03 (the test clock): a question the bot answers; a request
 * for a person answered by the owner, whose text needs CSV quoting and starts like a formula; and a greeting.
 */
async function withConversations(
  use: (t: TestApp, ids: string[]) => Promise<void>,
  databaseUrl?: string,
): Promise<void> {
  await withChatAt('2026-03-01T10:00:00.000Z', databaseUrl, async ({ t, api, chat, bot, clock }) => {
    const visitor = await api.user({ name: 'Vera' });
    const ids: string[] = [];
    const first = await api.conversation(visitor);
    ids.push(first);
    await askAndReply({ api, chat, bot }, visitor, first, 'When do you open?', 'At 9.', () => {
      clock.now += 1000;
    });
    clock.now = Date.parse('2026-03-02T10:00:00.000Z');
    const second = await api.conversation(visitor);
    ids.push(second);
    const asked = await api.call('POST', '/messages', {
      key: visitor.key,
      body: { conversationId: second, payload: { type: 'text', text: 'human' } },
    });
    expect(asked.statusCode).toBe(201);
    clock.now += 1000;
    const said = await t.asOwner('POST', `/v1/admin/bots/${t.botId}/conversations/${second}/messages`, {
      payload: { type: 'text', text: '=1+1, "quoted"\nsecond line' },
    });
    expect(said.statusCode, said.body).toBe(201);
    clock.now = Date.parse('2026-03-03T10:00:00.000Z');
    const third = await api.conversation(visitor);
    ids.push(third);
    await api.message(visitor, third, 'Hello');
    await use(t, ids);
  });
}

const exportUrl = (t: TestApp, query: string, conversationId?: string) =>
  `/v1/admin/bots/${t.botId}/conversations/${conversationId ? `${conversationId}/` : ''}export${query}`;

interface Exported {
  botId: string;
  from?: string;
  to?: string;
  conversations: Array<{
    id: string;
    createdAt: string;
    handoff: { state: string };
    messages: Array<{ author: string; text: string; userName?: string; details?: unknown }>;
  }>;
}

describe.each(databases)('conversation exports on $name', ({ url: databaseUrl }) => {
  it('exports the conversations of a period as JSON and CSV, and one conversation, streamed with a file name', async () => {
    await withConversations(async (t, [first, second, third]) => {
      const json = await t.asOwner('GET', exportUrl(t, '?from=2026-03-02&to=2026-03-03T00:00:00Z'));
      expect(json.statusCode, json.body).toBe(200);
      expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(json.headers['content-disposition']).toBe(
        `attachment; filename="conversations-${t.botId}-2026-03-02.json"`,
      );
      const body = json.json() as Exported;
      expect(body).toMatchObject({
        botId: t.botId,
        from: '2026-03-02T00:00:00.000Z',
        to: '2026-03-03T00:00:00.000Z',
      });
      expect(body.conversations.map((c) => c.id)).toEqual([second]);
      const [only] = body.conversations;
      expect(only?.handoff).toMatchObject({
        state: 'assigned',
        firstHumanReplyAt: '2026-03-02T10:00:01.000Z',
      });
      expect(only?.messages.map((m) => [m.author, m.text])).toEqual([
        ['visitor', 'human'],
        ['bot', "I'm getting a person to help you. Please stay here: they will reply in this chat."],
        ['bot', expect.stringContaining("You're now talking to")],
        ['agent', '=1+1, "quoted"\nsecond line'],
      ]);

      // Every conversation, oldest first, as CSV: one row per message, formulas defused, quoting kept.
      const csv = await t.asOwner('GET', exportUrl(t, '?format=csv'));
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      const rows = parse(csv.body, { columns: true }) as Array<Record<string, string>>;
      expect(Object.keys(rows[0] ?? {})).toEqual([...EXPORT_CSV_COLUMNS]);
      expect(rows.map((r) => [r.conversation_id, r.author])).toEqual([
        [first, 'visitor'],
        [first, 'bot'],
        [second, 'visitor'],
        [second, 'bot'],
        [second, 'bot'],
        [second, 'agent'],
        [third, 'visitor'],
      ]);
      expect(rows[1]).toMatchObject({ text: 'At 9.', user_name: expect.any(String) });
      expect(rows[5]?.text).toBe('\'=1+1, "quoted"\nsecond line');
      expect(rows[0]).toMatchObject({
        user_name: 'Vera',
        conversation_created_at: '2026-03-01T10:00:00.000Z',
      });

      const one = await t.asOwner('GET', exportUrl(t, '?format=csv', third));
      expect(one.statusCode, one.body).toBe(200);
      expect(one.headers['content-disposition']).toBe(`attachment; filename="${third}.csv"`);
      expect((parse(one.body, { columns: true }) as unknown[]).length).toBe(1);
      expect(
        ((await t.asOwner('GET', exportUrl(t, '', first))).json() as Exported).conversations,
      ).toHaveLength(1);
    }, databaseUrl);
  });

  it('answers 400 to a bad format or period, 403 to billing, 404 to another workspace or an unknown conversation', async () => {
    await withConversations(async (t) => {
      expectError(await t.asOwner('GET', exportUrl(t, '?format=xml')), 400, 'InvalidQuery');
      expectError(await t.asOwner('GET', exportUrl(t, '?from=yesterday')), 400, 'InvalidQuery');
      expectError(
        await t.asOwner('GET', exportUrl(t, '?from=2026-03-03&to=2026-03-01')),
        400,
        'InvalidQuery',
      );
      expectError(await t.asOwner('GET', exportUrl(t, '', 'conv_nope')), 404, 'ResourceNotFound');
      const other = await t.otherTenant();
      expectError(
        await t.asOwner('GET', `/v1/admin/bots/${other.botId}/conversations/export`),
        404,
        'ResourceNotFound',
      );
      const billing = await t.addMember(
        'billing',
        `bill-${Math.random().toString(36).slice(2, 6)}@example.com`,
      );
      const asBilling = await t.callWith(billing.token, 'GET', exportUrl(t, ''));
      expectError(asBilling, 403, 'Forbidden');
      // A viewer reads conversations, so exports them.
      const viewer = await t.addMember('viewer', `vi-${Math.random().toString(36).slice(2, 6)}@example.com`);
      const asViewer = await t.callWith(viewer.token, 'GET', exportUrl(t, ''));
      expect(asViewer.statusCode).toBe(200);
    }, databaseUrl);
  });
});

describe('csvCell', () => {
  it('quotes commas, quotes and line breaks, and defuses what a spreadsheet would run', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-2+3')).toBe("'-2+3");
  });
});
