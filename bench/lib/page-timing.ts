// Timing a page of the Console in Chromium: from navigation start until the page is ready (a condition polled on
// every frame in the page), where that time went (Resource Timing), and the page's own API call replayed alone.
import type { Page } from 'playwright-core';

/** A page and when it is usable: `ready` runs in the page and answers true once it is. */
export interface Target {
  name: string;
  path: string;
  /**
   * The page's own API call (matched on the paths the page requests; every page of it when the page walks
   * several), replayed alone as the baseline.
   */
  api: RegExp;
  ready: string;
}

/** In the page: the Bots page offers "Create bot" (the own role is known) and lists the bots. */
export const BOTS_READY = `(() => {
  const create = [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Create bot');
  return create && document.querySelector('ul[aria-label="Bots"] li') !== null;
})()`;

/** In the page: a table named "Files" (aria-label, aria-labelledby or caption) shows a row of data. */
export const FILES_READY = `(() => [...document.querySelectorAll('table')].some((t) => {
  const by = t.getAttribute('aria-labelledby');
  const name = t.getAttribute('aria-label') ?? (by ? document.getElementById(by)?.textContent : t.caption?.textContent) ?? '';
  return name.trim() === 'Files' && t.querySelector('tbody tr td') !== null;
}))()`;

/** One request of the page's API call, as the page sent it. */
export interface ApiRequest {
  url: string;
  headers: Record<string, string>;
}

/**
 * One measured navigation: ms from navigation start to ready (the page's own clock), the requests of the
 * page's API call before it was ready, and where the time went.
 */
export async function navigate(page: Page, origin: string, target: Target, timeoutMs: number) {
  const api: ApiRequest[] = [];
  let ready = false;
  const onRequest = (request: { url(): string; method(): string; headers(): Record<string, string> }) => {
    if (!ready && request.method() === 'GET' && target.api.test(new URL(request.url()).pathname)) {
      const headers = Object.fromEntries(
        Object.entries(request.headers()).filter(([k]) => /^(x-|accept$)/.test(k)),
      );
      api.push({ url: request.url(), headers });
    }
  };
  page.on('request', onRequest);
  try {
    await page.goto(`${origin}${target.path}`, { waitUntil: 'domcontentloaded' });
    // Polled on every frame in the page (evaluated through the DevTools protocol: the CSP refuses eval).
    const readyMs = (await page.evaluate(`new Promise((resolve, reject) => {
      const give = setTimeout(() => reject(new Error('not ready in ${timeoutMs} ms')), ${timeoutMs});
      const tick = () => {
        if (!${target.ready}) return requestAnimationFrame(tick);
        clearTimeout(give);
        resolve(performance.now());
      };
      tick();
    })`)) as number;
    ready = true;
    return { readyMs, api, ...(await timeline(page, target, readyMs)) };
  } finally {
    page.off('request', onRequest);
  }
}

/** Where a navigation's time went, by the page's Resource Timing: assets loaded, the page's API call, calls. */
export interface Timeline {
  /** When the last of the HTML, JS and CSS had arrived. */
  assetsMs: number;
  /** When the page's own API call was sent (its first request) and answered (its last before ready). */
  apiSentMs: number;
  apiDoneMs: number;
  /** API calls (`/v1/…`) answered before the page was ready. */
  calls: number;
}

async function timeline(page: Page, target: Target, readyMs: number): Promise<Timeline> {
  const entries = (await page.evaluate(`[
    ...performance.getEntriesByType('navigation'),
    ...performance.getEntriesByType('resource'),
  ].map((e) => ({ name: e.name, start: e.startTime, end: e.responseEnd }))`)) as Array<{
    name: string;
    start: number;
    end: number;
  }>;
  const path = (name: string) => new URL(name).pathname;
  const assets = entries.filter((e) => !path(e.name).startsWith('/v1/'));
  const calls = entries.filter((e) => path(e.name).startsWith('/v1/') && e.end <= readyMs);
  const own = calls.filter((e) => target.api.test(path(e.name)));
  return {
    assetsMs: Math.max(...assets.map((e) => e.end)),
    apiSentMs: own.length > 0 ? Math.min(...own.map((e) => e.start)) : Number.NaN,
    apiDoneMs: own.length > 0 ? Math.max(...own.map((e) => e.end)) : Number.NaN,
    calls: calls.length,
  };
}

/**
 * The page's API call alone, from the same page (same cookie, same connection): its requests one after the
 * other (a list walks its pages in turn), ms until the last answer is parsed.
 */
export async function apiAlone(page: Page, api: ApiRequest[]): Promise<number> {
  return (await page.evaluate(async (requests) => {
    const t0 = performance.now();
    for (const { url, headers } of requests) {
      const res = await fetch(url, { headers });
      await res.json();
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    }
    return performance.now() - t0;
  }, api)) as number;
}
