import { describe, expect, it } from 'vitest';
import { compoundParts, withLanguageTerms } from './query.js';
import { languageTokens } from './tokens.js';

describe('a German question’s compounds, searched by their parts', () => {
  it('searches a compound the visitor types by the parts a document writes apart', () => {
    const document = languageTokens('Die Frist für die Rückgabe beträgt 30 Tage.', 'de');
    const terms = withLanguageTerms('Wie lange ist die Rückgabefrist?', [
      'wie',
      'lange',
      'ist',
      'die',
      'ruckgabefrist',
    ]);
    expect(terms).toContain('ruckgabefrist');
    expect(document.filter((t) => terms.includes(t)).sort()).toEqual(['frist', 'ruckgab']);
  });

  it('cuts only words of nine letters or more, four letters or more each side, and leaves stop words out', () => {
    expect(compoundParts('Lieferung', 'de')).toContain('lief');
    expect(compoundParts('Versand kosten', 'de')).toEqual([]);
    expect(compoundParts('Versandkosten', 'de')).toEqual(expect.arrayContaining(['versand', 'kost']));
    expect(compoundParts('Rückgabefrist', 'de').every((t) => t.length >= 4)).toBe(true);
  });

  it('leaves languages that do not compound, and English, as they were', () => {
    expect(
      withLanguageTerms('Combien coûte la livraison ?', ['combien', 'coute', 'la', 'livraison']),
    ).not.toContain('livr');
    expect(withLanguageTerms('How long do refunds take?', ['how', 'long', 'do', 'refunds', 'take'])).toEqual([
      'how',
      'long',
      'do',
      'refunds',
      'take',
    ]);
  });
});
