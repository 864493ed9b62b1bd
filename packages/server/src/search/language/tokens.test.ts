import { describe, expect, it } from 'vitest';
import { detectLanguage } from './detect.js';
import { languageTokens, lexicalTokenText, tokenLanguage } from './tokens.js';

describe('language tokens', () => {
  it.each([
    // German: one stem for a word and its plural, with or without umlauts.
    ['Rückgabe', 'rückgaben', 'de'],
    ['Rückgabe', 'ruckgabe', 'de'],
    ['Lieferungen', 'Lieferung', 'de'],
    // French: diacritics folded, plural and elision.
    ['café', 'cafe', 'fr'],
    ["l'adresse", 'adresses', 'fr'],
    ['remboursement', 'remboursements', 'fr'],
    ['envío', 'envios', 'es'],
    ['spedizione', 'spedizioni', 'it'],
    ['entregas', 'entrega', 'pt'],
    ['devolução', 'devolucao', 'pt'],
    ['bezorging', 'bezorgingen', 'nl'],
  ] as const)('%s and %s share one token in %s', (a, b, language) => {
    const [ta] = languageTokens(a, language);
    expect(ta).toBeTruthy();
    expect(languageTokens(b, language)).toEqual([ta]);
  });

  it.each([
    ['Wie lange dauert die Rückgabe?', 'de', ['dauert', 'ruckgab']],
    ['Combien coûte la livraison ?', 'fr', ['combien', 'cout', 'livraison']],
    ['¿Cuánto cuesta el envío?', 'es', ['cuant', 'cuest', 'envi']],
  ] as const)('drops the stop words of %s', (text, language, tokens) => {
    expect(languageTokens(text, language)).toEqual(tokens);
  });

  it('finds a 2-character Japanese word inside a longer one, both ways', () => {
    const doc = languageTokens('返品期限は商品到着後30日です。', 'ja');
    expect(doc).toContain('返品');
    expect(doc).toContain('30');
    expect(languageTokens('返品できますか？', 'ja')).toEqual(['返品']);
    // Particles (hiragana only) are no tokens.
    expect(doc).not.toContain('は');
    expect(doc).not.toContain('です');
  });

  it('keeps a katakana loanword whole, without the bigrams that would meet other loanwords', () => {
    expect(languageTokens('アイスコーヒー用の豆', 'ja')).toEqual(['アイス', 'コーヒー', '用', '豆']);
    // インボイス's イン is not カフェイン's, nor プレゼント's プレ フレンチプレス's.
    expect(languageTokens('インボイス', 'ja')).not.toContain('イン');
    expect(languageTokens('カフェインレスの豆', 'ja')).not.toContain('イン');
    expect(languageTokens('プレゼント', 'ja')).not.toContain('プレ');
  });

  it('reads single Chinese characters in a row as bigrams', () => {
    const tokens = languageTokens('退货需要多长时间', 'zh');
    expect(tokens).toContain('退货');
    expect(tokens).toContain('时间');
  });

  it('leaves out the function words the stop-word lists lack', () => {
    expect(languageTokens('si la lampe est en stock', 'fr')).toEqual(['lamp', 'stock']);
    expect(languageTokens('es para un regalo si', 'es')).toEqual(['regal']);
  });

  it('joins tokens with spaces, nothing for a text without words', () => {
    expect(lexicalTokenText('Die Rückgaben!', 'de')).toBe('ruckgab');
    expect(lexicalTokenText(' ?! ', 'fr')).toBe('');
  });

  it.each([
    ['de-AT', 'de'],
    ['FR', 'fr'],
    ['ja-JP', 'ja'],
    ['en-US', undefined],
    ['ar', undefined],
    [undefined, undefined],
  ] as const)('takes %s as the token language %s', (tag, language) => {
    expect(tokenLanguage(tag)).toBe(language);
  });
});

describe('language detection', () => {
  it.each([
    ['Wie lange dauert die Rückgabe bei euch?', undefined, 'de'],
    ['Combien coûte la livraison en Belgique ?', undefined, 'fr'],
    ['¿Cuánto cuesta el envío a Canarias?', undefined, 'es'],
    ['返品できますか', undefined, 'ja'],
    ['How long do refunds take?', undefined, 'en'],
    // Short messages: the conversation's locale decides.
    ['ok', 'de-DE', 'de'],
    ['Hallo', 'de', 'de'],
    ['merci', 'fr-CA', 'fr'],
    // A clear message wins over the locale.
    ['Wie lange dauert die Rückgabe bei euch?', 'en-US', 'de'],
    ['', undefined, undefined],
  ] as const)('%j with locale %s is %s', (text, hint, language) => {
    expect(detectLanguage(text, hint)).toBe(language);
  });
});
