/**
 * The shared vocabulary of indexing and search: what extraction produces, what chunking cuts it into,
 * what embedders and the passage index take. Each part (extract/, chunk.ts, embed/, index/, rank.ts)
 * depends only on this file.
 */

/** Kinds of block and passage, as the wire format names them (`meta.subtype`). */
export type PassageSubtype =
  | 'title'
  | 'subtitle'
  | 'paragraph'
  | 'blockquote'
  | 'list'
  | 'table'
  | 'code'
  | 'image'
  | 'page';

/** One structural block of an extracted document, in reading order. */
export interface Block {
  type: PassageSubtype;
  text: string;
  /** Heading depth for title (1) and subtitle (2–6). */
  level?: number;
  /** 1-based page, for paged formats (PDF, PPTX slides). */
  pageNumber?: number;
  /**
   * Table blocks only: the header row (cells separated as in `text`), kept out of `text` (the body rows,
   * one per line); chunking repeats it at the top of every passage cut from the table.
   */
  header?: string;
}

/** A document as extraction gives it: blocks in order, and the page count of paged formats. */
export interface ExtractedDocument {
  title?: string;
  blocks: Block[];
  pageCount?: number;
}

/** Why a document could not be indexed: a stable reason code and a message for people. */
export class ExtractionError extends Error {
  constructor(
    readonly code: 'unsupported_format' | 'unreadable_document' | 'empty_document' | 'too_large',
    message: string,
  ) {
    super(message);
    this.name = 'ExtractionError';
  }
}

/** How documents are cut into passages; defaults fit the shipped embedding model (128-token window). */
export interface ChunkOptions {
  /** Largest passage, in tokens (words and punctuation, approximately). */
  maxTokens: number;
  /** Tokens repeated from the end of one passage at the start of the next, within a section. */
  overlapTokens: number;
  /**
   * A paragraph shorter than this many characters is joined to the block after it (a paragraph, list item
   * or quote of the same section and page) before merging; absent or 0: off.
   */
  minParagraphChars?: number;
}

/** Defaults of ChunkOptions. */
export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { maxTokens: 120, overlapTokens: 20 };

/** A passage: a piece of a document small enough to embed, with where it came from. */
export interface Passage {
  /** 0-based order of the passage in its file. */
  position: number;
  content: string;
  subtype: PassageSubtype;
  pageNumber?: number;
  /** Titles and subtitles above the passage, outermost first. */
  breadcrumb: string[];
}

/**
 * Whose texts an embedding call carries: `interactive` (a search query, a chat question: someone waits; the
 * default) or `bulk` (indexing), which a local model serves only when no interactive call waits.
 */
export type EmbedPriority = 'interactive' | 'bulk';

/** Turns texts into vectors. The default ships with the npm install; others speak HTTP. */
export interface Embedder {
  /** Stable id of the model, stored with the index: a change of model re-embeds. */
  readonly id: string;
  readonly dimensions: number;
  /** Vectors (unit length) for `texts`, in order. */
  embed(texts: string[], signal?: AbortSignal, priority?: EmbedPriority): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/**
 * `inner` with another `embed` (same id, dimensions and close): for the wrappers that time or remember its calls.
 * @example embedderAround(embedder, async (texts, signal, priority) => embedder.embed(texts, signal, priority))
 */
export function embedderAround(inner: Embedder, embed: Embedder['embed']): Embedder {
  return {
    get id() {
      return inner.id;
    },
    get dimensions() {
      return inner.dimensions;
    },
    embed,
    close: () => inner.close(),
  };
}
