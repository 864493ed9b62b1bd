import { describe, expect, it } from 'vitest';
import { checkLocale, format, LOCALES, resolveStrings, shippedLocale } from './i18n.js';
import { brandColors, contrast } from './ui/colors.js';

describe('webchat locales and strings', () => {
  it('ships English and French with the same keys, every one translated', () => {
    const en = LOCALES.en ?? {};
    const fr = LOCALES.fr ?? {};
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(fr)) expect(text, key).not.toBe('');
  });

  it('maps a language tag to a shipped locale', () => {
    expect(shippedLocale('fr')).toBe('fr');
    expect(shippedLocale('fr-CA')).toBe('fr');
    expect(shippedLocale('EN-gb')).toBe('en');
    expect(shippedLocale('de')).toBeUndefined();
  });

  it('names the bad key: unknown string, non-string value, unknown locale', () => {
    expect(checkLocale(undefined, undefined)).toBeUndefined();
    expect(checkLocale('fr', { send: 'Go' })).toBeUndefined();
    expect(checkLocale(undefined, { sendd: 'Go' })).toMatchObject({ field: 'strings.sendd' });
    expect(checkLocale(undefined, { send: 3 })).toMatchObject({ field: 'strings.send' });
    expect(checkLocale(undefined, ['x'])).toMatchObject({ field: 'strings' });
    expect(checkLocale('de', undefined)).toMatchObject({ field: 'locale' });
    expect(checkLocale(7, undefined)).toMatchObject({ field: 'locale' });
  });

  it('applies overrides over the locale, later ones winning, and fills placeholders', () => {
    const strings = resolveStrings('fr', { send: 'A' }, { send: 'B', closeChat: 'Fermer' });
    expect(strings.send).toBe('B');
    expect(strings.closeChat).toBe('Fermer');
    expect(strings.newMessages).toBe('Nouveaux messages');
    expect(format(strings.openChat, { botName: 'Ada' })).toBe('Ouvrir la discussion avec Ada');
    expect(format('{a} {b}', { a: 1 })).toBe('1 {b}');
  });
});

describe('webchat brand colours', () => {
  const rgb = (hex: string) =>
    [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  it('keeps text on the brand colour and the brand colour as text at 4.5:1 or more', () => {
    for (const color of ['#3276EA', '#FFD400', '#0A7F5A', '#FF0000', '#000000', '#FFFFFF', '#7c3aed']) {
      for (const theme of ['light', 'dark'] as const) {
        const { fill, onFill, text } = brandColors(color, theme);
        expect(
          contrast(rgb(fill), rgb(onFill === '#ffffff' ? '#ffffff' : '#111111')),
          color,
        ).toBeGreaterThanOrEqual(4.5);
        expect(
          contrast(rgb(text), rgb(theme === 'dark' ? '#161a22' : '#ffffff')),
          `${color} ${theme}`,
        ).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});
