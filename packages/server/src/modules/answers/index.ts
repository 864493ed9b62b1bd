export {
  type ChatModel,
  ChatModelError,
  type ChatModelMessage,
  chatModelFromConfig,
  type OpenAiChatModelOptions,
  openAiChatModel,
} from './chat-model.js';
export { yieldsToPassages } from './entries.js';
export { type AnswerSource, NOT_FOUND_TEXT, UNSUPPORTED_TEXT } from './format.js';
export { semanticMinSimilarityFor, USE_LITE_MIN_SIMILARITY } from './relevance.js';
export { type AnswerMode, type KnowledgeResponderDeps, knowledgeResponder } from './responder.js';
export { botContext } from './scope.js';
export { sentencesOf } from './sentences.js';
export { SOURCE_GONE_TEXT, type SourceLinksDeps, sourceLinks, sourceLinkUrl } from './sources.js';
export { type UnitMatcher, unitMatcherFor } from './units.js';
