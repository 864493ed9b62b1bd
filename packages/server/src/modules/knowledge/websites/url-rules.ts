/** What pages a website source may take: its start host (and subdomains when asked) and its path patterns. */
export interface UrlRules {
  host: string;
  subdomains: boolean;
  include: readonly string[];
  exclude: readonly string[];
}

/** Why a URL is left out, or null when the source takes it. */
export type UrlVerdict = null | 'other_host' | 'not_http' | 'not_included' | 'excluded';

/**
 * A glob-like path pattern as a regular expression: `**` any characters, `*` any characters but `/`, `?` one
 * character but `/`; a pattern ending in `/` also takes everything below it.
 * @example patternRegExp('/docs/**').test('/docs/a/b') // true
 */
export function patternRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  if (pattern.endsWith('/')) source += '.*';
  return new RegExp(`^${source}$`);
}

/** Whether a host is the start host, or with `subdomains` one below it. */
export function sameSite(host: string, rules: Pick<UrlRules, 'host' | 'subdomains'>): boolean {
  return host === rules.host || (rules.subdomains && host.endsWith(`.${rules.host}`));
}

/** Whether a source takes a URL under its rules (null) or why not. */
export function judgeUrl(url: URL, rules: UrlRules): UrlVerdict {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not_http';
  if (!sameSite(url.hostname, rules)) return 'other_host';
  const path = url.pathname;
  if (rules.include.length > 0 && !rules.include.some((p) => patternRegExp(p).test(path)))
    return 'not_included';
  if (rules.exclude.some((p) => patternRegExp(p).test(path))) return 'excluded';
  return null;
}

/** A URL as the crawl keeps it: no fragment, no default port. Null for anything but http(s). */
export function normalizeUrl(href: string, base?: string): URL | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url;
}

/**
 * The file key of a page: `web/{host}/{path}`, a path ending in `/` named `index`, the query kept; under
 * `web/{owner}/` when a source's pages are keyed by its id (another source of the bot takes the same host).
 * @example pageKey(new URL('https://example.com/docs/')) // 'web/example.com/docs/index'
 * @example pageKey(new URL('https://example.com/a'), 'src_1') // 'web/src_1/example.com/a'
 */
export function pageKey(url: URL, owner?: string): string {
  const path = url.pathname.endsWith('/') ? `${url.pathname}index` : url.pathname;
  const key = `web/${owner ? `${owner}/` : ''}${url.host}${decodeSafely(path)}${url.search}`;
  return key.length > 1024 ? key.slice(0, 1024) : key;
}

function decodeSafely(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
