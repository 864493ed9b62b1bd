import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/** A web page's main content as Markdown, its title and the links it holds. */
export interface ExtractedPage {
  title: string;
  markdown: string;
  links: string[];
  /** `<meta name="robots" content="noindex">`: the page asks not to be indexed. */
  noindex: boolean;
  /** `<meta name="robots" content="nofollow">`: the page asks that its links not be followed. */
  nofollow: boolean;
}

/**
 * What is never main content, dropped before Readability looks: navigation, banners, footers, sidebars,
 * forms, scripts, and cookie or consent notices (by their usual ids and classes).
 */
const BOILERPLATE = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'dialog',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="complementary"]',
  '[role="dialog"]',
  '[aria-hidden="true"]',
  '[hidden]',
  '[id*="cookie" i]',
  '[class*="cookie" i]',
  '[id*="consent" i]',
  '[class*="consent" i]',
].join(',');

let turndown: TurndownService | undefined;
function markdownOf(html: string): string {
  if (!turndown) {
    turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    // A link's text only: a page's relative links mean nothing in a passage.
    turndown.addRule('linkText', { filter: ['a', 'img'], replacement: (content) => content });
  }
  return turndown
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Extracts a page's main content: links are read from the whole page first (menus included, so the crawl
 * finds every page), then boilerplate is dropped and Readability keeps the article, which becomes Markdown
 * with its headings (so passages are cut at them), under the page's `<title>` as a top heading.
 */
export function extractPage(html: string, url: string): ExtractedPage {
  const { document } = parseHTML(html);
  const robots = (
    document.querySelector('meta[name="robots" i]')?.getAttribute('content') ?? ''
  ).toLowerCase();
  const links: string[] = [];
  for (const a of document.querySelectorAll('a[href]')) {
    if ((a.getAttribute('rel') ?? '').includes('nofollow')) continue;
    const href = a.getAttribute('href');
    if (href) links.push(href);
  }
  const base = document.querySelector('base[href]')?.getAttribute('href');
  const resolved = links.flatMap((href) => {
    try {
      return [new URL(href, base ? new URL(base, url) : url).href];
    } catch {
      return [];
    }
  });
  const title = (document.querySelector('title')?.textContent ?? '').replace(/\s+/g, ' ').trim();
  for (const node of document.querySelectorAll(BOILERPLATE)) node.remove();
  const main = document.querySelector('main, [role="main"], article');
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], {
    charThreshold: 100,
  }).parse();
  const content = article?.content ?? main?.innerHTML ?? document.body?.innerHTML ?? '';
  const body = markdownOf(content);
  const heading = title || article?.title || '';
  const markdown = heading && !body.startsWith(`# ${heading}`) ? `# ${heading}\n\n${body}` : body;
  return {
    title: heading,
    markdown,
    links: resolved,
    noindex: /\bnoindex\b|\bnone\b/.test(robots),
    nofollow: /\bnofollow\b|\bnone\b/.test(robots),
  };
}

/** The page URLs and nested sitemaps a sitemap (or a sitemap index) lists, or null when it is not a sitemap. */
export function readSitemap(xml: string): { pages: string[]; sitemaps: string[] } | null {
  const root = /<\s*(?:[\w-]+:)?(urlset|sitemapindex)\b/i.exec(xml)?.[1]?.toLowerCase();
  if (!root) return null;
  const { document } = parseHTML(`<html><body>${xml.replace(/<\?xml[^>]*\?>/i, '')}</body></html>`);
  const locs = (parent: string) =>
    [...document.querySelectorAll(`${parent} > loc`)]
      .map((n) => (n.textContent ?? '').trim())
      .filter(Boolean);
  return root === 'sitemapindex'
    ? { pages: [], sitemaps: locs('sitemap') }
    : { pages: locs('url'), sitemaps: [] };
}
