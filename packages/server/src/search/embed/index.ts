export { EmbedderError, type EmbedderErrorCode } from './errors.js';
export { type EmbedderKind, type EmbedderSettings, embedderFromConfig } from './from-config.js';
export { OpenAiEmbedder, type OpenAiEmbedderOptions } from './openai.js';
export type { StartableEmbedder } from './port.js';
export {
  USE_LITE_DEFAULT_BATCH,
  USE_LITE_ID,
  USE_LITE_MAX_BATCH,
  USE_LITE_MAX_TOKENS,
  UseLiteEmbedder,
  type UseLiteOptions,
} from './use-lite.js';
