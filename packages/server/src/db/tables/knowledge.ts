/* Row types of passages and their embedding model, knowledge bases and their website sources. Timestamps
 * are ISO 8601 text; booleans are 0/1. */

/**
 * A passage of an indexed file. SQLite adds `seq` (the rowid shared with `passages_fts` and the vec0 table);
 * PostgreSQL adds `tsv` (its full-text vector). Both are written only by search/index/.
 */
export interface PassagesTable {
  id: string;
  file_id: string;
  bot_id: string;
  position: number;
  subtype: string;
  page_number: number | null;
  content: string;
  /** The passage's lexical tokens in its file's language (search/language/tokens.ts); null for English. */
  terms: string | null;
  /** JSON array of the titles above the passage. */
  breadcrumb: string;
  /** Embedding model of the passage's vector; null when it has none (yet). */
  model_id: string | null;
}

/** The embedding model of the stored vectors: one row, key 'current'. */
export interface EmbeddingModelTable {
  key: string;
  model_id: string;
  dimensions: number;
  /** 'sqlite-vec' | 'pgvector' | 'bytea'. */
  vector_store: string;
  updated_at: string;
}

export interface KnowledgeBasesTable {
  id: string;
  bot_id: string;
  name: string;
  tags: string;
  created_at: string;
  updated_at: string;
}

export interface KnowledgeBaseFilesTable {
  knowledge_base_id: string;
  file_id: string;
  linked_at: string;
}

/** A website source of a knowledge base (modules/knowledge, issue #36). */
export interface KnowledgeSourcesTable {
  id: string;
  bot_id: string;
  workspace_id: string;
  knowledge_base_id: string;
  type: string;
  url: string;
  /** JSON: include, exclude, maxPages, maxDepth, subdomains. */
  settings: string;
  schedule: string;
  /** idle, queued, running or stopping. */
  state: string;
  /** 0/1: a stop was asked for; the crawl ends at its next page. */
  stop_requested: number;
  /** JSON: the running (or last) crawl's counts and skipped pages. */
  progress: string;
  /** JSON array: the last runs' summaries, newest first. */
  runs: string;
  next_sync_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A page a website source crawled into a file of the bot. */
export interface KnowledgeSourcePagesTable {
  source_id: string;
  url: string;
  file_id: string;
  etag: string | null;
  last_modified: string | null;
  /** SHA-256 of the extracted text (or of the bytes of a PDF): an unchanged page is not indexed again. */
  content_hash: string;
  /** Syncs in a row that found the page gone (404/410); removed at 2. */
  gone_count: number;
  fetched_at: string;
}
