import { describe, expect, it } from 'vitest';
import { EmbedderError } from './errors.js';
import { MAX_EMBED_WORKERS, poolSettings } from './worker-pool-options.js';

const identity = { maxBatch: 32, defaultBatch: 16 };

describe('a worker pool’s settings', () => {
  it('fills in the defaults', () => {
    expect(poolSettings({}, identity)).toEqual({
      size: 1,
      batchSize: 16,
      startTimeoutMs: 60_000,
      batchTimeoutMs: 120_000,
      queryWorker: false,
      bulkNice: 0,
    });
  });

  it.each([
    [{ workers: 0 }, `workers must be an integer from 1 to ${MAX_EMBED_WORKERS}, got 0`],
    [{ workers: MAX_EMBED_WORKERS + 1 }, `workers must be an integer from 1 to ${MAX_EMBED_WORKERS}, got 33`],
    [{ batchSize: 33 }, 'batchSize must be an integer from 1 to 32, got 33'],
    [{ batchSize: 1.5 }, 'batchSize must be an integer from 1 to 32, got 1.5'],
    [{ bulkNice: 20 }, 'bulkNice must be an integer from 0 to 19, got 20'],
    [{ bulkNice: -1 }, 'bulkNice must be an integer from 0 to 19, got -1'],
  ])('refuses %o as invalid_configuration', (options, message) => {
    let caught: unknown;
    try {
      poolSettings(options, identity);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EmbedderError);
    expect(caught).toMatchObject({ code: 'invalid_configuration', message });
  });
});
