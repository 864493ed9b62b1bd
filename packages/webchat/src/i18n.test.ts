import { WEBCHAT_LOCALES } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import {
  checkLocale,
  format,
  isRightToLeft,
  pickLocale,
  pickLocaleTag,
  resolveStrings,
  type Strings,
  shippedLocale,
} from './i18n.js';
import FR from './locales/fr.json' with { type: 'json' };
import { brandColors, contrast } from './ui/colors.js';

/** A shipped catalog with the placeholders of the English one. */
const french = FR as Strings;

describe('webchat locales and strings', () => {
  it('maps a language tag to a shipped locale by the chain fr-CA → fr', () => {
    const chains = { fr: 'fr', 'fr-CA': 'fr', 'EN-gb': 'en', 'zh-Hans-CN': 'zh', ko: undefined };
    expect(Object.fromEntries(Object.keys(chains).map((tag) => [tag, shippedLocale(tag)]))).toEqual(chains);
  });

  it('picks the page locale, then the bot default, then the browser languages in order, then English', () => {
    expect(pickLocale(['it', 'fr', 'de-DE'])).toBe('it');
    expect(pickLocale([undefined, 'fr-CA', 'de-DE'])).toBe('fr');
    expect(pickLocale([undefined, '', 'ko-KR', 'de-DE', 'fr'])).toBe('de');
    expect(pickLocale([undefined, undefined, 'ko-KR'])).toBe('en');
    expect(pickLocale([])).toBe('en');
    // The tag chosen keeps its region (the language hint sent with each message); none shipped: en.
    expect(pickLocaleTag([undefined, '', 'ko-KR', 'fr-CA', 'de'])).toBe('fr-CA');
    expect(pickLocaleTag(['ko-KR'])).toBe('en');
  });

  it('lays out Arabic and Hebrew right to left, the others left to right', () => {
    expect(WEBCHAT_LOCALES.filter(isRightToLeft)).toEqual(['ar', 'he']);
  });

  it('names the bad key: unknown string, non-string value, unknown locale', () => {
    expect(checkLocale(undefined, undefined)).toBeUndefined();
    expect(checkLocale('de-AT', { send: 'Go' })).toBeUndefined();
    expect(checkLocale(undefined, { sendd: 'Go' })).toMatchObject({ field: 'strings.sendd' });
    expect(checkLocale(undefined, { send: 3 })).toMatchObject({ field: 'strings.send' });
    expect(checkLocale(undefined, ['x'])).toMatchObject({ field: 'strings' });
    expect(checkLocale(undefined, { toString: 'x' })).toMatchObject({ field: 'strings.toString' });
    expect(checkLocale('ko', undefined)).toMatchObject({ field: 'locale' });
    expect(checkLocale(7, undefined)).toMatchObject({ field: 'locale' });
  });

  it('applies overrides over the catalog, later ones winning, and fills placeholders', () => {
    const strings = resolveStrings(french, { send: 'A' }, { send: 'B', closeChat: 'Fermer' });
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
