import { escapeHtml } from './service.js';

/** The quality an Accept header gives `type` (type/subtype): its most specific matching range's q, else 0. */
function quality(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = { specificity: -1, q: 0 };
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    best = { specificity, q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0 };
  }
  return best.q;
}

/**
 * Whether a request's Accept header asks for an HTML page rather than JSON: a browser navigating
 * (`text/html,…,*\/*;q=0.8`) does; `*\/*`, `application/json` or no header (API clients, curl) do not.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = quality(accept, 'text/html');
  return html > 0 && html > quality(accept, 'application/json');
}

/** The Content-Security-Policy of the not-found page: no script, no requests, its own inline style only. */
export const NOT_FOUND_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/** The small page a person gets at `/webchat/<botId>` when there is no such published bot. */
export function notFoundPage(botId: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chat not found</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:3rem auto;max-width:32rem;padding:0 1rem;color:#222}code{word-break:break-all}</style>
</head>
<body>
<h1>Chat not found</h1>
<p>There is no chat at this address: the bot <code>${escapeHtml(botId)}</code> does not exist or is not published.</p>
<p>Check the link you were given, or ask whoever shared it.</p>
</body>
</html>
`;
}
