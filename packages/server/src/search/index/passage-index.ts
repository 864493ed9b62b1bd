import type { TagFilter } from '../../db/tag-filter.js';
import type { Passage, PassageSubtype } from '../types.js';

/**
 * Which files a caller may see: all of the bot's, or (an integration) its own plus those shared with
 * integrations. The same shape as the files module's FileVisibility, which is assignable to it.
 */
export type PassageVisibility = { kind: 'all' } | { kind: 'integration'; integrationId: string };

/**
 * Which passages a search may return: those of the bot's files that are visible to the caller, carry the
 * tags, are among `fileIds` when given (an empty list matches nothing), and have finished indexing
 * (status `indexing_completed`).
 */
export interface PassageScope {
  botId: string;
  visibility: PassageVisibility;
  tags?: TagFilter | undefined;
  fileIds?: string[] | undefined;
}

/** An embedding model as the index records it: vectors of different models are never mixed. */
export interface EmbeddingModel {
  id: string;
  dimensions: number;
}

/** How the vectors are stored: sqlite-vec's vec0 table, pgvector, or plain bytes with exact search in JS. */
export type VectorStoreKind = 'sqlite-vec' | 'pgvector' | 'bytea';

/** The model of the stored vectors and where they live. */
export interface ModelInfo extends EmbeddingModel {
  vectorStore: VectorStoreKind;
}

/** A passage to index, with its vector when it has one. */
export interface IndexedPassage extends Passage {
  embedding?: Float32Array | undefined;
}

/** What replaceFilePassages writes. */
export interface ReplaceFilePassagesInput {
  fileId: string;
  botId: string;
  passages: IndexedPassage[];
  /** The model of the embeddings; required when any passage has one. */
  model?: EmbeddingModel | undefined;
  /** The file's language (ISO 639-1): its passages are also indexed with their tokens in it (not English). */
  language?: string | null | undefined;
}

/** One search result: higher scores are better (bm25 negated, or cosine similarity). */
export interface PassageHit {
  passageId: string;
  fileId: string;
  score: number;
}

/** A passage as stored. */
export interface StoredPassage {
  id: string;
  fileId: string;
  botId: string;
  position: number;
  subtype: PassageSubtype;
  pageNumber?: number;
  content: string;
  breadcrumb: string[];
  /** Model of the passage's vector; absent when it has none. */
  modelId?: string;
}

/** Whose storage to measure. */
export type StorageOwner = { botId: string } | { workspaceId: string };

/** Vector DB storage of a bot or a workspace. */
export interface StorageFigures {
  passages: number;
  /** Passages with a vector of the current model. */
  vectors: number;
  /** vectors × dimensions × 4 (float32). */
  vectorBytes: number;
  /** UTF-8 bytes of the passages' text. */
  contentBytes: number;
}

/** Thrown when embeddings of one model are written to an index that holds another's. */
export class EmbeddingModelMismatchError extends Error {
  constructor(
    readonly expected: EmbeddingModel,
    readonly given: EmbeddingModel,
  ) {
    super(
      `the index holds vectors of ${expected.id} (${expected.dimensions} dimensions), not ${given.id} (${given.dimensions}): set the model first`,
    );
    this.name = 'EmbeddingModelMismatchError';
  }
}

/** The lexical + vector index of passages, over SQLite (FTS5 + sqlite-vec) or PostgreSQL (tsvector + pgvector). */
export interface PassageIndex {
  /** Which adapter this is. */
  readonly engine: 'sqlite' | 'postgres';
  /** The model of the stored vectors; undefined before any was set. */
  modelInfo(): Promise<ModelInfo | undefined>;
  /**
   * Makes `model` the index's model. A different model (or width) drops every stored vector and marks every
   * passage as needing embeddings again (see staleFiles); the same model changes nothing.
   */
  setModel(model: EmbeddingModel): Promise<{ changed: boolean; info: ModelInfo }>;
  /**
   * Replaces every passage of a file, in one transaction: readers see the old set or the new, never a mix.
   * The first embeddings written set the model when none is; embeddings of another model throw
   * EmbeddingModelMismatchError. Answers the new passages' ids, in input order.
   */
  replaceFilePassages(input: ReplaceFilePassagesInput): Promise<string[]>;
  /** Removes a file's passages and vectors (deleting the file does it too, by cascade). */
  deleteFile(fileId: string): Promise<void>;
  /**
   * Best passages for a text query: OR of its terms (stopwords removed), bm25-style ranking. `language` (ISO
   * 639-1 or BCP 47) is the query's language as its asker knows it (a visitor's conversation or webchat locale,
   * issue #38): the tie-breaker when the query is too short for its own language to be detected surely, so that
   * it is searched with that language's stems.
   */
  lexicalSearch(query: string, scope: PassageScope, limit: number, language?: string): Promise<PassageHit[]>;
  /** Nearest passages by cosine similarity (exact); empty when no model is set. */
  vectorSearch(vector: Float32Array, scope: PassageScope, limit: number): Promise<PassageHit[]>;
  /** Passages by id, in the order asked; unknown ids are left out. */
  getPassages(ids: string[]): Promise<StoredPassage[]>;
  /** A file's passages in order, after `afterPosition` when given. */
  listFilePassages(fileId: string, limit: number, afterPosition?: number): Promise<StoredPassage[]>;
  /** The passages at positions `position - depth` … `position + depth` of a file (itself included), in order. */
  neighbours(fileId: string, position: number, depth: number): Promise<StoredPassage[]>;
  /** Passage and vector storage of a bot or a workspace. */
  storage(owner: StorageOwner): Promise<StorageFigures>;
  /** Files (any bot) having passages without a vector of the current model: what to re-embed. */
  staleFiles(limit: number): Promise<string[]>;
  /**
   * Files (any bot) done indexing (status `indexing_completed`) having passages without a vector (indexed
   * with no embedder, or not embedded again yet since a model change), by id, after `afterFileId` when given.
   */
  unembeddedFiles(limit: number, afterFileId?: string): Promise<string[]>;
}

/** Largest result list a search returns (sqlite-vec's k limit). */
export const MAX_SEARCH_LIMIT = 4096;
/** Widest vector the index accepts. */
export const MAX_DIMENSIONS = 8192;
