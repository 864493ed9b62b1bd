import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('./', import.meta.url));

/** The test files under `folder` (relative to the root) whose text matches `pattern`, as root-relative paths. */
function testFilesUsing(folder: string, pattern: RegExp): string[] {
  return readdirSync(`${root}${folder}`, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.test.ts') && !path.includes('node_modules'))
    .map((path) => `${folder}/${path}`)
    .filter((path) => pattern.test(readFileSync(`${root}${path}`, 'utf8')));
}

/** Files that drive Chromium (they skip without it, except in CI): the browser project. */
const browserFiles = testFilesUsing('e2e', /haveChromium\(/);
/** Server files that also run on PostgreSQL (when PARLEY_TEST_DATABASE_URL is set): the postgres project. */
const postgresFiles = testFilesUsing('packages/server/src', /postgresTestUrl\(|PARLEY_TEST_DATABASE_URL/);
/**
 * Files that need a process of their own, so they run isolated: those that mock a module (`vi.mock`: in a worker
 * whose files share modules, the real module may already be loaded, and the mock would not apply), and those that
 * change the process itself: `startServer` freezes Object.prototype (issue #31's backstop), and a test that
 * pollutes Object.prototype on purpose would break whatever else runs in its worker meanwhile (prom-client's GC
 * observer threw "Added label anyOf" in a shared worker).
 */
const mockingFiles = testFilesUsing(
  'packages',
  /\bvi\.(do)?[mM]ock\(|\bstartServer\(|Object\.prototype as Record<string, unknown>/,
);

export default defineConfig({
  resolve: {
    alias: {
      // The subpath first: the bare name's alias would also take `@parley/protocol/operations` as a prefix.
      '@parley/protocol/operations': fileURLToPath(
        new URL('./packages/protocol/src/operations/index.ts', import.meta.url),
      ),
      '@parley/protocol': fileURLToPath(new URL('./packages/protocol/src/index.ts', import.meta.url)),
      // @parley/cli's imports of the server, to its sources (as the testkit's and the server's tests load them).
      '@parley/server/cli/private-tar': fileURLToPath(
        new URL('./packages/server/src/cli/private-tar.ts', import.meta.url),
      ),
      '@parley/server/cli': fileURLToPath(new URL('./packages/server/src/cli/kit.ts', import.meta.url)),
      '@parley/client/event-stream': fileURLToPath(
        new URL('./packages/client/src/event-stream.ts', import.meta.url),
      ),
    },
  },
  test: {
    testTimeout: 30_000,
    // A browser test's expect.poll waits for what a person would wait for: on a loaded 2-core CI machine running
    // several browsers at once, a page can take seconds (the default, 1 s, fails for load, not for a defect).
    expect: { poll: { timeout: 10_000, interval: 100 } },
    hookTimeout: 60_000,
    pool: 'forks',
    // Three test files at a time on the 2-core CI machine: the process and browser files mostly wait (on child
    // processes, Chromium, sockets and timers), so a third file in flight keeps both cores busy while they do.
    // All projects run together (one sequence group), each project's files in a row: browser, e2e, isolated,
    // postgres, server, unit (by name), and within one the longest known first.
    maxWorkers: 3,
    // New password hashes at the test cost (packages/server/src/access/passwords.ts useTestPasswordCost).
    setupFiles: ['./tools/vitest-setup.ts'],
    // The tests' PostgreSQL database commits without waiting for the disk (see the file).
    globalSetup: ['./packages/testkit/src/server/postgres-global-setup.ts'],
    reporters: ['default', './tools/summary-reporter.ts'],
    // Each project has a module graph of its own, and without this cache each transforms the sources it loads
    // again (the server's sources are loaded by most of them): with it a module is transformed once for the run
    // (and kept for the next, in node_modules/.experimental-vitest-cache, keyed by its text and the config; a
    // cleared or missing cache only costs the transforms again: `npx vitest --clearCache`).
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: {
          // Real `parley` processes (the built packages/server/dist/main.js), deployments, the CLI.
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          exclude: browserFiles,
          // Files of a worker share its loaded modules (the testkit, the client): no file changes module state.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Chromium through playwright-core: one browser for the run and the bundles, from the global setup.
          name: 'browser',
          include: browserFiles,
          globalSetup: ['./packages/testkit/src/e2e/build-bundles.ts'],
          // Files of a worker share its loaded modules, as the server project's do: the in-process app's and
          // playwright-core's imports cost once per worker, not once per file (they were most of the project's
          // import time).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Server files with a PostgreSQL variant (each test on a fresh schema or database of its own).
          name: 'postgres',
          include: postgresFiles,
          exclude: mockingFiles,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // In-process apps and the server's units, and the CLI's commands against an in-process app. Files of a
          // worker share its loaded modules (no file relies on module state another leaves behind): a server file's
          // imports cost once per worker, not once per file.
          name: 'server',
          include: ['packages/{server,cli}/src/**/*.test.ts'],
          exclude: [...postgresFiles, ...mockingFiles],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // The files that mock a module or change the process (see mockingFiles), each in a process of its own.
          name: 'isolated',
          include: mockingFiles,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          // bench/: the benchmarks' data sets check their own invariants (bench/visitor-set).
          include: ['packages/{protocol,client,webchat,console}/src/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: mockingFiles,
          isolate: false,
        },
      },
    ],
  },
});
