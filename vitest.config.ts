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
    // The webchat and Console bundles, built once for every browser test (e2e/support/build-bundles.ts).
    globalSetup: ['./e2e/support/build-bundles.ts'],
    reporters: ['default', './tools/summary-reporter.ts'],
  },
});
