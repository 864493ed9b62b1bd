import { afterAll, describe, expect, it } from 'vitest';
import { uploadIndexed } from '../../../../testkit/src/server/files-indexing.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { postgresTestUrl } from '../../../../testkit/src/server/harness.js';
import { ABROAD_ENTRY, qaCalls, REMOTE_WORK_MD } from '../../../../testkit/src/server/qa-calls.js';
import { silentLogger } from '../../logger.js';
import { UseLiteEmbedder } from '../../search/embed/index.js';
import { qaStaleSweep } from './embedding.js';

/** An entry whose only wording shares no word with "how long does a repair take", which its answer meets. */
const REPAIR_ENTRY = {
  questions: ['when do i get my espresso maker back after fixing'],
  answer: 'Repairs usually take **10 working days** from the day the machine reaches our workshop.',
};

/**
 * Entries asked by their answer (issue 34), with the shipped model: a question worded as an entry's answer is
 * answered by it though no wording shares its words; a question of a neighbouring topic close to the answer
 * goes to the passages when they answer it surely with other sentences.
 */
function answerSuite(databaseUrl?: string) {
  const embedder = new UseLiteEmbedder();
  afterAll(() => embedder.close());
  const t = useTestApp({ workers: true, embedder, ...(databaseUrl ? { databaseUrl } : {}) });
  const qa = qaCalls(t);

  it("answers a question worded as an entry's answer (no wording shares its words), and not another intent's", async () => {
    const repair = await qa.createEmbedded(REPAIR_ENTRY);
    await qa.createEmbedded({
      questions: ['how long is the warranty on an espresso machine'],
      answer: 'Every machine and grinder comes with a 2-year warranty from the date of delivery.',
    });
    const preview = await qa.preview('how long does a repair take');
    expect(preview).toMatchObject({
      mode: 'qa',
      text: REPAIR_ENTRY.answer,
    });
    expect(preview.debug).toMatchObject({
      qa: {
        entryId: repair.id,
        by: 'answer',
        wording: 'Repairs usually take 10 working days from the day the machine reaches our workshop.',
      },
    });
    for (const question of ['How long do refunds take?', 'how much does delivery cost'])
      expect((await qa.preview(question)).mode, question).not.toBe('qa');
    // A changed answer is compared instead of the former one: the repair question no longer reaches it.
    const put = await t.asOwner('PUT', `${qa.base()}/${repair.id}`, {
      questions: repair.questions,
      answer: 'Call us on [0800 123](tel:0800123).',
    });
    expect(put.statusCode, put.body).toBe(200);
    await qa.embedded(repair.id);
    expect((await qa.preview('how long does a repair take')).mode).not.toBe('qa');
  }, 120_000);

  it('yields to passages that answer surely with other sentences, and answers what they say with its own', async () => {
    const abroad = await qa.createEmbedded(ABROAD_ENTRY);
    // Without any knowledge, the neighbouring question is closest to this entry's answer.
    const before = await qa.preview('how many days can i work from home');
    expect(before).toMatchObject({ mode: 'qa', debug: { qa: { entryId: abroad.id, by: 'answer' } } });

    await uploadIndexed(t, 'remote.md', REMOTE_WORK_MD);
    const after = await qa.preview('how many days can i work from home');
    expect(after.mode).toBe('passages');
    expect(after.text).toContain('3 days a week');
    expect(after.text).not.toContain('20 working days');
    expect(after.debug).toMatchObject({ qa: { entryId: abroad.id, by: 'answer', yielded: 'passages' } });
    // A question the passages answer with the entry's own sentence: the entry's answer, as the team wrote it.
    const own = await qa.preview('for how long can i work abroad');
    expect(own).toMatchObject({ mode: 'qa', text: ABROAD_ENTRY.answer });
  }, 180_000);

  it("gives an entry saved before answers were compared its answer's sentences at start, then it answers by them", async () => {
    const repair = await qa.createEmbedded(REPAIR_ENTRY);
    // As saved before: its wordings only.
    const answerRows = () =>
      t.db.kysely
        .selectFrom('qa_wordings')
        .select(['position', 'text'])
        .where('entry_id', '=', repair.id)
        .where('position', '<', 0)
        .execute();
    await t.db.kysely
      .deleteFrom('qa_wordings')
      .where('entry_id', '=', repair.id)
      .where('position', '<', 0)
      .execute();
    await t.db.kysely.updateTable('qa_revisions').set({ revision: 1000 }).execute();
    expect((await qa.preview('how long does a repair take')).mode).not.toBe('qa');

    // Two processes starting: the first stores and embeds the sentences, the second finds nothing to do.
    const log = silentLogger;
    expect(await qaStaleSweep({ db: t.db.kysely, embedder }).run({ log })).toMatchObject({ answers: 1 });
    expect(await qaStaleSweep({ db: t.db.kysely, embedder }).run({ log })).toMatchObject({ answers: 0 });
    expect(await answerRows()).toEqual([
      {
        position: -1,
        text: 'Repairs usually take 10 working days from the day the machine reaches our workshop.',
      },
    ]);
    await qa.embedded(repair.id);
    expect(await qa.preview('how long does a repair take')).toMatchObject({
      mode: 'qa',
      debug: { qa: { entryId: repair.id, by: 'answer' } },
    });
  }, 120_000);
}

const pgUrl = postgresTestUrl();
describe('Q&A entries asked by their answer (SQLite)', () => answerSuite());
describe.skipIf(!pgUrl)('Q&A entries asked by their answer (PostgreSQL)', () => answerSuite(pgUrl));
