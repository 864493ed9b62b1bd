// What every Console browser suite shares: a fresh bundle, one in-process Parley listening on its public URL,
// one Chromium, pages that collect errors (CSP refusals included), axe, and signing in as the bootstrap owner.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestApp, TestAppOptions } from '../server/harness.js';
import { type BrowserChoice, useBrowserApp } from './browser.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Bundles the Console from its current sources, so a test never runs a stale dist/. */
export function buildConsole(): void {
  const script = fileURLToPath(new URL('../../../console/build.mjs', import.meta.url));
  execFileSync(process.execPath, [script], { stdio: 'pipe' });
}

/** A page of a fresh browser profile, and what went wrong on it (page errors, console errors). */
export interface ConsolePage {
  page: Page;
  problems: string[];
}

/** The suite's server and browser (set in beforeAll), and its helpers. */
export interface ConsoleSuite {
  readonly t: TestApp;
  readonly origin: string;
  readonly browser: Browser;
  /** A fresh browser profile at a width and colour scheme. */
  newPage(width: number, colorScheme: 'light' | 'dark'): Promise<ConsolePage>;
  /** Signs in on the Sign in page (default: the bootstrap owner with the bootstrap password). */
  signIn(page: Page, password?: string, email?: string): Promise<void>;
  /** A fresh page at `width`, signed in as the owner, on the Bots page. */
  signedInPage(width?: number, colorScheme?: 'light' | 'dark'): Promise<ConsolePage>;
  /**
   * A new member of the owner's workspace with `role`, invited and joined through the Admin API with a
   * password (and a name when given): their e-mail and password, to sign in with.
   */
  joinAs(role: string, displayName?: string): Promise<{ email: string; password: string }>;
}

/** The options of a Console page's browser profile: `width` by 900 px, in `colorScheme`. */
export const consoleViewport = (width: number, colorScheme: 'light' | 'dark') =>
  ({ viewport: { width, height: 900 }, colorScheme }) as const;

/**
 * A new page of `context` (a suite's newPage, or a profile of another browser), and what goes wrong on it: page
 * errors and console errors (a 401 while asking who is signed in is the signed-out state, not a problem).
 */
export async function consolePage(context: BrowserContext): Promise<ConsolePage> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 401/.test(message.text())) problems.push(message.text());
  });
  return { page, problems };
}

/**
 * Sets up a Console browser suite (call at the top of a `describe`): starts the app and Chromium before the
 * tests, closes everything after (see useBrowserApp).
 */
export function useConsoleSuite(options: TestAppOptions = {}, choice: BrowserChoice = {}): ConsoleSuite {
  // The bundles are built once for the whole run (packages/testkit/src/e2e/build-bundles.ts, Vitest's global setup).
  const app = useBrowserApp(options, choice);
  const suite: ConsoleSuite = {
    get t() {
      return app.t;
    },
    get origin() {
      return app.origin;
    },
    get browser() {
      return app.browser;
    },
    async newPage(width, colorScheme) {
      return consolePage(await app.newContext(consoleViewport(width, colorScheme)));
    },
    async signIn(page, password = app.t.owner.password, email = app.t.owner.email) {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    },
    async signedInPage(width = 1280, colorScheme = 'light') {
      const opened = await suite.newPage(width, colorScheme);
      await opened.page.goto(`${app.origin}/console/`);
      await suite.signIn(opened.page);
      await opened.page.getByRole('heading', { name: 'Bots' }).waitFor();
      return opened;
    },
    async joinAs(role, displayName) {
      const email = `${role}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const password = `the ${role} password 123`;
      const added = await app.t.asOwner('POST', '/v1/admin/workspace-members', { email, role });
      if (added.statusCode !== 201 && added.statusCode !== 200) throw new Error(`invite: ${added.body}`);
      const code = (added.json() as { invitation: { code: string } }).invitation.code;
      const accepted = await app.t.call({
        method: 'POST',
        url: '/v1/admin/account/invitations/accept',
        body: { code, password, ...(displayName ? { displayName } : {}) },
      });
      if (accepted.statusCode !== 201) throw new Error(`accept: ${accepted.statusCode} ${accepted.body}`);
      return { email, password };
    },
  };
  return suite;
}

/**
 * axe-core's violations on the page. Evaluated through the DevTools protocol: the page's CSP (rightly)
 * refuses an injected script tag.
 */
export async function axe(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE);
  const violations = (await page.evaluate(
    `window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)`,
  )) as { id: string; impact: string; help: string; nodes: { target: unknown }[] }[];
  return violations.map(
    (v) => `${v.impact} ${v.id}: ${v.help} — ${JSON.stringify(v.nodes.map((n) => n.target))}`,
  );
}

/**
 * The other views a page is checked in beside the default (1280 px, light): dark, and a phone's 390 px in
 * both schemes.
 */
export const OTHER_VIEWS = [
  [1280, 'dark'],
  [390, 'light'],
  [390, 'dark'],
] as const;

/** Whether the page scrolls sideways (a layout that does not hold at this width). */
export const overflows = (page: Page): Promise<boolean> =>
  page.evaluate('document.documentElement.scrollWidth > document.documentElement.clientWidth');
