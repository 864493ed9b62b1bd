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
    reporters: ['default', './tools/summary-reporter.ts'],
  },
});
