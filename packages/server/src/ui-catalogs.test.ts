import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WEBCHAT_LOCALES } from '@parley/protocol';
import { describe, expect, it } from 'vitest';

// The words of the browser packages, one JSON catalog a language (issue #38): every catalog has every key of the
// English one and no other, each text translated with the placeholders it needs, and no key is left unused.
const packages = fileURLToPath(new URL('../../', import.meta.url));

const UIS = [
  { name: 'webchat', src: join(packages, 'webchat/src'), languages: [...WEBCHAT_LOCALES] },
  { name: 'Console', src: join(packages, 'console/src'), languages: ['en', 'fr'] },
];

const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();

/** The texts of every source file under `dir` but the tests and the catalogs' own module (i18n.ts). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'locales' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') && entry.name !== 'i18n.ts'
      ? [readFileSync(path, 'utf8')]
      : [];
  });
}

describe.each(UIS)('the $name catalogs ($src/locales)', ({ src, languages }) => {
  const catalog = (tag: string): Record<string, string> =>
    JSON.parse(readFileSync(join(src, 'locales', `${tag}.json`), 'utf8'));
  const english = catalog('en');

  it('has one catalog for each of its languages and no other', () => {
    const files = readdirSync(join(src, 'locales')).map((name) => name.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...languages].sort());
  });

  it.each(languages.filter((tag) => tag !== 'en'))(
    '%s has every key of English, no other, each translated and keeping its placeholders',
    (tag) => {
      const texts = catalog(tag);
      expect(Object.keys(texts).sort()).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(english)) {
        expect(texts[key]?.trim(), `${tag}.${key}`).not.toBe('');
        expect(placeholders(texts[key] ?? ''), `${tag}.${key}`).toEqual(placeholders(text));
      }
    },
  );

  it('uses every English key somewhere (as s.key, strings.key or a quoted key): no unused words', () => {
    const code = sources(src).join('\n');
    const used = (key: string) =>
      code.includes(`'${key}'`) || new RegExp(`\\b(?:s|strings)\\.${key}\\b`).test(code);
    expect(Object.keys(english).filter((key) => !used(key))).toEqual([]);
  });
});
