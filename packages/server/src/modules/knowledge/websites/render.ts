import type { Browser, BrowserContext, Route } from 'playwright-core';
import { BlockedAddressError, type OutboundFetch } from '../../../http/outbound.js';
import type { Logger } from '../../../logger.js';
import { discardBody, ResponseTooLargeError, readBytesCapped } from '../../../outbound-body.js';
import { judgeUrl, type UrlRules } from './url-rules.js';

/** A page rendered by JavaScript: its DOM as HTML, or why it was left out; with the bytes its own requests fetched. */
export type RenderedPage =
  | { kind: 'ok'; html: string; bytes: number }
  | { kind: 'skipped'; reason: string; bytes: number };

/** What one page's rendering is bound by. */
export interface RenderOptions {
  /** The source's host rules: the page's scripts and data requests may go only where its pages may. */
  rules: UrlRules;
  userAgent: string;
  /** Most bytes of the document and every request of the page together. */
  maxBytes: number;
  /** Most time the page may take, from opening to its DOM read. */
  timeoutMs: number;
  signal: AbortSignal;
}

/** Renders crawled pages in headless Chromium (PARLEY_CRAWL_RENDER_JS). */
export interface PageRenderer {
  /** Loads `url` with `html` as its document (already fetched by the crawl), runs its scripts, answers its DOM. */
  render(url: URL, html: Buffer, options: RenderOptions): Promise<RenderedPage>;
  /** Closes the browser (a later render launches it again). */
  close(): Promise<void>;
}

/** How long the browser stays open after its last page. */
export const RENDER_IDLE_MS = 60_000;
/** Most time spent waiting for the page's requests to settle after its `load` event. */
const SETTLE_MS = 3_000;

/**
 * Request kinds a page is allowed, when they go to the page's own host (the source's host rules): its scripts and
 * the data they fetch. Style sheets, images, fonts, media, frames of other documents and the rest are refused: the
 * text is what is read, and every request refused is one the outbound guard need not judge.
 */
const ALLOWED_TYPES = new Set(['script', 'xhr', 'fetch']);

/** Headers the browser sets that a fetch may not (or need not) repeat. */
const DROPPED_REQUEST_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
]);
/** Response headers that no longer describe the body handed to the browser (decoded, read whole). */
const DROPPED_RESPONSE_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
]);

/**
 * Chromium's flags: headless on a server, no background connections of its own (a closed network refuses them),
 * and no WebRTC UDP (which no request interception sees). The browser tests' Chromium runs with them too.
 */
export const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** One page's requests: bytes counted against its cap, whether the cap was reached. */
interface PageBudget {
  bytes: number;
  tooLarge: boolean;
}

/**
 * The renderer over the system Chromium at `executablePath` (playwright-core; it never downloads a browser). One
 * browser per process, launched at the first page, shared by every crawl (each page in a fresh profile) and closed
 * once no page was rendered for `idleMs`. Every request a page makes is intercepted: the page's own document is
 * the body the crawl fetched; its scripts and data requests to the source's host go through `fetch` (the crawl's
 * outbound guard: private addresses refused unless PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES), redirects included (each
 * hop is intercepted and judged again); everything else is refused. Service workers and WebSockets are refused too.
 */
