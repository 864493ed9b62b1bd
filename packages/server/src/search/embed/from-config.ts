/**
 * Picks the embedder from plain settings. The configuration schema (config/config.ts) owns parsing the
 * environment; the variables proposed for it, one per setting:
 *
 * | variable                       | setting       | meaning                                                  |
 * |--------------------------------|---------------|----------------------------------------------------------|
 * | `PARLEY_EMBEDDER`              | `embedder`    | `use-lite` (default), `onnx`, `openai`, or `none` (lexical only) |
 * | `PARLEY_EMBEDDER_WORKERS`      | `workers`     | use-lite / onnx worker threads, default 1 (one core each) |
 * | `PARLEY_EMBEDDER_QUERY_WORKER` | `queryWorker` | use-lite / onnx: one more worker for queries alone        |
 * | `PARLEY_INDEXING_NICE`         | `bulkNice`    | use-lite / onnx: nice of the others with a query worker  |
 * | `PARLEY_EMBEDDER_PRECISION`    | `precision`   | use-lite: `fp32` or `int8`; the server's `auto` picks one |
 * | `PARLEY_EMBEDDING_MODEL_DIR`   | `modelDir`    | onnx: folder with model.onnx + tokenizer.json (required) |
 * | `PARLEY_EMBEDDER_BATCH_SIZE`   | `batchSize`   | texts per model call / request (use-lite ≤ 32, default 16; openai default 64) |
 * | `PARLEY_EMBEDDINGS_URL`        | `url`         | openai: service root, e.g. `https://api.openai.com`      |
 * | `PARLEY_EMBEDDINGS_MODEL`      | `model`       | openai: model name, e.g. `text-embedding-3-small`        |
 * | `PARLEY_EMBEDDINGS_API_KEY`    | `apiKey`      | openai: bearer key (optional for local servers)          |
 * | `PARLEY_EMBEDDINGS_DIMENSIONS` | `dimensions`  | openai: vector width; learnt from the first answer if unset |
 * | `PARLEY_EMBEDDINGS_TIMEOUT_MS` | `timeoutMs`   | openai: time bound of one request, default 30000         |
 */
import { EmbedderError } from './errors.js';
import { OnnxModelEmbedder } from './onnx-folder.js';
import { OpenAiEmbedder } from './openai.js';
import type { StartableEmbedder } from './port.js';
import { UseLiteEmbedder, type UseLitePrecision } from './use-lite.js';

/** Which embedder to run. */
export type EmbedderKind = 'use-lite' | 'onnx' | 'openai' | 'none';

/** Embedder settings, as the configuration hands them over (see the table above). */
export interface EmbedderSettings {
  embedder?: EmbedderKind;
  workers?: number;
  queryWorker?: boolean;
  bulkNice?: number;
  batchSize?: number;
  precision?: UseLitePrecision;
  modelDir?: string;
  url?: string;
  model?: string;
  apiKey?: string;
  dimensions?: number;
  timeoutMs?: number;
}

/**
 * The embedder the settings ask for, not yet started (no thread, no request until first use or
 * `ready()`); `null` for `none`. Throws `EmbedderError('invalid_configuration')` naming what is missing.
 *
 * @example
 * const embedder = embedderFromConfig({ embedder: 'openai', url: 'http://localhost:11434', model: 'nomic-embed-text' });
 */
export function embedderFromConfig(settings: EmbedderSettings = {}): StartableEmbedder | null {
  const kind = settings.embedder ?? 'use-lite';
  switch (kind) {
    case 'use-lite':
      return new UseLiteEmbedder({
        ...(settings.workers === undefined ? {} : { workers: settings.workers }),
        ...(settings.queryWorker === undefined ? {} : { queryWorker: settings.queryWorker }),
        ...(settings.bulkNice === undefined ? {} : { bulkNice: settings.bulkNice }),
        ...(settings.batchSize === undefined ? {} : { batchSize: settings.batchSize }),
        ...(settings.precision === undefined ? {} : { precision: settings.precision }),
      });
    case 'onnx':
      if (!settings.modelDir) {
        throw new EmbedderError(
          'invalid_configuration',
          'PARLEY_EMBEDDER=onnx needs PARLEY_EMBEDDING_MODEL_DIR',
        );
      }
      return new OnnxModelEmbedder({
        dir: settings.modelDir,
        ...(settings.workers === undefined ? {} : { workers: settings.workers }),
        ...(settings.queryWorker === undefined ? {} : { queryWorker: settings.queryWorker }),
        ...(settings.bulkNice === undefined ? {} : { bulkNice: settings.bulkNice }),
        ...(settings.batchSize === undefined ? {} : { batchSize: settings.batchSize }),
      });
    case 'openai': {
      const missing = [
        ...(settings.url ? [] : ['PARLEY_EMBEDDINGS_URL']),
        ...(settings.model ? [] : ['PARLEY_EMBEDDINGS_MODEL']),
      ];
      if (missing.length > 0 || settings.url === undefined || settings.model === undefined) {
        throw new EmbedderError(
          'invalid_configuration',
          `PARLEY_EMBEDDER=openai needs ${missing.join(' and ')}`,
        );
      }
      return new OpenAiEmbedder({
        baseUrl: settings.url,
        model: settings.model,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        ...(settings.dimensions === undefined ? {} : { dimensions: settings.dimensions }),
        ...(settings.batchSize === undefined ? {} : { batchSize: settings.batchSize }),
        ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
      });
    }
    case 'none':
      return null;
    default:
      kind satisfies never;
      throw new EmbedderError(
        'invalid_configuration',
        `PARLEY_EMBEDDER must be use-lite, onnx, openai or none, got ${JSON.stringify(kind)}`,
      );
  }
}
