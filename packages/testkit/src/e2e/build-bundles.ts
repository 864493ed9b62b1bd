// Vitest's global setup of the browser project (vitest.config.ts), run once before its test files:
// - bundles the webchat and the Console from their current sources when a source is newer than the bundles (so a
//   browser test never runs a stale dist/, a run right after `npm run build` does not bundle a second time, and
//   parallel test files never rebuild the same dist/ under each other's feet);
// - starts one Chromium for every browser test file of the run (each file connects to it and opens contexts of
//   its own: see launchChromium in browser.ts), closed after the run.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserServer, chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { buildWebchat, CHROMIUM_FLAGS, haveChromium, TEST_BROWSER } from './browser.js';
import { buildConsole } from './console.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's endpoint (playwright-core `chromium.connect`), when it could start. */
    chromiumEndpoint: string | undefined;
  }
}

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/** What the bundles are made from: the packages' sources (the webchat and Console bundle the client's and the protocol's) and the build scripts. */
const INPUTS = [
  'packages/webchat/src',
  'packages/webchat/build.mjs',
  'packages/console/src',
  'packages/console/build.mjs',
  'packages/client/src',
  'packages/protocol/src',
].map((path) => join(root, path));

/** What they make. */
const OUTPUTS = [
  'packages/webchat/dist/inject.js',
  'packages/webchat/dist/webchat.js',
  'packages/console/dist/index.html',
].map((path) => join(root, path));

/** The newest modification time under `path` (a file or a folder), in ms. */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** Whether a bundle is missing or older than one of its inputs. */
export function bundlesStale(
  inputs: readonly string[] = INPUTS,
  outputs: readonly string[] = OUTPUTS,
): boolean {
  let oldestOutput = Number.POSITIVE_INFINITY;
  for (const output of outputs) {
    try {
      oldestOutput = Math.min(oldestOutput, statSync(output).mtimeMs);
    } catch {
      return true;
    }
  }
  return inputs.some((input) => newest(input) > oldestOutput);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (bundlesStale()) {
    buildWebchat();
    buildConsole();
  }
  let server: BrowserServer | undefined;
  if (haveChromium('browser tests')) {
    server = await chromium.launchServer({
      executablePath: TEST_BROWSER,
      headless: true,
      args: CHROMIUM_FLAGS,
    });
  }
  project.provide('chromiumEndpoint', server?.wsEndpoint());
  return async () => {
    await server?.close();
  };
}
