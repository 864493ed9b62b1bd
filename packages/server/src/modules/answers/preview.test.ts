import { beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../testkit/src/server/admin-calls.js';
import { HANDBOOK, uploadIndexed } from '../../../../testkit/src/server/files-indexing.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import type { TestMember } from '../../../../testkit/src/server/harness.js';
import { badFields, expectError } from '../../../../testkit/src/server/wire.js';
import { NO_ANSWER_ENGINE_TEXT } from '../chat/contract.js';
import { NOT_FOUND_TEXT } from './format.js';

/** The Admin API's answer preview: the bot's own knowledge answer to a question, nothing stored. */
describe('POST /v1/admin/bots/{id}/answer-preview', () => {
  const t = useTestApp({ workers: true });
  let handbookId: string;
  let viewer: TestMember;
  let billing: TestMember;
  const url = () => `/v1/admin/bots/${t.botId}/answer-preview`;
  const rows = async (table: 'chat_messages' | 'chat_conversations') =>
    Number(
      (
        await t.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    handbookId = await uploadIndexed(t, 'handbook.md', HANDBOOK);
    viewer = await t.addMember('viewer');
    billing = await t.addMember('billing');
  });

  it("answers the bot's reply with its sources, and stores no conversation or message", async () => {
    const before = [await rows('chat_conversations'), await rows('chat_messages')];
    const res = await t.asOwner('POST', url(), { question: 'How long do I have to ask for a refund?' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ found: true, mode: 'passages', format: 'markdown', replyMode: 'knowledge' });
    expect(body.text).toContain('within 30 days');
    expect(body.sources[0]).toMatchObject({
      fileId: handbookId,
      key: 'handbook.md',
      score: expect.any(Number),
    });
    expect(body.debug).toMatchObject({ query: 'How long do I have to ask for a refund?' });
    expect([await rows('chat_conversations'), await rows('chat_messages')]).toEqual(before);
  });

  it('names, in the debug details, the words of each passage as written there that the question holds', async () => {
    const res = await t.asOwner('POST', url(), { question: 'How long do refunds take?' });
    const passages = res.json().debug.passages as Array<{ matchedTerms: string[]; matchedWords: string[] }>;
    const refunds = passages.find((p) => p.matchedTerms.includes('refund'));
    // "refund" and "Refunds" in the passage, both of the stem "refund"; "long" is a question-form word.
    expect(refunds?.matchedWords).toEqual(['refund', 'Refunds']);
    for (const p of passages) expect(p.matchedWords.length === 0).toBe(p.matchedTerms.length === 0);
  });

  it("shows the sources as the bot's sourceLinks setting links them: the private file named only by default", async () => {
    const ask = async () =>
      (await t.asOwner('POST', url(), { question: 'How long do I have to ask for a refund?' })).json() as {
        text: string;
      };
    const named = await ask();
    expect(named.text).toMatch(/— Parley handbook$/);
    expect(named.text).not.toMatch(/https?:/);
    const set = (sourceLinks: string) => t.asOwner('PUT', `/v1/admin/bots/${t.botId}`, { sourceLinks });
    expect((await set('all')).statusCode).toBe(200);
    try {
      const linked = await ask();
      expect(linked.text).toMatch(
        new RegExp(`— \\[Parley handbook\\]\\(http://[^)]+/v1/files/${handbookId}/content\\?[^)]+\\)$`),
      );
    } finally {
      expect((await set('public')).statusCode).toBe(200);
    }
  });

  it('answers the honest not-found reply to a question the documents do not answer', async () => {
    const res = await t.asOwner('POST', url(), { question: 'What colour is the CEO’s bicycle?' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ found: false, mode: 'not_found', text: NOT_FOUND_TEXT, sources: [] });
  });

  it('lets a viewer preview (reading the bot is enough) and refuses billing (403), who reads no bot', async () => {
    const ask = { question: 'refund' };
    const seen = await caller(t, viewer.token)('POST', url(), ask);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().found).toBe(true);
    expectError(await caller(t, billing.token)('POST', url(), ask), 403, 'Forbidden');
  });

  it('answers 404 for an unknown bot', async () => {
    const res = await t.asOwner('POST', '/v1/admin/bots/bot_nope/answer-preview', { question: 'refund' });
    expectError(res, 404, 'ResourceNotFound');
  });

  it('answers 400 naming the question when it is empty, blank or missing', async () => {
    for (const body of [{ question: '' }, { question: '   ' }, {}]) {
      const res = await t.asOwner('POST', url(), body);
      expect(badFields(expectError(res, 400, 'InvalidPayload'))).toContain('question');
    }
  });

  it('answers 401 without credentials', async () => {
    const res = await t.call({
      method: 'POST',
      url: url(),
      workspaceId: t.workspaceId,
      body: { question: 'refund' },
    });
    expectError(res, 401, 'Unauthorized');
  });
});

describe('answer preview without an answer engine', () => {
  const t = useTestApp({ responder: null });

  it('answers what the bot says in a conversation: that it has no answer engine', async () => {
    const res = await t.asOwner('POST', `/v1/admin/bots/${t.botId}/answer-preview`, { question: 'refund' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ found: false, mode: 'no_engine', text: NO_ANSWER_ENGINE_TEXT });
  });
});
