import { describe, expect, it } from 'vitest';
import type { BotReply, ReplyChoice } from '../lib/chat-ask.js';
import { documentBytes, KNOWLEDGE_BASES } from './documents.js';
import { questionsOf } from './questions.js';
import { reportRows, scoreQuestion } from './score.js';
import { type VisitorQuestion, visitorSet } from './set.js';
import { flat, sharedWords } from './wording.js';

const set = visitorSet();
const answerable = set.questions.filter((q) => q.answer !== null);
const unanswerable = set.questions.filter((q) => q.answer === null);

describe('the visitor set (issue 33) holds its own invariants', () => {
  it('has at least 150 questions over four knowledge bases of 5 to 12 documents in all five formats', () => {
    expect(set.questions.length).toBeGreaterThanOrEqual(150);
    expect(new Set(set.questions.map((q) => q.kb))).toEqual(new Set(KNOWLEDGE_BASES));
    for (const kb of KNOWLEDGE_BASES) {
      const docs = set.documents.filter((d) => d.kb === kb);
      expect(docs.length, kb).toBeGreaterThanOrEqual(5);
      expect(docs.length, kb).toBeLessThanOrEqual(12);
      expect(new Set(docs.map((d) => d.format)), kb).toEqual(
        new Set(['markdown', 'faq', 'csv', 'pdf', 'docx']),
      );
    }
  });

  it('has at least half of its answerable questions sharing no content word with their answer', () => {
    const paraphrases = answerable.filter((q) => q.wording === 'paraphrase');
    expect(paraphrases.length * 2).toBeGreaterThanOrEqual(answerable.length);
    for (const q of answerable) expect(q.wording === 'paraphrase', q.text).toBe(q.shared.length === 0);
  });

  it('has at least one question in five that no document answers, in every knowledge base', () => {
    expect(unanswerable.length * 5).toBeGreaterThanOrEqual(set.questions.length);
    for (const kb of KNOWLEDGE_BASES)
      expect(
        unanswerable.some((q) => q.kb === kb),
        kb,
      ).toBe(true);
  });

  it('names for each answerable question a document of its knowledge base, one of its headings, and facts its text holds', () => {
    for (const q of answerable) {
      const expected = q.answer;
      const doc = set.documents.find((d) => d.kb === q.kb && d.key === expected?.source);
      expect(doc, `${q.id} ${expected?.source}`).toBeDefined();
      expect(doc?.headings, `${q.id} topic`).toContain(expected?.topic);
      expect(expected?.facts.length, q.id).toBeGreaterThan(0);
      for (const fact of expected?.facts ?? [])
        expect(flat(doc?.text ?? ''), `${q.id} ${fact}`).toContain(flat(fact));
      expect(q.answerSentences.length, q.id).toBeGreaterThan(0);
    }
  });

  it('asks each question once per knowledge base and splits every knowledge base into two halves', () => {
    const texts = set.questions.map((q) => `${q.kb} ${flat(q.text)}`);
    expect(new Set(texts).size).toBe(texts.length);
    for (const kb of KNOWLEDGE_BASES)
      for (const group of [answerable, unanswerable]) {
        const own = group.filter((q) => q.kb === kb);
        const tune = own.filter((q) => q.split === 'tune').length;
        expect(tune - (own.length - tune), kb).toBeGreaterThanOrEqual(0);
        expect(tune - (own.length - tune), kb).toBeLessThanOrEqual(1);
      }
    expect(visitorSet().questions.map((q) => q.split)).toEqual(set.questions.map((q) => q.split));
  });

  it('draws PDFs with hard line breaks and DOCX files whose extracted text still holds every expected fact', async () => {
    const { extractText, getDocumentProxy } = await import('unpdf');
    const mammoth = await import('mammoth');
    for (const doc of set.documents.filter((d) => d.format === 'pdf' || d.format === 'docx')) {
      const bytes = await documentBytes(doc);
      let text: string;
      if (doc.format === 'pdf') {
        expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        const pdf = await getDocumentProxy(new Uint8Array(bytes));
        const pages = (await extractText(pdf, { mergePages: false })).text as string[];
        expect(pages.length, doc.key).toBe(doc.sectioned?.parts.length);
        text = pages.join('\n');
        // Hard-wrapped: some paragraph of the source runs over several lines of the page.
        expect(text.split('\n').length, doc.key).toBeGreaterThan(doc.text.split('\n\n').length);
      } else {
        expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
        text = (await mammoth.extractRawText({ buffer: bytes })).value;
      }
      for (const q of answerable.filter((x) => x.kb === doc.kb && x.answer?.source === doc.key))
        for (const fact of q.answer?.facts ?? [])
          expect(flat(text), `${doc.key}: ${fact}`).toContain(flat(fact));
    }
  });
});

