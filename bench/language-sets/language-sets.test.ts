import { describe, expect, it } from 'vitest';
import { flat } from '../visitor-set/wording.js';
import { LANGUAGE_SET_TITLES, languageSets, SET_LANGUAGES } from './set.js';
import { sharedWordsIn } from './wording.js';

const set = languageSets();

describe('the language sets (issue #38) hold the visitor set’s invariants, per language', () => {
  for (const language of SET_LANGUAGES) {
    const questions = set.questions.filter((q) => q.kb === language);
    const answerable = questions.filter((q) => q.answer !== null);
    const unanswerable = questions.filter((q) => q.answer === null);
    const documents = set.documents.filter((d) => d.kb === language);

    it(`${language}: at least 60 questions over 4 documents, one in five that no document answers`, () => {
      expect(questions.length).toBeGreaterThanOrEqual(60);
      expect(documents.length).toBe(4);
      expect(unanswerable.length * 5).toBeGreaterThanOrEqual(questions.length);
      expect(set.bases.find((b) => b.name === language)?.title).toBe(LANGUAGE_SET_TITLES[language]);
    });

    it(`${language}: names for each answerable question a document, one of its headings, and facts its text holds`, () => {
      for (const q of answerable) {
        const doc = documents.find((d) => d.key === q.answer?.source);
        expect(doc, `${q.id} ${q.answer?.source}`).toBeDefined();
        expect(doc?.headings, `${q.id} topic`).toContain(q.answer?.topic);
        for (const fact of q.answer?.facts ?? [])
          expect(flat(doc?.text ?? ''), `${q.id} ${fact}`).toContain(flat(fact));
        expect(q.answerSentences.length, q.id).toBeGreaterThan(0);
      }
    });

    // As the visitor set: about half of the answerable questions share no content word with their answer (grown
    // to 64–71 questions a language so that each held-out half has 7–8 unanswerable ones and ~25 answerable).
    it(`${language}: has at least half of its answerable questions sharing no content word with their answer`, () => {
      const paraphrases = answerable.filter((q) => q.wording === 'paraphrase');
      expect(paraphrases.length * 2).toBeGreaterThanOrEqual(answerable.length);
      for (const q of answerable) expect(q.wording === 'paraphrase', q.text).toBe(q.shared.length === 0);
    });

    it(`${language}: asks each question once, and splits it into two halves alike`, () => {
      const texts = questions.map((q) => flat(q.text));
      expect(new Set(texts).size).toBe(texts.length);
      for (const group of [answerable, unanswerable]) {
        const tune = group.filter((q) => q.split === 'tune').length;
        expect(Math.abs(2 * tune - group.length)).toBeLessThanOrEqual(1);
      }
    });
  }

  it('counts inflections, compounds and a word beginning another as shared, and other words as not', () => {
    expect(sharedWordsIn('rückgabe frist?', 'Die Rückgabefrist beträgt 30 Tage.', 'de')).toEqual([
      'ruckgabe',
      'frist',
    ]);
    expect(sharedWordsIn('wie schnell kommt die erstattung', 'Wir erstatten den Betrag.', 'de')).toEqual([
      'erstattung',
    ]);
    expect(sharedWordsIn('wann bekomme ich mein geld', 'Wir erstatten den Betrag.', 'de')).toEqual([]);
    expect(sharedWordsIn('combien coûtent les frais de port', 'La livraison coûte 4,90 €.', 'fr')).toEqual([
      'coutent',
    ]);
    expect(sharedWordsIn('¿cuánto tarda el envío?', 'Los envíos llegan en 3 días.', 'es')).toEqual(['envio']);
    expect(sharedWordsIn('送料はいくらですか', '配送料は800円です。', 'ja')).toEqual(['送料']);
    expect(sharedWordsIn('返品できますか', '商品到着後30日以内にご連絡ください。', 'ja')).toEqual([]);
  });
});
