/**
 * The knowledge module's door (docs/architecture.md): what other modules may use of it — its knowledge bases,
 * passages and search, each implemented by the file named beside it.
 */
export type { KnowledgeBaseService } from './knowledge-bases.js';
export type { PassagesService } from './passages.js';
export type { SearchService } from './search.js';
