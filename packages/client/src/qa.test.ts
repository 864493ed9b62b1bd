import type { BotQaEntry } from '@parley/protocol/operations/io/qa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Parley, startParley } from '../../testkit/src/client/servers.js';
import type { Client } from './client.js';
import { InvalidPayloadError, ResourceNotFoundError } from './errors.js';

describe('the client against the real server: Q&A entries', () => {
  let p: Parley;
  let client: Client;

  beforeAll(async () => {
    p = await startParley();
    client = p.client();
  });
  afterAll(() => p.close());

  it('creates, lists (a page, then every entry), searches, replaces and deletes entries', async () => {
    const made: BotQaEntry[] = [];
    for (let i = 0; i < 3; i++) {
      const { entry } = await client.createQaEntry({
        id: p.botId,
        questions: [`Client question ${i}?`],
        answer: `Client answer ${i}`,
        tags: { n: String(i) },
      });
      made.push(entry);
    }
    const page = await client.listQaEntries({ id: p.botId, pageSize: 2 });
    expect(page.entries.map((e) => e.id)).toEqual(made.slice(0, 2).map((e) => e.id));
    const all: string[] = [];
    for await (const entry of client.listQaEntries({ id: p.botId, pageSize: 2 })) all.push(entry.id);
    expect(all).toEqual(made.map((e) => e.id));
    const found = await client.listQaEntries({ id: p.botId, search: 'ANSWER 1' });
    expect(found.entries.map((e) => e.id)).toEqual([made[1]?.id]);

    const first = made[0] as BotQaEntry;
    const { entry } = await client.updateQaEntry({
      id: p.botId,
      entryId: first.id,
      questions: ['Replaced?'],
      answer: 'Replaced.',
      enabled: false,
    });
    expect(entry).toMatchObject({
      questions: ['Replaced?'],
      answer: 'Replaced.',
      enabled: false,
      tags: { n: '0' },
    });
    expect((await client.getQaEntry({ id: p.botId, entryId: first.id })).entry).toEqual(entry);
    for (const e of made) await client.deleteQaEntry({ id: p.botId, entryId: e.id });
    await expect(client.getQaEntry({ id: p.botId, entryId: first.id })).rejects.toBeInstanceOf(
      ResourceNotFoundError,
    );
    await expect(
      client.createQaEntry({ id: p.botId, questions: ['x?'], answer: '[x](javascript:alert(1))' }),
    ).rejects.toBeInstanceOf(InvalidPayloadError);
  });
});
