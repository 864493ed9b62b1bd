import type { InboxConversation } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botReplyTo, chatClient } from '../../../../testkit/src/server/chat.js';
import { uploadIndexed } from '../../../../testkit/src/server/files-indexing.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { postgresTestUrl } from '../../../../testkit/src/server/harness.js';
import { ABROAD_ENTRY, qaCalls, REMOTE_WORK_MD } from '../../../../testkit/src/server/qa-calls.js';
import { UseLiteEmbedder } from '../../search/embed/index.js';

type Listed = InboxConversation & { answeredByEntry?: { entryId: string; question: string } };

/**
 * The inbox's "Answered by a Q&A entry since" mark (issue 34) says what a reply would do: an entry found by its
 * answer alone marks a question only when the passages do not answer it surely with other sentences.
 */
function markSuite(databaseUrl?: string) {
  const embedder = new UseLiteEmbedder();
  afterAll(() => embedder.close());
  const t = useTestApp({ workers: true, embedder, ...(databaseUrl ? { databaseUrl } : {}) });
  const qa = qaCalls(t);
  const conv = { home: '', abroad: '' };

  const marks = async () => {
    const res = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/conversations`);
    expect(res.statusCode, res.body).toBe(200);
    const listed = (res.json() as { conversations: Listed[] }).conversations;
    return Object.fromEntries(listed.map((c) => [c.id, c.answeredByEntry?.entryId]));
  };

  beforeAll(async () => {
    const chat = chatClient(t);
    const visitor = await chat.user();
    conv.home = await chat.conversation(visitor);
    conv.abroad = await chat.conversation(visitor);
    // No knowledge and no entry yet: both questions go unanswered.
    for (const [id, text] of [
      [conv.home, 'how many days can i work from home'],
      [conv.abroad, 'for how long can i work abroad'],
    ] as const)
      await botReplyTo(chat, visitor, id, { type: 'text', text });
    const res = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/conversations?unanswered=true`);
    const unanswered = (res.json() as { conversations: Listed[] }).conversations.map((c) => c.id);
    expect(unanswered.sort()).toEqual([conv.home, conv.abroad].sort());
  }, 120_000);

  it('drops the mark of an entry found by its answer once the passages answer the question with other sentences', async () => {
    const entry = await qa.createEmbedded(ABROAD_ENTRY);
    // Without knowledge a reply answers both with the entry (the first by its answer): both are marked.
    expect(await qa.preview('how many days can i work from home')).toMatchObject({
      mode: 'qa',
      debug: { qa: { by: 'answer' } },
    });
    expect(await marks()).toEqual({ [conv.home]: entry.id, [conv.abroad]: entry.id });

    await uploadIndexed(t, 'remote.md', REMOTE_WORK_MD);
    // Now a reply answers the first with the passages ('3 days a week') and the second still with the entry.
    expect(await qa.preview('how many days can i work from home')).toMatchObject({
      mode: 'passages',
      debug: { qa: { entryId: entry.id, yielded: 'passages' } },
    });
    expect((await qa.preview('for how long can i work abroad')).mode).toBe('qa');
    expect(await marks()).toEqual({ [conv.home]: undefined, [conv.abroad]: entry.id });
  }, 180_000);
}

const pgUrl = postgresTestUrl();
describe('Inbox mark of entries found by their answer (SQLite)', () => markSuite());
describe.skipIf(!pgUrl)('Inbox mark of entries found by their answer (PostgreSQL)', () => markSuite(pgUrl));
