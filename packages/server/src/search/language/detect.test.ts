import { describe, expect, it } from 'vitest';
import { messageLanguage } from './detect.js';
import { questionTerms, textTerms } from './terms.js';

describe("a visitor message's language, with the conversation and the webchat's locale as tie-breakers", () => {
  it('takes the message’s own language when the detector is sure, whatever the hints say', () => {
    expect(
      messageLanguage('Wie lange dauert die Rückgabe bei euch?', {
        earlier: ['Combien coûte la livraison en Belgique ?'],
        locale: 'en-US',
      }),
    ).toBe('de');
    expect(messageLanguage('返品できますか', { locale: 'fr-FR' })).toBe('ja');
  });

  it('takes the language of the visitor’s earlier messages for a short one, before the locale', () => {
    expect(
      messageLanguage('ok merci', {
        earlier: ['Combien coûte la livraison en Belgique ?'],
        locale: 'de-DE',
      }),
    ).toBe('fr');
  });

  it('takes the webchat’s locale when the earlier messages are too short to tell, or there are none', () => {
    expect(messageLanguage('Lieferzeit?', { earlier: ['hallo'], locale: 'de-AT' })).toBe('de');
    expect(messageLanguage('envío?', { locale: 'es' })).toBe('es');
  });

  it('tells nothing for a short message without hints (not an unsure guess)', () => {
    expect(messageLanguage('do eu businesses pay vat')).toBeUndefined();
    expect(messageLanguage('Lieferzeit?')).toBeUndefined();
    expect(messageLanguage('')).toBeUndefined();
  });
});

describe('question terms per language', () => {
  it('leaves out the question-form words of each language, keeps the subject', () => {
    expect(questionTerms('Wie lange dauert die Rückgabe?', 'de')).toEqual(['dauert', 'ruckgab']);
    expect(questionTerms('Combien de temps pour un remboursement ?', 'fr')).toEqual(['rembours']);
    expect(questionTerms('¿Cuánto tiempo tarda el envío?', 'es')).toEqual(['tard', 'envi']);
    expect(questionTerms('返品は何日以内ですか', 'ja')).toEqual(['返品', '以内']);
  });

  it('reads English (or no language) with the Porter stems, as before', () => {
    expect(questionTerms('How long do refunds take?')).toEqual(['refund', 'take']);
    expect(questionTerms('How long do refunds take?', 'en')).toEqual(['refund', 'take']);
  });

  it('finds a question’s terms in a text of its language', () => {
    const held = textTerms('Die Rückgabefrist beträgt 30 Tage; die Rückgabe ist kostenlos.', 'de');
    expect(questionTerms('Wie lange dauert die Rückgabe?', 'de').filter((t) => held.has(t))).toEqual([
      'ruckgab',
    ]);
    const ja = textTerms('返品は商品到着後30日以内に受け付けます。', 'ja');
    expect(questionTerms('返品は何日以内ですか', 'ja').every((t) => ja.has(t))).toBe(true);
  });
});
