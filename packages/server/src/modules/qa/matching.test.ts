import { afterAll, describe, expect, it } from 'vitest';
import { UseLiteEmbedder } from '../../search/embed/index.js';
import { vectorBytes } from '../../search/index/common.js';
import {
  answerSentences,
  botWordings,
  pickMatch,
  QA_WORD_BAR,
  qaMeaningBarsFor,
  USE_LITE_QA_ANSWER_BAR,
  type WordingRow,
  wordingTerms,
} from './matching.js';

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
      e.wordings.map((text, position) => ({
        entry_id: `qa_${i}`,
        position,
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
      return pickMatch(bot, question, vector, qaMeaningBarsFor(embedder));
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
          position: 0,
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

/** Three shop entries, each taught with one wording, its answer written as the shop's documents say it. */
const SHOP = [
  {
    wording: 'when do i get my espresso maker back after fixing',
    answer: 'Repairs usually take **10 working days** from the day the machine reaches our workshop.',
  },
  {
    wording: 'how long is the warranty on an espresso machine',
    answer: 'Every machine and grinder comes with a 2-year warranty from the date of delivery.',
  },
  {
    wording: 'how long do i have to send something back',
    answer:
      'You can return any unused item within 30 days of delivery. [Our policy](https://example.com/returns).',
  },
];

describe('an entry asked by its answer, with the shipped USE-lite model', () => {
  const embedder = new UseLiteEmbedder();
  afterAll(() => embedder.close());

  /** The bot's rows as the save stores them: wordings at 0, 1, …, the answer's sentences at -1, -2, …. */
  async function shopBot() {
    const rows = SHOP.flatMap((e, i) => [
      { entry_id: `qa_${i}`, position: 0, answer: e.answer, text: e.wording },
      ...answerSentences(e.answer).map((text, n) => ({
        entry_id: `qa_${i}`,
        position: -1 - n,
        answer: e.answer,
        text,
      })),
    ]);
    const vectors = await embedder.embed(rows.map((r) => r.text));
    return botWordings(
      rows.map(
        (r, i): WordingRow => ({
          ...r,
          terms: wordingTerms(r.text).join(' '),
          vector: vectorBytes(vectors[i] as Float32Array),
          model_id: embedder.id,
        }),
      ),
      embedder.id,
    );
  }

  it('answers a question worded as its answer though no wording shares its words', async () => {
    const bot = await shopBot();
    const question = 'how long does a repair take';
    const [vector] = await embedder.embed([question]);
    const match = pickMatch(bot, question, vector, qaMeaningBarsFor(embedder));
    expect(match).toMatchObject({
      entryId: 'qa_0',
      by: 'answer',
      wording: 'Repairs usually take 10 working days from the day the machine reaches our workshop.',
      bar: USE_LITE_QA_ANSWER_BAR,
    });
    expect(match?.score).toBeGreaterThanOrEqual(USE_LITE_QA_ANSWER_BAR);
    // Without the answer's sentences (an entry saved before, or words alone) the same question finds nothing.
    const wordingsOnly = botWordings(
      (await shopBot()).wordings.map((w, i) => ({
        entry_id: w.entryId,
        position: i,
        answer: w.answer,
        text: w.text,
        terms: [...w.terms].join(' '),
        vector: null,
        model_id: null,
      })),
      undefined,
    );
    expect(pickMatch(wordingsOnly, question, undefined, undefined)).toBeUndefined();
  }, 120_000);

  it('does not answer a question of another intent sharing a word with an answer, nor an unrelated one', async () => {
    const bot = await shopBot();
    for (const question of [
      'How long do refunds take?',
      'do you sell coffee beans',
      'can i pay with paypal',
      'how much does delivery cost',
      'is the grinder any good',
    ]) {
      const [vector] = await embedder.embed([question]);
      expect(pickMatch(bot, question, vector, qaMeaningBarsFor(embedder)), question).toBeUndefined();
    }
  }, 120_000);

  it('reads an answer as sentences of plain text: links by their text, marks dropped, short ones left out', () => {
    expect(
      answerSentences(
        '## Refunds\n\nWrite to [support](mailto:help@example.com) within **30 days**. We pay back.',
      ),
    ).toEqual(['Write to support within 30 days.']);
    // A bare fact names no topic: no sentence of it is compared with questions.
    expect(answerSentences('**30 days**.')).toEqual([]);
    expect(answerSentences('Yes, to 40 countries. We ship every weekday from Hamburg.')).toEqual([
      'We ship every weekday from Hamburg.',
    ]);
  });
});
