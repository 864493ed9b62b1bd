import { BlockedAddressError, type OutboundFetch } from '../../../http/outbound.js';
import { discardBody, ResponseTooLargeError, readBytesCapped } from '../../../outbound-body.js';
import { judgeUrl, normalizeUrl, type UrlRules } from './url-rules.js';

/** Redirects followed for one page, each one judged again. */
export const MAX_REDIRECTS = 5;

/** The bounds of one page's request. */
export interface FetchLimits {
  /** Most bytes of one page's body. */
  maxBytes: number;
  /** Most time one page may take, headers and body. */
  timeoutMs: number;
}

/** What a page's request gave: its body and headers, a "not modified", or why it was left out. */
export type PageFetch =
  | {
      kind: 'ok';
      url: URL;
      status: number;
      body: Buffer;
      contentType: string;
      etag: string | null;
      lastModified: string | null;
    }
  | { kind: 'not_modified'; url: URL }
  | { kind: 'gone'; url: URL; status: number }
  | { kind: 'skipped'; url: URL; reason: string };

/** Conditional request headers kept from a page's last fetch. */
export interface Validators {
  etag?: string | null | undefined;
  lastModified?: string | null | undefined;
}

/**
 * Fetches one page with the crawl's User-Agent through the guarded fetch, following redirects by hand so that
 * each hop is judged against the source's host rules (and, by the fetch, the outbound guard) before it is
 * requested; the body is read within `maxBytes` and the whole request within `timeoutMs`.
 */
export async function fetchPage(
  fetch: OutboundFetch,
  start: URL,
  options: {
    userAgent: string;
    rules: UrlRules;
    limits: FetchLimits;
    signal: AbortSignal;
    validators?: Validators | undefined;
    accept?: string;
  },
): Promise<PageFetch> {
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.limits.timeoutMs)]);
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const headers: Record<string, string> = {
      'user-agent': options.userAgent,
      accept: options.accept ?? 'text/html,application/xhtml+xml,application/pdf,text/plain;q=0.9,*/*;q=0.5',
    };
    if (hop === 0 && options.validators?.etag) headers['if-none-match'] = options.validators.etag;
    if (hop === 0 && options.validators?.lastModified)
      headers['if-modified-since'] = options.validators.lastModified;
    let response: Awaited<ReturnType<OutboundFetch>>;
    try {
      response = await fetch(url.href, { headers, redirect: 'manual', signal });
    } catch (error) {
      options.signal.throwIfAborted();
      return { kind: 'skipped', url, reason: fetchFailure(error, signal) };
    }
    const { status } = response;
    if (status >= 300 && status < 400 && status !== 304) {
      await discardBody(response);
      const next = normalizeUrl(response.headers.get('location') ?? '', url.href);
      if (!next) return { kind: 'skipped', url, reason: 'bad_redirect' };
      const verdict = judgeUrl(next, { ...options.rules, include: [], exclude: [] });
      if (verdict) return { kind: 'skipped', url, reason: `redirect_${verdict}` };
      url = next;
      continue;
    }
    if (status === 304) {
      await discardBody(response);
      return { kind: 'not_modified', url };
    }
    if (status === 404 || status === 410) {
      await discardBody(response);
      return { kind: 'gone', url, status };
    }
    if (status < 200 || status >= 300) {
      await discardBody(response);
      return { kind: 'skipped', url, reason: `http_${status}` };
    }
    try {
      const body = await readBytesCapped(response, options.limits.maxBytes);
      return {
        kind: 'ok',
        url,
        status,
        body,
        contentType: (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '',
        etag: response.headers.get('etag'),
        lastModified: response.headers.get('last-modified'),
      };
    } catch (error) {
      options.signal.throwIfAborted();
      if (error instanceof ResponseTooLargeError) return { kind: 'skipped', url, reason: 'too_large' };
      return { kind: 'skipped', url, reason: fetchFailure(error, signal) };
    }
  }
  return { kind: 'skipped', url, reason: 'too_many_redirects' };
}

function fetchFailure(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout';
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof BlockedAddressError || cause instanceof BlockedAddressError) return 'blocked_address';
  return 'network_error';
}
