import { existsSync } from 'node:fs';

/** Debian's Chromium (apt-get install chromium), or the one PARLEY_CHROMIUM names. */
export const CHROMIUM = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Flags for headless Chromium on a closed network: no sandbox (root in CI), no GPU, and none of the
 * background connections that this machine's network refuses.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Whether browser tests can run: Chromium is there. Without it they are skipped with a printed notice,
 * except in CI (`CI` set), where its absence is an error.
 */
export function haveChromium(what: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing: the ${what} must run in CI`);
  console.warn(`${CHROMIUM} is missing (apt-get install chromium): skipping the ${what}`);
  return false;
}
