import { describe, expect, it } from 'vitest';
import { chatClient } from '../../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { ApiError } from '../../errors/errors.js';
import { safeFileName } from './files.js';
import { chatPage, checkPayloadSize, signalTo } from './records.js';

describe('chat service', () => {
  const t = useTestApp();

  it('keeps working when its methods are destructured off the service', async () => {
    const { authenticate, updateUser, getUser } = t.app.services.chat;
    const alice = await chatClient(t).user({ name: 'Alice' });
    const caller = await authenticate(t.botId, { userKey: alice.key });
    const updated = await updateUser(caller, { name: 'Alice B.' });
    expect(updated).toMatchObject({ id: alice.id, name: 'Alice B.' });
    expect(await getUser(caller)).toEqual(updated);
  });
});

describe('chat helpers', () => {
  it('pages rows in the order asked and hands out a token for the next page', async () => {
    const rows = [1, 2, 3, 4, 5].map((n) => ({ n, id: `r${n}` }));
    const order = {
      sort: 'n:asc',
      key: (r: { n: number; id: string }) => [r.n, r.id] as [number, string],
      wire: (r: { id: string }) => r.id,
    };
    const read = async (q: { limit: number; after: { value: string | number } | undefined }) =>
      rows.filter((r) => q.after === undefined || r.n > Number(q.after.value)).slice(0, q.limit + 1);
    const first = await chatPage({ pageSize: 2 }, order, read);
    expect(first.items).toEqual(['r1', 'r2']);
    const second = await chatPage({ pageSize: 2, nextToken: first.nextToken }, order, read);
    expect(second.items).toEqual(['r3', 'r4']);
    const last = await chatPage({ pageSize: 2, nextToken: second.nextToken }, order, read);
    expect(last).toEqual({ items: ['r5'] });
  });

  it('refuses a value over 128 KB as JSON, naming what it is', () => {
    expect(() => checkPayloadSize('event payload', { text: 'x'.repeat(200_000) })).toThrow(ApiError);
    expect(() => checkPayloadSize('event payload', { text: 'x'.repeat(200_000) })).toThrow(/event payload/);
    expect(() => checkPayloadSize('event payload', { text: 'hello' })).not.toThrow();
  });

  it('makes signals every stream of the conversation receives', () => {
    const signal = { type: 'conversation_deleted' as const, data: { conversationId: 'c1' } };
    expect(signalTo('c1', signal)).toEqual({ conversationId: 'c1', signal, adminOnly: false });
  });

  it('keeps chat file names to one safe key segment', () => {
    expect(safeFileName('a/b\\c\u0000d.txt')).toBe('a_b_c_d.txt');
    expect(safeFileName('..')).toBe('_');
    expect(safeFileName('')).toBe('file');
    expect(safeFileName('x'.repeat(300))).toHaveLength(200);
  });
});
