import { MAX_QA_QUESTION_CHARS } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, withTestApp } from '../../../../testkit/src/server/admin-calls.js';
import { chatClient } from '../../../../testkit/src/server/chat.js';
import { HANDBOOK, uploadIndexed } from '../../../../testkit/src/server/files-indexing.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { postgresTestUrl, type TestMember } from '../../../../testkit/src/server/harness.js';
import { hashVector } from '../../../../testkit/src/server/hash-vector.js';
import { keptOpen } from '../../../../testkit/src/server/kept-open.js';
import { type Entry, eventually, qaCalls } from '../../../../testkit/src/server/qa-calls.js';
import { badFields, expectError } from '../../../../testkit/src/server/wire.js';
import { UseLiteEmbedder } from '../../search/embed/index.js';
import type { Embedder } from '../../search/types.js';
import { QA_STALE_SWEEP_EVERY_MS } from './embedding.js';
import { answerSentences } from './matching.js';

const REFUND = {
  questions: ['How do I get a refund?', 'Can I have my money back?'],
  answer: 'Write to [support](mailto:help@example.com) within **30 days**: refunds take 5 days.',
  tags: { topic: 'billing' },
};

function qaSuite(databaseUrl?: string) {
  const t = useTestApp({ workers: true, ...(databaseUrl ? { databaseUrl } : {}) });
  const qa = qaCalls(t);
  let viewer: TestMember;
  let developer: TestMember;

  beforeAll(async () => {
    await uploadIndexed(t, 'handbook.md', HANDBOOK);
    viewer = await t.addMember('viewer');
    developer = await t.addMember('developer');
  });

  it('creates, reads, replaces and deletes an entry, each change in the audit trail', async () => {
    const entry = await qa.create(REFUND);
    expect(entry).toMatchObject({ ...REFUND, botId: t.botId, enabled: true, embedded: false });
    expect(entry.id).toMatch(/^qa_/);
    const url = `${qa.base()}/${entry.id}`;
    expect((await t.asOwner('GET', url)).json()).toEqual({ entry });

    const replaced = await t.asOwner('PUT', url, {
      questions: ['  Refund   policy? ', 'refund policy?', 'Money back'],
      answer: 'See [the policy](https://example.com/refunds).',
      enabled: false,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().entry).toMatchObject({
      questions: ['Refund policy?', 'Money back'],
      answer: 'See [the policy](https://example.com/refunds).',
      tags: REFUND.tags,
      enabled: false,
    });

    expect((await t.asOwner('DELETE', url)).json()).toEqual({});
    expectError(await t.asOwner('GET', url), 404, 'ResourceNotFound');
    expectError(await t.asOwner('DELETE', url), 404, 'ResourceNotFound');
    const audit = await t.asOwner('GET', `/v1/admin/workspaces/${t.workspaceId}/audit-records?pageSize=10`);
    const actions = (audit.json() as { records: Array<{ action: string; resourceId: string }> }).records
      .filter((r) => r.resourceId === entry.id)
      .map((r) => r.action);
    expect(actions).toEqual(['DELETE_QA_ENTRY', 'UPDATE_QA_ENTRY', 'CREATE_QA_ENTRY']);
  });

  it('lets a viewer read but not write (403, nothing changed); a developer writes', async () => {
    const entry = await qa.create(REFUND);
    const asViewer = caller(t, viewer.token);
    expect((await asViewer('GET', qa.base())).statusCode).toBe(200);
    expect((await asViewer('GET', `${qa.base()}/${entry.id}`)).json().entry.id).toBe(entry.id);
    expectError(await asViewer('POST', qa.base(), REFUND), 403, 'Forbidden');
    expectError(await asViewer('PUT', `${qa.base()}/${entry.id}`, REFUND), 403, 'Forbidden');
    expectError(await asViewer('DELETE', `${qa.base()}/${entry.id}`), 403, 'Forbidden');
    expect((await t.asOwner('GET', `${qa.base()}/${entry.id}`)).json().entry.answer).toBe(REFUND.answer);

    const asDeveloper = caller(t, developer.token);
    const mine = await qa.create({ questions: ['Developer question?'], answer: 'Yes.' }, asDeveloper);
    expect((await asDeveloper('DELETE', `${qa.base()}/${mine.id}`)).statusCode).toBe(200);
    expect((await t.asOwner('DELETE', `${qa.base()}/${entry.id}`)).statusCode).toBe(200);
  });

  it('refuses bad entries with a 400 naming the field, and stores nothing', async () => {
    const count = async () =>
      ((await t.asOwner('GET', qa.base())).json() as { entries: Entry[] }).entries.length;
    const before = await count();
    const bad: Array<[unknown, string]> = [
      [{ questions: [], answer: 'x' }, 'questions'],
      [{ questions: ['   '], answer: 'x' }, 'questions.0'],
      [{ questions: ['ok?'], answer: '' }, 'answer'],
      [{ questions: ['x'.repeat(MAX_QA_QUESTION_CHARS + 1)], answer: 'x' }, 'questions.0'],
      [{ questions: Array.from({ length: 21 }, (_, i) => `q${i}`), answer: 'x' }, 'questions'],
      [{ questions: ['ok?'], answer: 'a'.repeat(5001) }, 'answer'],
      [{ answer: 'x' }, 'questions'],
    ];
    for (const [body, field] of bad) {
      const res = expectError(await t.asOwner('POST', qa.base(), body), 400, 'InvalidPayload');
      expect(badFields(res).join(' '), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    for (const link of ['javascript:alert(1)', 'data:text/html,x', '/relative', 'ftp://example.com/x']) {
      for (const answer of [
        `[click](${link})`,
        `![img](${link})`,
        `[r]: ${link}\n\n[click][r]`,
        `<a href="${link}">x</a>`,
      ]) {
        const res = expectError(
          await t.asOwner('POST', qa.base(), { questions: ['ok?'], answer }),
          400,
          'InvalidPayload',
        );
        expect(badFields(res)).toEqual(['answer']);
      }
    }
    expectError(
      await t.asOwner('POST', `/v1/admin/bots/${t.botId}/qa`, {
        questions: ['ok?'],
        answer: 'x',
        knowledgeBaseId: 'kb_missing',
      }),
      404,
      'ResourceNotFound',
    );
    expect(await count()).toBe(before);
    expectError(await t.asOwner('GET', `${qa.base()}/qa_missing`), 404, 'ResourceNotFound');
    expectError(await t.asOwner('PUT', `${qa.base()}/qa_missing`, REFUND), 404, 'ResourceNotFound');
    const other = await t.otherTenant();
    expectError(await t.asOwner('GET', `/v1/admin/bots/${other.botId}/qa`), 404, 'ResourceNotFound');
  });

  it('lists in pages, oldest first, and searches wordings, answers and tags (case aside, % taken literally)', async () => {
    const made: Entry[] = [];
    for (let i = 0; i < 5; i++)
      made.push(
        await qa.create({
          questions: [`Paging question ${i}?`],
          answer: `Answer ${i} at 100%`,
          tags: { page: `p${i}` },
        }),
      );
    const first = (await t.asOwner('GET', `${qa.base()}?pageSize=3&search=PAGING`)).json();
    expect(first.entries.map((e: Entry) => e.id)).toEqual(made.slice(0, 3).map((e) => e.id));
    const second = (
      await t.asOwner('GET', `${qa.base()}?pageSize=3&search=paging&nextToken=${first.meta.nextToken}`)
    ).json();
    expect(second.entries.map((e: Entry) => e.id)).toEqual(made.slice(3).map((e) => e.id));
    expect(second.meta).toEqual({});
    const byAnswer = (
      await t.asOwner('GET', `${qa.base()}?search=${encodeURIComponent('answer 3 at 100%')}`)
    ).json();
    expect(byAnswer.entries.map((e: Entry) => e.id)).toEqual([made[3]?.id]);
    const byTag = (await t.asOwner('GET', `${qa.base()}?search=page%3Dp4`)).json();
    expect(byTag.entries.map((e: Entry) => e.id)).toEqual([made[4]?.id]);
    expect((await t.asOwner('GET', `${qa.base()}?search=%25%25%25`)).json().entries).toEqual([]);
    for (const e of made) await t.asOwner('DELETE', `${qa.base()}/${e.id}`);
  });

  it('answers a question close to an entry with its answer before any passage search; not an unrelated one, not a disabled entry', async () => {
    const entry = await qa.create({
      questions: ['How do I get a refund?'],
      answer: 'Refunds: write to [support](mailto:help@example.com).',
    });
    const reworded = await qa.preview('refund please');
    expect(reworded).toMatchObject({ mode: 'qa', text: entry.answer, format: 'markdown', found: true });
    expect(reworded.debug).toMatchObject({ mode: 'qa', qa: { entryId: entry.id, by: 'words' } });
    // The handbook answers this one by its passages, as before.
    const unrelated = await qa.preview('What are the office opening hours?');
    expect(unrelated.mode).not.toBe('qa');
    const put = await t.asOwner('PUT', `${qa.base()}/${entry.id}`, {
      questions: entry.questions,
      answer: entry.answer,
      enabled: false,
    });
    expect(put.statusCode).toBe(200);
    expect((await qa.preview('refund please')).mode).not.toBe('qa');
    await t.asOwner('DELETE', `${qa.base()}/${entry.id}`);
  });
}

/** USE-lite, loaded once for the apps of the suites by meaning (each app's close leaves it open). */
const model = new UseLiteEmbedder();
afterAll(() => model.close());

/** With the shipped model: wordings embedded by the `qa_embed` job after the save, questions matched by meaning. */
function meaningSuite(databaseUrl?: string) {
  const t = useTestApp({
    workers: true,
    embedder: keptOpen(model),
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  const qa = qaCalls(t);

  it('embeds the wordings after the save and answers a question of the same meaning in other words, in the chat too', async () => {
    const entry = await qa.create({
      questions: ['Do you ship internationally?'],
      answer: 'Yes, to 40 countries.',
    });
    expect(entry.embedded).toBe(false);
    await qa.embedded(entry.id);
    const preview = await qa.preview('Do you ship to Canada?');
    expect(preview).toMatchObject({ mode: 'qa', text: 'Yes, to 40 countries.' });
    expect(preview.debug).toMatchObject({
      qa: { entryId: entry.id, by: 'meaning', wording: 'Do you ship internationally?' },
    });
    expect((await qa.preview('Who founded the company?')).mode).not.toBe('qa');

    const chat = chatClient(t);
    const user = await chat.user();
    const conversation = await chat.conversation(user);
    await chat.message(user, conversation, 'Do you ship to Canada?');
    type Message = { isBot: boolean; payload: { markdown?: string }; metadata?: Record<string, unknown> };
    let messages: Message[] = [];
    await eventually(async () => {
      const res = await chat.call('GET', `/conversations/${conversation}/messages`, { key: user.key });
      messages = (res.json() as { messages: Message[] }).messages;
      return messages.some((m) => m.isBot);
    });
    expect(messages.find((m) => m.isBot)).toMatchObject({
      payload: { type: 'markdown', markdown: 'Yes, to 40 countries.' },
      metadata: { answer: { mode: 'qa', entryId: entry.id } },
    });
    const inbox = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/conversations/${conversation}/messages`);
    const transcript = (inbox.json() as { messages: Array<{ author: string; answer?: string }> }).messages;
    expect(transcript.find((m) => m.author === 'bot')?.answer).toBe('qa');
  }, 120_000);
}

/**
 * The periodic sweep: wordings whose vectors are of another model (the embedding model changed) are embedded
 * again with the current one by the next run, on the injected clock, and the entry reads `embedded` again.
 */
async function expectStaleWordingsReembedded(databaseUrl?: string): Promise<void> {
  let now = Date.parse('2026-03-20T08:00:00.000Z');
  const texts: string[] = [];
  const embedder: Embedder = {
    id: 'hash-b',
    dimensions: 64,
    embed: async (batch) => {
      texts.push(...batch);
      return batch.map((text) => hashVector(text, 64));
    },
    close: async () => {},
  };
  await withTestApp(
    async (t) => {
      const qa = qaCalls(t);
      const entry = await qa.create(REFUND);
      // Embedded, and the save's qa_embed job over (so it cannot embed what the test changes next).
      const jobDone = async () =>
        (
          await t.db.kysely
            .selectFrom('jobs')
            .select('status')
            .where('kind', '=', 'qa_embed')
            .where('status', '!=', 'done')
            .execute()
        ).length === 0;
      await eventually(async () => (await qa.isEmbedded(entry.id)) && (await jobDone()));
      // The sweep at start (done or still due) finds nothing stale.
      await t.app.services.runner.tick();
      // As a former model left them: the wordings' vectors are of 'hash-a'.
      await t.db.kysely.updateTable('qa_wordings').set({ model_id: 'hash-a' }).execute();
      expect(await qa.isEmbedded(entry.id)).toBe(false);
      // Not due before its minute is up.
      texts.length = 0;
      await t.app.services.runner.tick();
      expect(texts).toEqual([]);

      now += QA_STALE_SWEEP_EVERY_MS;
      await t.app.services.runner.tick();
      // The wordings and the answer's sentence, of the current model.
      const embeddedTexts = [...REFUND.questions, ...answerSentences(REFUND.answer)];
      expect(texts.sort()).toEqual([...embeddedTexts].sort());
      expect(await qa.isEmbedded(entry.id)).toBe(true);
      const models = await t.db.kysely.selectFrom('qa_wordings').select('model_id').distinct().execute();
      expect(models).toEqual([{ model_id: 'hash-b' }]);
      // Nothing stale is left: the next run embeds nothing.
      now += QA_STALE_SWEEP_EVERY_MS;
      await t.app.services.runner.tick();
      expect(texts).toHaveLength(embeddedTexts.length);
    },
    { workers: true, embedder, clock: () => new Date(now), ...(databaseUrl ? { databaseUrl } : {}) },
  );
}

describe('Q&A entries (SQLite)', () => qaSuite());
describe('Q&A wordings of another model (SQLite)', () => {
  it('are embedded again by the periodic sweep', () => expectStaleWordingsReembedded(), 60_000);
});
describe('Q&A entries by meaning (SQLite)', () => meaningSuite());
const pgUrl = postgresTestUrl();
describe.skipIf(!pgUrl)('Q&A entries (PostgreSQL)', () => qaSuite(pgUrl));
describe.skipIf(!pgUrl)('Q&A wordings of another model (PostgreSQL)', () => {
  it('are embedded again by the periodic sweep', () => expectStaleWordingsReembedded(pgUrl), 60_000);
});
describe.skipIf(!pgUrl)('Q&A entries by meaning (PostgreSQL)', () => meaningSuite(pgUrl));
