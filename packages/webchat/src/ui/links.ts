/**
 * What the webchat puts into `href` and `src`: only links a person may follow. A message or a configuration
 * never brings a `javascript:` or `data:` URL into the page, whatever a server let through.
 */

/** `url` when it is a link a person may follow (http, https, mailto, tel), else undefined. */
export function safeHref(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  return /^(https?:\/\/|mailto:|tel:)/i.test(url.trim()) ? url.trim() : undefined;
}

/** `{href}` for an anchor when `url` is safe to follow, else nothing (the anchor then leads nowhere). */
export function hrefOf(url: string | undefined): { href?: string } {
  const href = safeHref(url);
  return href === undefined ? {} : { href };
}

/** An http(s) URL for `src`, else undefined. */
export function safeSrc(url: string | undefined): string | undefined {
  return url !== undefined && /^https?:\/\//i.test(url.trim()) ? url.trim() : undefined;
}
