import { describe, expect, it } from 'vitest';
import { detectLanguage, messageLanguage, sureLanguage } from './detect.js';
import { holdsByPrefix, questionTerms, textTerms } from './terms.js';
import { languageTokens, passageTerms } from './tokens.js';

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

  it('reads each distinct earlier word once: forty "Question N?" tell no language, the locale does', () => {
    const earlier = Array.from({ length: 40 }, (_, i) => `Question ${i + 1}?`);
    // Read whole, tinyld was sure of Italian (letters enough, a lead), and the bot answered in Italian.
    expect(messageLanguage('Question 41?', { earlier })).toBeUndefined();
    expect(messageLanguage('Question 41?', { earlier, locale: 'en-GB' })).toBe('en');
  });

  it('tells nothing for a short message without hints (not an unsure guess)', () => {
    expect(messageLanguage('do eu businesses pay vat')).toBeUndefined();
    expect(messageLanguage('Lieferzeit?')).toBeUndefined();
    expect(messageLanguage('')).toBeUndefined();
  });
});

describe('the language of a passage', () => {
  it('is sure of a long text whose best guess leads the next well, though the detector spreads its accuracy', () => {
    // tinyld: es 0.08, fr 0.02, pt 0.02 for this clear Spanish sentence.
    const spanish =
      'El potus, la monstera y la dieffenbachia son tóxicos para perros y gatos si los muerden. La calathea, la peperomia y la kentia son seguras para animales.';
    expect(sureLanguage(spanish)).toBe('es');
    expect(sureLanguage('Les articles en stock partent de l’atelier sous 24 heures ouvrées.')).toBe('fr');
    expect(
      sureLanguage('You can return any unused item within 30 days of delivery, without giving a reason.'),
    ).toBe('en');
  });

  it('is not sure of a short text by its lead alone', () => {
    expect(sureLanguage('¿tenéis tienda en madrid?')).toBeUndefined();
  });
});

describe('question terms per language', () => {
  it('leaves out the question-form words of each language, keeps the subject', () => {
    expect(questionTerms('Wie lange dauert die Rückgabe?', 'de')).toEqual(['dauert', 'ruckgab']);
    expect(questionTerms('Combien de temps pour un remboursement ?', 'fr')).toEqual(['rembours']);
    expect(questionTerms('¿Cuánto tiempo tarda el envío?', 'es')).toEqual(['tard', 'envi']);
    expect(questionTerms('返品は何日以内ですか', 'ja')).toEqual(['返品', '以内']);
  });

  it('leaves out the modal verbs a visitor asks with, which the answer need not repeat', () => {
    // "se puede pagar con criptomonedas" was answered from the FAQ's "¿Puedo regalar…? … al pagar" by `pued`.
    expect(questionTerms('se puede pagar con criptomonedas', 'es')).toEqual(['pag', 'criptomoned']);
    expect(questionTerms('könnt ihr meinen Rahmen neu lackieren', 'de')).toEqual(['rahm', 'neu', 'lacki']);
    expect(questionTerms('je peux payer en bitcoin ?', 'fr')).toEqual(['pai', 'bitcoin']);
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

describe('words of a language the way documents write them', () => {
  it('reads a table by its words, not its pipes (tinyld took them for Hindi)', () => {
    const table =
      'Leistung | Preis | Dauer\nInspektion Standard | 79 Euro | 2 Werktage\nSchlauchwechsel | 15 Euro | 20 Minuten';
    expect(detectLanguage(table)).toBe('de');
  });

  it('joins a German zu-infinitive, and leaves words that only look like one', () => {
    expect(languageTokens('zurückzugeben', 'de')).toEqual(languageTokens('zurückgeben', 'de'));
    expect(languageTokens('anzumelden', 'de')).toEqual(languageTokens('anmelden', 'de'));
    expect(languageTokens('Anzug', 'de')).toEqual(['anzug']);
  });

  it('lets a German compound hold its head, and a stem hold the question word it begins', () => {
    expect(textTerms('Fahrräder', 'de').has('rad')).toBe(true);
    expect(textTerms('Versandkosten', 'de').has('kost')).toBe(true);
    const held = holdsByPrefix(
      textTerms('Wir liefern versandkostenfrei.', 'de'),
      ['versand', 'liefert', 'zoll'],
      'de',
    );
    expect(['versand', 'liefert', 'zoll'].filter((t) => held.has(t))).toEqual(['versand', 'liefert']);
    // A question's compound that only begins with a word of the text is not held (a Fahrradcodierung is no
    // Fahrrad); a word the text's stem begins with an ending is.
    const bike = holdsByPrefix(
      textTerms('Kann ich ein Fahrrad Probe fahren?', 'de'),
      ['fahrradcodierung'],
      'de',
    );
    expect(bike.has('fahrradcodierung')).toBe(false);
    // English: as before, no prefixes.
    expect(holdsByPrefix(new Set(['deliveri']), ['deliv'], 'en').has('deliv')).toBe(false);
  });

  it('indexes a passage with its section’s heading, not the document’s title', () => {
    expect(passageTerms('Sie haben 30 Tage Zeit.', 'de', ['Versand und Rückgabe', 'Rückgabe'])).toContain(
      'ruckgab',
    );
    expect(passageTerms('Sie haben 30 Tage Zeit.', 'de', ['Versand und Rückgabe'])).not.toContain('ruckgab');
    expect(passageTerms('You have 30 days.', 'en', ['Shop', 'Returns'])).toBeNull();
  });
});
