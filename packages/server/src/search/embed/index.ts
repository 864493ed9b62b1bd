export { EmbedderError, type EmbedderErrorCode } from './errors.js';
export { type EmbedderKind, type EmbedderSettings, embedderFromConfig } from './from-config.js';
export { OnnxModelEmbedder, type OnnxModelOptions } from './onnx-folder.js';
export { OpenAiEmbedder, type OpenAiEmbedderOptions } from './openai.js';
export type { StartableEmbedder } from './port.js';
export {
  autoUseLitePrecision,
  isUseLiteId,
  USE_LITE_DEFAULT_BATCH,
  USE_LITE_ID,
  USE_LITE_INT8_ID,
  USE_LITE_MAX_BATCH,
  USE_LITE_MAX_TOKENS,
  UseLiteEmbedder,
  type UseLiteOptions,
  type UseLitePrecision,
  type UseLiteRuntime,
} from './use-lite.js';
