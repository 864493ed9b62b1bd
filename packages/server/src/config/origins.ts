/**
 * Reads a comma-separated list of origins: `*` (any) or exact `http(s)://host[:port]` origins, written the
 * way browsers send them in `Origin` (a trailing `/`, upper-case letters and a default port are normalized).
 * Anything else (a path, a query, no scheme, another scheme) is reported through `issue`.
 * @example parseOrigins('https://a.example, http://localhost:5173', fail) // ['https://a.example', 'http://localhost:5173']
 */
export function parseOrigins(raw: string, issue: (message: string) => void): '*' | readonly string[] {
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const origins: string[] = [];
  for (const entry of entries) {
    if (entry === '*') continue;
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {}
    if (
      !url ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.username ||
      url.password ||
      url.pathname !== '/' ||
      url.search ||
      url.hash ||
      entry.includes('?') ||
      entry.includes('#') ||
      /^[a-z]+:\/\/[^/]*\/./i.test(entry)
    ) {
      issue(
        `"${entry}" is not an origin: write scheme://host[:port], e.g. https://app.example.com, or * for any`,
      );
      continue;
    }
    if (url.hostname.includes('*')) {
      issue(`"${entry}" has a wildcard: list each origin in full (or * alone for any)`);
      continue;
    }
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return entries.length === 0 || entries.includes('*') ? '*' : Object.freeze(origins);
}
