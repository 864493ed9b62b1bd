import { afterAll, describe, expect, it } from 'vitest';
import { UseLiteEmbedder } from '../../search/embed/index.js';
import { vectorBytes } from '../../search/index/common.js';
import { botWordings, pickMatch, QA_WORD_BAR, USE_LITE_QA_BAR, wordingTerms } from './matching.js';

/**
 * The measured set the bars come from: five shop entries, four visitor rewordings of each, and twelve questions
 * of the same shop no entry answers (some on a neighbouring topic: shipping cost, password strength). With the
 * shipped USE-lite model the rewordings' best wording scored 0.45–0.93 (cosine) and 0–1 (words); the unrelated
 * questions up to 0.82 ("How much does shipping cost?" against "How long does shipping take?") and 0.33 by words.
 * The bars keep every unrelated question out (a wrong answer is worse than the passages' answer) and answer 6
 * of the 20 rewordings; an entry's team adds the wordings visitors use (Insights lists them) to answer more.
 * To be measured again on the answers benchmark's visitor wordings (bench/).
 */
const ENTRIES = [
  {
    wordings: ['How do I get a refund?', 'Can I have my money back?'],
    rewordings: [
      'I want my money returned',
      'refund please',
      'how can I be refunded for my order',
      'Is it possible to get reimbursed?',
    ],
  },
  {
    wordings: ['How long does shipping take?', 'When will my order arrive?'],
    rewordings: [
      'How many days for delivery?',
      'how fast do you deliver',
      'What is the delivery time?',
      'when does my package get here',
    ],
  },
  {
    wordings: ['How do I reset my password?'],
    rewordings: [
      'I forgot my password',
      'cannot log in, lost password',
      'password reset',
      'How can I change my password?',
    ],
  },
  {
    wordings: ['What are your opening hours?'],
    rewordings: ['When are you open?', 'what time do you open', 'opening times?', 'Are you open on Sunday?'],
  },
  {
    wordings: ['Do you ship internationally?'],
    rewordings: [
      'Can you send orders abroad?',
      'do you deliver outside the country',
      'international shipping?',
      'Do you ship to Canada?',
    ],
  },
];
const UNRELATED = [
  'Can I pay with PayPal?',
  'Do you sell gift cards?',
  'Where is your shop?',
  'How much does shipping cost?',
  'refund for a damaged parcel',
  'Who founded the company?',
  'Is the jacket waterproof?',
  'How do I cancel my subscription?',
  'What sizes do the shoes come in?',
  'Can I change my delivery address?',
  'my password is not secure enough',
  'Do you have a phone number?',
];

describe('the Q&A bars, measured with the shipped USE-lite model', () => {
  const embedder = new UseLiteEmbedder();
  afterAll(() => embedder.close());

  it('answers rewordings with their own entry only, and no unrelated question', async () => {
    const rows = ENTRIES.flatMap((e, i) =>
      e.wordings.map((text) => ({
        entry_id: `qa_${i}`,
        answer: `answer ${i}`,
        text,
        terms: wordingTerms(text).join(' '),
      })),
    );
    const vectors = await embedder.embed(rows.map((r) => r.text));
    const bot = botWordings(
      rows.map((r, i) => ({ ...r, vector: vectorBytes(vectors[i] as Float32Array), model_id: embedder.id })),
      embedder.id,
    );
    const ask = async (question: string) => {
      const [vector] = await embedder.embed([question]);
      return pickMatch(bot, question, vector, USE_LITE_QA_BAR);
    };
    const answered: string[] = [];
    for (const [i, e] of ENTRIES.entries()) {
      for (const question of e.rewordings) {
        const match = await ask(question);
        if (!match) continue;
        expect(match.entryId, question).toBe(`qa_${i}`);
        answered.push(`${question} (${match.by})`);
      }
      for (const wording of e.wordings) expect((await ask(wording))?.entryId).toBe(`qa_${i}`);
    }
    for (const question of UNRELATED) expect(await ask(question), question).toBeUndefined();
    expect(answered).toEqual([
      'refund please (words)',
      'how can I be refunded for my order (words)',
      'password reset (words)',
      'How can I change my password? (meaning)',
      'When are you open? (words)',
      'Do you ship to Canada? (meaning)',
    ]);
  }, 120_000);

  it('matches by words alone without vectors, at the word bar', () => {
    const bot = botWordings(
      [
        {
          entry_id: 'qa_1',
          answer: 'a',
          text: 'How long do refunds take?',
          terms: wordingTerms('How long do refunds take?').join(' '),
          vector: null,
          model_id: null,
        },
      ],
      undefined,
    );
    expect(pickMatch(bot, 'how long does a refund take', undefined, undefined)).toMatchObject({
      entryId: 'qa_1',
      by: 'words',
      score: 1,
      bar: QA_WORD_BAR,
    });
    expect(pickMatch(bot, 'refund for a damaged parcel', undefined, undefined)).toBeUndefined();
    expect(pickMatch(bot, 'HOW LONG do refunds   take?', undefined, undefined)?.score).toBe(1);
  });
});
