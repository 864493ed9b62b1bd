import { describe, expect, it } from 'vitest';
import { searchPassage } from '../../../../testkit/src/server/search-passage.js';
import { type AnswerType, carrierWeight, expectedAnswer } from './answer-type.js';
import { answerLanguage } from './language.js';
import { wordsInCommon } from './retrieval.js';
import { SELECT_DEFAULTS, selectQuotes } from './selection.js';
import { sentencesOf, wordsIn } from './sentences.js';

// Answers in the question's language (issue #38): sentences, answer types and the gate per language.

describe('sentences per language', () => {
  it('cuts Japanese sentences at 。！？ without spaces, and counts about a word per two characters', () => {
    expect(
      sentencesOf('返品は商品到着後30日以内です。送料は無料です！ご不明な点はお問い合わせください。', 'ja'),
    ).toEqual(['返品は商品到着後30日以内です。', '送料は無料です！', 'ご不明な点はお問い合わせください。']);
    expect(wordsIn('返品は30日以内です。')).toBe(5);
    expect(wordsIn('Refunds take 5 days.')).toBe(4);
  });

  it('goes on after a German, French or Spanish abbreviation', () => {
    expect(
      sentencesOf('Wir liefern z. B. nach Österreich. Die Frist beträgt ca. 14 Tage ab Erhalt.', 'de'),
    ).toEqual(['Wir liefern z. B. nach Österreich.', 'Die Frist beträgt ca. 14 Tage ab Erhalt.']);
    expect(
      sentencesOf('Écrivez à M. Dupont, notre conseiller. Il répond sous 2 jours ouvrés.', 'fr'),
    ).toEqual(['Écrivez à M. Dupont, notre conseiller.', 'Il répond sous 2 jours ouvrés.']);
    expect(sentencesOf('Pregunte por la Sra. Gómez en tienda. El envío tarda aprox. 3 días.', 'es')).toEqual([
      'Pregunte por la Sra. Gómez en tienda.',
      'El envío tarda aprox. 3 días.',
    ]);
  });

  it('keeps English as Unicode cuts it', () => {
    expect(sentencesOf('Call Mr. Smith today. He answers within two days.')).toEqual(
      sentencesOf('Call Mr. Smith today. He answers within two days.', 'en'),
    );
  });
});

/** Per language, a question of each answer type. */
const ASKED: Record<string, Partial<Record<AnswerType, string>>> = {
  fr: {
    duration: 'Combien de jours pour renvoyer un article ?',
    price: 'combien coute la livraison en belgique',
    time: "quels sont vos horaires d'ouverture",
    place: 'où est votre entrepôt ?',
  },
  de: {
    duration: 'Wie lange habe ich Zeit für die Rückgabe?',
    price: 'was kostet der versand nach österreich',
    time: 'Wann ist der Kundenservice erreichbar?',
    person: 'wer ist mein ansprechpartner',
  },
  es: {
    price: '¿Cuánto cuesta el envío a Canarias?',
    duration: 'cuanto tiempo tarda un reembolso',
    place: '¿Dónde está la tienda?',
  },
  ja: { duration: '返品は何日以内ですか', price: '送料はいくらですか', time: '営業時間を教えてください' },
};

/** Per language, a question and a sentence that carries its answer. */
const CARRIED: Record<string, Record<string, string>> = {
  fr: {
    'Combien de jours pour renvoyer un article ?': 'Vous disposez de 30 jours pour changer d’avis.',
    'combien coute la livraison en belgique': 'La livraison en Belgique coûte 34,90 €.',
  },
  de: {
    'Wie lange habe ich Zeit?': 'Die Rückgabefrist beträgt 30 Tage.',
    'Wann seid ihr erreichbar?': 'Wir sind montags bis freitags von 9 bis 17 Uhr erreichbar.',
  },
  es: {
    '¿Cuántos días tengo para devolverlo?': 'Tiene 30 días para devolver su pedido.',
    '¿Cuánto cuesta el envío a Canarias?': 'El envío a Canarias cuesta 12,50 €.',
  },
  ja: {
    返品は何日以内ですか: '返品は商品到着後30日以内に受け付けます。',
    送料はいくらですか: '送料は全国一律800円です。',
  },
};

