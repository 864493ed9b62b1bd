import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The README is the front door; the reference lives in docs/. These tests keep the links between them whole. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const README = read('README.md');
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
/** One results page per benchmark: docs/benchmarks/<name>.md for each bench/<name>.ts. */
const BENCHMARK_PAGES = readdirSync(join(ROOT, 'docs', 'benchmarks'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/benchmarks/${name}`);

/** Markdown without its fenced code blocks, where a `# x` is no heading. */
const withoutCodeBlocks = (markdown: string) => markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
/** Markdown without its code, fenced or inline, where a `[x](y)` is no link. */
const withoutCode = (markdown: string) => withoutCodeBlocks(markdown).replace(/`[^`\n]*`/g, '');

/** The link targets of a page: `[text](target)` and `![alt](target)`, code left out. */
function linksOf(markdown: string): string[] {
  return [...withoutCode(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string);
}

/** The anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces as dashes. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of withoutCodeBlocks(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (heading as string)
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every relative link of `page` that names no existing file, or no heading of the Markdown file it names. */
function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const link of linksOf(read(page))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // http:, https:, mailto:
    const [path = '', anchor] = link.split('#');
    const target = path === '' ? page : relative(ROOT, join(ROOT, dirname(page), path));
    if (target.startsWith('..') || !existsSync(join(ROOT, target))) {
      broken.push(`${page}: ${link} (no file ${target})`);
    } else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(read(target)).has(anchor)) {
      broken.push(`${page}: ${link} (no heading #${anchor} in ${target})`);
    }
  }
  return broken;
}

describe('the README and docs/', () => {
  it("link only to files and headings that exist, as the packages' and e2e's READMEs do", () => {
    const packages = readdirSync(join(ROOT, 'packages'))
      .map((name) => `packages/${name}/README.md`)
      .filter((path) => existsSync(join(ROOT, path)));
    const pages = [
      'README.md',
      ...DOCS,
      ...BENCHMARK_PAGES,
      'bench/README.md',
      ...packages,
      'e2e/README.md',
      'packages/server/src/search/embed/README.md',
    ];
    expect(pages.flatMap(brokenLinks)).toEqual([]);
  });

  it('keep the README a front door: at most 250 lines, with the quick start, the test command and a picture', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(250);
    expect(README).toContain('npm install && npm start');
    expect(README).toMatch(/^npm test\b/m);
    expect(README).toContain('bootstrap.json');
    expect(linksOf(README)).toContain('docs/images/console.png');
  });

  it('link the README to every page of docs/', () => {
    const linked = new Set(linksOf(README).map((link) => link.split('#')[0]));
    expect(DOCS.filter((page) => !linked.has(page))).toEqual([]);
  });
});

describe('the benchmarks', () => {
  it('each have a results page in docs/benchmarks/, linked from docs/benchmarks.md and bench/README.md', () => {
    const scripts = readdirSync(join(ROOT, 'bench'))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => name.replace(/\.ts$/, ''));
    expect(BENCHMARK_PAGES.map((page) => page.replace(/^docs\/benchmarks\/(.+)\.md$/, '$1')).sort()).toEqual(
      scripts.sort(),
    );
    const fromDocs = new Set(linksOf(read('docs/benchmarks.md')).map((link) => `docs/${link.split('#')[0]}`));
    const fromIndex = new Set(linksOf(read('bench/README.md')).map((link) => link.replace(/^\.\.\//, '')));
    expect(BENCHMARK_PAGES.filter((page) => !fromDocs.has(page) || !fromIndex.has(page))).toEqual([]);
  });
});

describe('the link check', () => {
  it('reads headings as GitHub anchors, and links outside code only', () => {
    expect(anchorsOf("# A title\n## Signing in (the Console's sessions)\n## A title")).toEqual(
      new Set(['a-title', 'signing-in-the-consoles-sessions', 'a-title-1']),
    );
    expect(linksOf('see [x](a.md#b), `[y](c.md)`, ![z](d.png)\n```\n[w](e.md)\n```')).toEqual([
      'a.md#b',
      'd.png',
    ]);
  });
});
