import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@parley/protocol': fileURLToPath(new URL('./packages/protocol/src/index.ts', import.meta.url)),
      '@parley/client/event-stream': fileURLToPath(
        new URL('./packages/client/src/event-stream.ts', import.meta.url),
      ),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'e2e/**/*.test.ts'],
    testTimeout: 30_000,
    // A browser test's expect.poll waits for what a person would wait for: on a loaded 2-core CI machine running
    // several browsers at once, a page can take seconds (the default, 1 s, fails for load, not for a defect).
    expect: { poll: { timeout: 10_000, interval: 100 } },
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time. Vitest's default is one fewer than the cores: on the 2-core CI machine one file at a
    // time, which used about 0.35-0.45 of a core (the files mostly wait on browsers, child processes, sockets and
    // timers). Measured at load 11-14 on 2 cores, the same files at 1 -> 2 at a time: 4 browser files 158 -> 111 s,
    // identity+cli+4 e2e files 210 -> 183 s, indexing+pglite+files+botpress-client 187 -> 152 s, the same CPU time.
    maxWorkers: 2,
    // The webchat and Console bundles, built once for every browser test (e2e/support/build-bundles.ts).
    globalSetup: ['./e2e/support/build-bundles.ts'],
    reporters: ['default', './tools/summary-reporter.ts'],
  },
});
