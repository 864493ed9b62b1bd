import { KNOWLEDGE_BASE_OPERATIONS } from '@parley/protocol/operations';
import { type ApiOf, apiClass } from './api-class.js';

/** A bot's knowledge bases (`/v1/files/knowledge-bases`): named groups of files searched together. */
export type KnowledgeBasesApi = ApiOf<typeof KNOWLEDGE_BASE_OPERATIONS>;

/** Sends each method of `KnowledgeBasesApi` as its entry of `KNOWLEDGE_BASE_OPERATIONS`. */
export const KnowledgeBasesApi = apiClass(KNOWLEDGE_BASE_OPERATIONS);