describe('reading questions.json', () => {
  it('takes a question with text alone as unanswerable and one with source, topic and facts as answerable', () => {
    const questions = questionsOf({
      shop: [
        { text: 'do you ship to mars' },
        { text: 'refund time', source: 'r.md', topic: 'Refunds', facts: ['5 days'] },
      ],
    });
    expect(questions).toEqual([
      { kb: 'shop', text: 'do you ship to mars', answer: null },
      { kb: 'shop', text: 'refund time', answer: { source: 'r.md', topic: 'Refunds', facts: ['5 days'] } },
    ]);
  });

  it.each([
    [{ text: '' }, 'a shop question without text'],
    [
      { text: 'refund time', source: 'r.md' },
      '"refund time" needs a source, a topic and facts, or none of them',
    ],
    [{ text: 'refund time', source: 'r.md', topic: 'Refunds', facts: [] }, '"refund time" needs a source'],
  ])('refuses %o', (record, message) => {
    expect(() => questionsOf({ shop: [record] })).toThrow(message);
  });
});

describe('the wording check', () => {
  it('finds no shared content word where a visitor words it differently', () => {
    expect(
      sharedWords('How do I get my money back?', 'You can return any unused item within 30 days.'),
    ).toEqual([]);
    expect(sharedWords('do you take amex', 'You can pay by Visa, Mastercard or American Express.')).toEqual(
      [],
    );
  });

  it('counts inflections and a word beginning another as shared', () => {
    expect(sharedWords('How long do refunds take?', 'The refund goes back within 5 days.')).toEqual([
      'refunds',
    ]);
    expect(sharedWords('can i pay later', 'Payment is due in 14 days.')).toEqual(['pay']);
    expect(sharedWords('when will it arrive', 'Parcels usually arrived in 2 days.')).toEqual(['arrive']);
  });
});

describe('scoring a reply', () => {
  const question = (answer: VisitorQuestion['answer']): VisitorQuestion => ({
    id: 'shop-1',
    kb: 'shop',
    text: 'how long do i have to send something back',
    answer,
    split: 'tune',
    wording: answer ? 'paraphrase' : null,
    shared: [],
    answerSentences: [],
  });
  const returns = { source: 'returns-and-refunds.md', topic: 'Returning an item', facts: ['30 days'] };
  const reply = (over: Partial<BotReply>): BotReply => ({
    answer: 'passages',
    payloadType: 'markdown',
    text: '',
    sources: [],
    choices: [],
    details: undefined,
    replyMs: 100,
    ...over,
  });
  const noPick = async (): Promise<BotReply> => {
    throw new Error('no choice should be picked');
  };

  it('is right when the reply states every fact with the right document first', async () => {
    const s = await scoreQuestion(
      question(returns),
      reply({
        text: '> You can return any item within 30\ndays.',
        sources: ['returns-and-refunds.md', 'faq.txt'],
      }),
      noPick,
    );
    expect(s).toMatchObject({ right: true, clarified: false, noise: true, notFound: false });
  });

  it('is wrong when the fact comes from another document first', async () => {
    const s = await scoreQuestion(
      question(returns),
      reply({ text: '> within 30 days', sources: ['faq.txt', 'returns-and-refunds.md'] }),
      noPick,
    );
    expect(s).toMatchObject({ right: false, noise: true });
  });

  it('counts a choice question as clarified when the right topic is offered and picking it answers', async () => {
    const picked: ReplyChoice[] = [];
    const choices = [
      { label: 'Returning an item', value: 'returns-topic' },
      { label: 'Warranty period', value: 'warranty-topic' },
    ];
    const s = await scoreQuestion(
      question(returns),
      reply({ answer: 'clarify', payloadType: 'choice', text: 'Did you mean:', choices }),
      async (choice) => {
        picked.push(choice);
        return reply({ text: '> within 30 days of delivery', sources: ['returns-and-refunds.md'] });
      },
    );
    expect(picked).toEqual([choices[0]]);
    expect(s).toMatchObject({ right: false, clarified: true, topicOffered: true, noise: false });
  });

  it('does not pick a choice when the right topic is not offered', async () => {
    const s = await scoreQuestion(
      question(returns),
      reply({ payloadType: 'choice', choices: [{ label: 'Delivery times', value: 'd' }] }),
      noPick,
    );
    expect(s).toMatchObject({ right: false, clarified: false, topicOffered: false });
  });

  it('counts a plain "not found" to an unanswerable question as honest, and a quote as noise', async () => {
    const honest = await scoreQuestion(question(null), reply({ answer: 'not_found', text: 'Sorry' }), noPick);
    expect(honest).toMatchObject({ honest: true, noise: false, notFound: true });
    const quoted = await scoreQuestion(question(null), reply({ text: '> x', sources: ['faq.txt'] }), noPick);
    expect(quoted).toMatchObject({ honest: false, noise: true });
    const rows = reportRows([honest, quoted]);
    expect(rows.find((r) => r.split === 'tune' && r.group === 'unanswerable')).toMatchObject({
      questions: 2,
      honest: 1,
      noise: 1,
      p50: 100,
    });
  });
});
