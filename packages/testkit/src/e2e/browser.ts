import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { CHROMIUM_ARGS } from '../../../server/src/modules/knowledge/websites/render.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../server/harness.js';
import { freePort } from './server.js';

/** Debian's Chromium (apt-get install chromium), or the one PARLEY_CHROMIUM names (what the crawl renderer runs). */
export const CHROMIUM = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';

/** Debian's headless shell of the same Chromium (apt-get install chromium-headless-shell: the same Blink and V8). */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/**
 * The browser the tests drive: the headless shell when it is installed (Playwright's own default for headless
 * runs: a new page costs it about a fifth, a Console page load less than half, of the CPU time the full browser
 * takes in its new headless mode), otherwise {@link CHROMIUM}; PARLEY_CHROMIUM names another.
 */
export const TEST_BROWSER =
  process.env.PARLEY_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM);

/** Flags for headless Chromium on a closed network: the crawl renderer's, and no sandbox (root in CI). */
export const CHROMIUM_FLAGS = ['--no-sandbox', ...CHROMIUM_ARGS];

/**
 * Whether browser tests can run: Chromium is there. Without it they are skipped with a printed notice,
 * except in CI (`CI` set), where its absence is an error.
 */
export function haveChromium(what: string): boolean {
  if (existsSync(TEST_BROWSER)) return true;
  if (process.env.CI) throw new Error(`${TEST_BROWSER} is missing: the ${what} must run in CI`);
  console.warn(`${TEST_BROWSER} is missing (apt-get install chromium): skipping the ${what}`);
  return false;
}

/** Bundles the webchat from its current sources (about a second); run by build-bundles.ts when they changed. */
export function buildWebchat(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../../webchat/build.mjs', import.meta.url))], {
    stdio: 'pipe',
  });
}

/**
 * Headless Debian Chromium with the flags above: the run's shared one when the browser project's global setup
 * started it (build-bundles.ts; closing it then only disconnects this file and closes its contexts), otherwise
 * one of this file's own.
 */
export function launchChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: TEST_BROWSER, headless: true, args: CHROMIUM_FLAGS });
}

/** Which browser a file's tests drive: by default the run's shared one (the headless shell when installed). */
export interface BrowserChoice {
  /**
   * A browser of the file's own: for what belongs to the browser, not to a profile. The clipboard is one for the
   * whole browser: a file that reads what it copied must not share it with files copying meanwhile.
   */
  own?: boolean;
  /**
   * The full Chromium ({@link CHROMIUM}), of the file's own: for what the headless shell does not do as a
   * person's browser does (it reports `Notification.permission` as "denied", even once granted).
   */
  fullChromium?: boolean;
}

/** The browser `choice` asks for (see BrowserChoice). */
export function browserFor(choice: BrowserChoice): Promise<Browser> {
  if (!choice.own && !choice.fullChromium) return launchChromium();
  const executablePath = choice.fullChromium ? CHROMIUM : TEST_BROWSER;
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS });
}

/**
 * An in-process Parley app listening on a port known before it starts, so that its public URL (the upload and
 * download URLs it hands out) is the address the browser uses.
 */
export async function listeningTestApp(
  options: TestAppOptions = {},
): Promise<{ t: TestApp; origin: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ ...options, env: { ...options.env, PARLEY_PUBLIC_URL: origin } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, origin };
}

/** An in-process app on its public URL and one Chromium, shared by the tests of a file (see useBrowserApp). */
export interface BrowserApp {
  readonly t: TestApp;
  readonly origin: string;
  readonly browser: Browser;
  /** A fresh browser profile, closed after the file's tests. */
  newContext(options?: Parameters<Browser['newContext']>[0]): Promise<BrowserContext>;
}

/**
 * Starts, before a file's tests, an in-process app listening on its public URL and Chromium; closes the
 * profiles, the browser and the app after them. Call at the top of a `describe`. (The bundles the browser loads
 * are built once for the run: packages/testkit/src/e2e/build-bundles.ts.)
 */
export function useBrowserApp(options: TestAppOptions = {}, choice: BrowserChoice = {}): BrowserApp {
  const contexts: BrowserContext[] = [];
  let started: { t: TestApp; origin: string; browser: Browser } | undefined;
  const get = () => {
    if (!started) throw new Error('the browser app is not started (use it inside tests)');
    return started;
  };
  beforeAll(async () => {
    const { t, origin } = await listeningTestApp(options);
    started = { t, origin, browser: await browserFor(choice) };
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await started?.browser.close();
    await started?.t.close();
  });
  return {
    get t() {
      return get().t;
    },
    get origin() {
      return get().origin;
    },
    get browser() {
      return get().browser;
    },
    async newContext(contextOptions) {
      const context = await get().browser.newContext(contextOptions);
      contexts.push(context);
      return context;
    },
  };
}