export function chromiumRenderer(deps: {
  executablePath: string;
  fetch: OutboundFetch;
  log: Logger;
  idleMs?: number;
}): PageRenderer {
  const idleMs = deps.idleMs ?? RENDER_IDLE_MS;
  let browser: Promise<Browser> | undefined;
  let open = 0;
  let idleTimer: NodeJS.Timeout | undefined;

  const launch = (): Promise<Browser> => {
    browser ??= import('playwright-core').then(async ({ chromium }) => {
      const launched = await chromium.launch({
        executablePath: deps.executablePath,
        headless: true,
        // Chromium's sandbox cannot run as root; elsewhere it isolates the pages' scripts from the process.
        chromiumSandbox: process.getuid?.() !== 0,
        args: CHROMIUM_ARGS,
      });
      launched.on('disconnected', () => {
        browser = undefined;
      });
      return launched;
    });
    browser.catch(() => {
      browser = undefined;
    });
    return browser;
  };
  const close = async (): Promise<void> => {
    clearTimeout(idleTimer);
    const current = browser;
    browser = undefined;
    if (current) await (await current.catch(() => undefined))?.close();
  };
  const idle = () => {
    clearTimeout(idleTimer);
    if (open > 0) return;
    idleTimer = setTimeout(() => {
      if (open === 0) void close().catch((err) => deps.log.warn({ err }, 'closing the page renderer failed'));
    }, idleMs);
    idleTimer.unref();
  };

  /** Serves one request of the page through the guarded fetch, within the page's bytes. */
  const serve = async (route: Route, budget: PageBudget, options: RenderOptions, signal: AbortSignal) => {
    const request = route.request();
    const headers = Object.fromEntries(
      Object.entries(request.headers()).filter(([name]) => !DROPPED_REQUEST_HEADERS.has(name.toLowerCase())),
    );
    headers['user-agent'] = options.userAgent;
    const body = request.postDataBuffer();
    try {
      const response = await deps.fetch(request.url(), {
        method: request.method(),
        headers,
        ...(body ? { body } : {}),
        redirect: 'manual',
        signal,
      });
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (!DROPPED_RESPONSE_HEADERS.has(name)) responseHeaders[name] = value;
      });
      if (response.status >= 300 && response.status < 400) {
        await discardBody(response);
        return route.fulfill({ status: response.status, headers: responseHeaders, body: '' });
      }
      const bytes = await readBytesCapped(response, Math.max(0, options.maxBytes - budget.bytes));
      budget.bytes += bytes.length;
      return route.fulfill({ status: response.status, headers: responseHeaders, body: bytes });
    } catch (error) {
      if (error instanceof ResponseTooLargeError) budget.tooLarge = true;
      else if (
        !(error instanceof BlockedAddressError || (error as Error).cause instanceof BlockedAddressError)
      )
        deps.log.debug({ err: error, url: request.url() }, 'a rendered page request failed');
      return route.abort(error instanceof BlockedAddressError ? 'addressunreachable' : 'failed');
    }
  };

  /** Answers each request of the page: its document from the crawl, the allowed ones fetched, the rest refused. */
  const intercept = async (
    context: BrowserContext,
    url: URL,
    html: Buffer,
    budget: PageBudget,
    options: RenderOptions,
    signal: AbortSignal,
  ) => {
    let documentServed = false;
    const sameSite = { ...options.rules, include: [], exclude: [] };
    await context.route('**/*', async (route) => {
      const request = route.request();
      if (!documentServed && request.isNavigationRequest() && request.url() === url.href) {
        documentServed = true;
        return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
      }
      let target: URL;
      try {
        target = new URL(request.url());
      } catch {
        return route.abort('blockedbyclient');
      }
      const allowed =
        ALLOWED_TYPES.has(request.resourceType()) && !budget.tooLarge && judgeUrl(target, sameSite) === null;
      if (!allowed) return route.abort('blockedbyclient');
      return serve(route, budget, options, signal);
    });
    await context.routeWebSocket(/.*/, (ws) => ws.close());
  };

  return {
    async render(url, html, options) {
      open++;
      clearTimeout(idleTimer);
      const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
      const budget: PageBudget = { bytes: html.length, tooLarge: false };
      const fetched = () => budget.bytes - html.length;
      let context: BrowserContext | undefined;
      const started = Date.now();
      try {
        context = await (await launch()).newContext({
          userAgent: options.userAgent,
          serviceWorkers: 'block',
          acceptDownloads: false,
          javaScriptEnabled: true,
        });
        const opened = context;
        const onAbort = () => void opened.close().catch(() => undefined);
        signal.addEventListener('abort', onAbort, { once: true });
        try {
          await intercept(context, url, html, budget, options, signal);
          const page = await context.newPage();
          await page.goto(url.href, { waitUntil: 'load', timeout: options.timeoutMs });
          // Scripts that fetch their text after `load`: wait for the page's requests to settle, within the cap.
          const left = options.timeoutMs - (Date.now() - started);
          await page
            .waitForLoadState('networkidle', { timeout: Math.max(1, Math.min(SETTLE_MS, left)) })
            .catch(() => undefined);
          signal.throwIfAborted();
          const dom = await page.content();
          if (budget.tooLarge) return { kind: 'skipped', reason: 'too_large', bytes: fetched() };
          return { kind: 'ok', html: dom, bytes: fetched() };
        } finally {
          signal.removeEventListener('abort', onAbort);
        }
      } catch (error) {
        options.signal.throwIfAborted();
        if (signal.aborted || (error as Error).name === 'TimeoutError')
          return { kind: 'skipped', reason: 'timeout', bytes: fetched() };
        deps.log.warn({ err: error, url: url.href }, 'rendering a page failed');
        return { kind: 'skipped', reason: 'render_failed', bytes: fetched() };
      } finally {
        await context?.close().catch(() => undefined);
        open--;
        idle();
      }
    },
    close,
  };
}

/**
 * A page's HTML as the source asks for it: as fetched, or rendered by `renderer` (a source asking for JavaScript
 * on a server where PARLEY_CRAWL_RENDER_JS is off fails its crawl with that message).
 */
export async function pageHtml(
  renderer: PageRenderer | undefined,
  render: 'html' | 'javascript' | undefined,
  url: URL,
  body: Buffer,
  options: RenderOptions,
): Promise<RenderedPage> {
  if (render !== 'javascript') return { kind: 'ok', html: body.toString('utf8'), bytes: 0 };
  if (!renderer)
    throw new Error(
      'this source renders pages by JavaScript, but this server does not (set PARLEY_CRAWL_RENDER_JS=true)',
    );
  return renderer.render(url, body, options);
}