describe('answer types per language', () => {
  for (const [language, forms] of Object.entries(ASKED)) {
    it(`knows the question forms of ${language}`, () => {
      for (const [type, question] of Object.entries(forms)) {
        expect(expectedAnswer(question, language)[0]?.type, question).toBe(type);
      }
    });
  }

  for (const [language, pairs] of Object.entries(CARRIED)) {
    it(`finds the answers of ${language} in their sentences (words, digits, currencies)`, () => {
      for (const [question, sentence] of Object.entries(pairs)) {
        expect(carrierWeight(sentence, expectedAnswer(question, language), language), sentence).toBe(1);
      }
    });
  }

  it('does not take a sentence without the expected answer for one', () => {
    const expected = expectedAnswer('Wie lange habe ich Zeit für die Rückgabe?', 'de');
    expect(carrierWeight('Bitte legen Sie den Rücksendeschein bei.', expected, 'de')).toBe(0);
    expect(
      carrierWeight('返品の際は伝票を同封してください。', expectedAnswer('返品は何日以内ですか', 'ja'), 'ja'),
    ).toBe(0);
  });
});

describe('the gate and the quote on the words of the question’s language', () => {
  const returns = searchPassage(
    'Rücksendungen\n\nBitte legen Sie den Rücksendeschein bei. Die Rückgabefrist beträgt 30 Tage ab Erhalt der Ware. Die Rücksendung innerhalb Deutschlands ist kostenlos.',
    { fileId: 'file_de' },
  );
  const shipping = searchPassage(
    'Versand\n\nWir liefern innerhalb von 2 bis 4 Werktagen. Der Versand nach Österreich kostet 5,90 €.',
    {
      fileId: 'file_ship',
    },
  );

  it('passes a German question on a German document, quoting the sentence that answers', () => {
    const question = 'Wie lange habe ich für eine Rücksendung Zeit?';
    const language = answerLanguage('de', [returns, shipping]);
    expect(language).toBe('de');
    const picked = selectQuotes(question, [returns, shipping], [], undefined, {
      ...SELECT_DEFAULTS,
      language,
    });
    expect(picked.by).toBe('words');
    expect(picked.quotes[0]?.text).toContain('30 Tage');
    expect(picked.quotes[0]?.passage.file.id).toBe('file_de');
  });

  it('finds nothing for a German question the German documents do not answer', () => {
    const picked = selectQuotes('Kann ich mit Bitcoin bezahlen?', [returns, shipping], [], undefined, {
      ...SELECT_DEFAULTS,
      language: 'de',
    });
    expect(picked.quotes).toEqual([]);
  });

  it('does not take German nouns for names the knowledge lacks', () => {
    const picked = selectQuotes(
      'Was kostet der Versand nach Österreich?',
      [shipping, returns],
      [],
      undefined,
      {
        ...SELECT_DEFAULTS,
        language: 'de',
      },
    );
    expect(picked.missingNames).toBeUndefined();
    expect(picked.quotes[0]?.text).toContain('5,90 €');
  });

  it('reads a sentence with its section’s heading and a price or a duration with the words that ask for it', () => {
    const retours = searchPassage("Vous avez 30 jours après réception pour changer d'avis.", {
      fileId: 'file_fr',
      breadcrumb: 'Livraison et retours › Retours',
    });
    const picked = selectQuotes('délai de retour ?', [retours], [], undefined, {
      ...SELECT_DEFAULTS,
      language: 'fr',
    });
    expect(picked.quotes[0]?.text).toContain('30 jours');
    expect(picked.quotes[0]?.coverage).toBe(1);
    // The document's title is no section heading: it tells nothing of its sentences.
    const intro = searchPassage('Cette page explique nos règles.', {
      fileId: 'file_fr',
      breadcrumb: 'Retours',
    });
    expect(
      selectQuotes('délai de retour ?', [intro], [], undefined, { ...SELECT_DEFAULTS, language: 'fr' })
        .quotes,
    ).toEqual([]);
  });

  it('reads a question in the language of the passages when they are not in the one detected', () => {
    const english = searchPassage('Refunds are paid within 5 working days.', { fileId: 'file_en' });
    expect(answerLanguage('nl', [english])).toBe('en');
    expect(answerLanguage(undefined, [returns])).toBe('de');
    expect(answerLanguage('fr', [])).toBe('fr');
  });

  it('reads a question of unknown language in the language of its short passages taken together', () => {
    // Headings and FAQ lines alone are too short to tell; together with the rest of what was found they are Spanish.
    const short = ['Luz', 'Riego', 'Trasplante'].map((text) => searchPassage(text, { fileId: 'file_es' }));
    const pets = searchPassage('El potus y la monstera son tóxicos para perros y gatos.', {
      fileId: 'file_es',
    });
    expect(answerLanguage(undefined, short)).toBeUndefined();
    expect(answerLanguage(undefined, [...short, pets])).toBe('es');
  });

  it('marks the words a passage shares with the question as the language reads them (the debug details)', () => {
    expect(wordsInCommon('Die Rückgabefrist beträgt 30 Tage.', ['ruckgabefrist'], 'de')).toEqual([
      'Rückgabefrist',
    ]);
    expect(wordsInCommon('Refunds take 30 days.', ['refund'])).toEqual(['Refunds']);
  });
});
