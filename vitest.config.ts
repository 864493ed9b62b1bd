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
    hookTimeout: 60_000,
    pool: 'forks',
    // The webchat and Console bundles, built once for every browser test (e2e/support/build-bundles.ts).
    globalSetup: ['./e2e/support/build-bundles.ts'],
    reporters: ['default', './tools/summary-reporter.ts'],
  },
});
