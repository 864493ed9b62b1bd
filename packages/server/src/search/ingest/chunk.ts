/**
 * Cuts an extracted document into passages small enough to embed, following its structure.
 *
 * - Headings (title, subtitle) become the breadcrumb of the passages under them, and are also passages of
 *   their own (subtype `title`/`subtitle`, breadcrumb = the headings above them), so a client listing
 *   passages sees the document's outline and a search can match a section by its name.
 * - Other blocks keep their subtype and page. Consecutive blocks of the same subtype, section, page (and
 *   table header) are merged while the result fits `maxTokens`; a passage never spans two pages.
 * - A block longer than `maxTokens` is split: prose (paragraph, list item, blockquote, heading) on sentence
 *   ends, else line ends, else between tokens, each piece repeating up to `overlapTokens` tokens from the
 *   end of the one before (whole sentences when they fit); tables and code on line ends with no overlap,
 *   a table's header repeated at the top of every piece.
 * - With `minParagraphChars`, a paragraph shorter than that is first joined to the block after it when that
 *   is a paragraph, list item or quote of the same section and page (the public service's
 *   `parsing.minimumParagraphLength`); before a heading, table, code, page break or the end it stays alone.
 * - Token counts use countTokens (words, numbers, each punctuation mark, each CJK character). No passage's
 *   content exceeds `maxTokens`. The output depends only on the input.
 */

import type { Block, ChunkOptions, ExtractedDocument, Passage, PassageSubtype } from '../types.js';
import { isHeading, Outline } from './chunk-headings.js';
import { resolveChunkOptions } from './chunk-options.js';
import { lineUnits, pack, proseUnits } from './chunk-split.js';
import { countTokens } from './chunk-tokens.js';

export { ChunkOptionsError, MAX_TOKENS_RANGE, resolveChunkOptions } from './chunk-options.js';
export { countTokens } from './chunk-tokens.js';
export { type IndexingOptions, indexingOptionsFrom } from './indexing-options.js';

/** Subtypes cut on line ends (no overlap); all others are prose. */
const LINE_SUBTYPES = new Set<PassageSubtype>(['table', 'code']);

/** How merged blocks of a subtype are joined. */
function separator(subtype: PassageSubtype): string {
  return subtype === 'list' || subtype === 'table' ? '\n' : '\n\n';
}

/** Text of a block as chunking uses it: whitespace-trimmed, but code and list items keep their indentation. */
function blockText(block: Block): string {
  return block.type === 'code' || block.type === 'list'
    ? block.text.replace(/^\s*\n/, '').trimEnd()
    : block.text.trim();
}

/** Consecutive blocks being merged into one passage. */
interface Group {
  subtype: PassageSubtype;
  pageNumber: number | undefined;
  header: string | undefined;
  headerTokens: number;
  texts: string[];
  tokens: number;
  breadcrumb: string[];
}

/** Blocks a short paragraph may be joined to. */
const JOINABLE = new Set<PassageSubtype>(['paragraph', 'list', 'blockquote']);

/**
 * The blocks with each paragraph shorter than `minChars` characters (trimmed) joined to the next block when
 * that is a paragraph, list item or quote on the same page; short paragraphs in a row gather until they
 * reach `minChars`. A block that takes one keeps its own type; nothing crosses a heading, table or code.
 * Blocks without text are left out.
 */
export function joinShortParagraphs(blocks: readonly Block[], minChars: number): Block[] {
  const out: Block[] = [];
  let carry: Block | undefined;
  for (const block of blocks) {
    if (blockText(block) === '') continue; // chunking skips it anyway; it must not part a short paragraph
    let next = block;
    if (carry) {
      if (JOINABLE.has(block.type) && block.pageNumber === carry.pageNumber) {
        next = { ...block, text: `${blockText(carry)}${separator(block.type)}${blockText(block)}` };
      } else {
        out.push(carry);
      }
      carry = undefined;
    }
    if (next.type === 'paragraph' && blockText(next).length < minChars) carry = next;
    else out.push(next);
  }
  if (carry) out.push(carry);
  return out;
}

/**
 * Assembles the passages: headings through the outline, other blocks merged into groups while they fit,
 * blocks too long for one passage split (chunk-split.ts).
 */
class Chunker {
  readonly passages: Passage[] = [];
  private readonly outline = new Outline();
  private group: Group | undefined;

  constructor(private readonly options: ChunkOptions) {}

  private emit(
    content: string,
    subtype: PassageSubtype,
    pageNumber: number | undefined,
    breadcrumb: string[],
  ): void {
    const passage: Passage = { position: this.passages.length, content, subtype, breadcrumb };
    if (pageNumber !== undefined) passage.pageNumber = pageNumber;
    this.passages.push(passage);
  }

  /** Emits the pending merged group. */
  flush(): void {
    const group = this.group;
    this.group = undefined;
    if (!group) return;
    const body = group.texts.join(separator(group.subtype));
    this.emit(
      group.header === undefined ? body : `${group.header}\n${body}`,
      group.subtype,
      group.pageNumber,
      group.breadcrumb,
    );
  }

  /** Emits a block too long for one passage as several. */
  private split(
    text: string,
    block: Block,
    header: string | undefined,
    headerTokens: number,
    breadcrumb: string[],
  ): void {
    const { maxTokens, overlapTokens } = this.options;
    if (LINE_SUBTYPES.has(block.type)) {
      const budget = maxTokens - headerTokens;
      for (const piece of pack(text, lineUnits(text, budget), budget, 0)) {
        this.emit(
          header === undefined ? piece : `${header}\n${piece}`,
          block.type,
          block.pageNumber,
          breadcrumb,
        );
      }
      return;
    }
    for (const piece of pack(text, proseUnits(text, maxTokens - overlapTokens), maxTokens, overlapTokens)) {
      this.emit(piece, block.type, block.pageNumber, breadcrumb);
    }
  }

  add(block: Block): void {
    const { maxTokens } = this.options;
    let text = blockText(block);
    let header = block.type === 'table' && block.header?.trim() ? block.header.trim() : undefined;
    let headerTokens = header === undefined ? 0 : countTokens(header);
    if (header !== undefined && (headerTokens > maxTokens / 2 || text === '')) {
      // A header too long to repeat (or without rows) is just the table's first line.
      text = text === '' ? header : `${header}\n${text}`;
      header = undefined;
      headerTokens = 0;
    }
    const tokens = countTokens(text);
    if (tokens === 0) return;

    if (isHeading(block)) {
      this.flush();
      const above = this.outline.enter(block, text);
      if (tokens <= maxTokens) this.emit(text, block.type, block.pageNumber, above);
      else this.split(text, block, undefined, 0, above);
      return;
    }

    const group = this.group;
    if (
      group &&
      group.subtype === block.type &&
      group.pageNumber === block.pageNumber &&
      group.header === header &&
      group.tokens + tokens <= maxTokens
    ) {
      group.texts.push(text);
      group.tokens += tokens;
      return;
    }
    this.flush();
    const breadcrumb = this.outline.breadcrumb();
    if (headerTokens + tokens <= maxTokens) {
      this.group = {
        subtype: block.type,
        pageNumber: block.pageNumber,
        header,
        headerTokens,
        texts: [text],
        tokens: headerTokens + tokens,
        breadcrumb,
      };
    } else {
      this.split(text, block, header, headerTokens, breadcrumb);
    }
  }
}

/**
 * Passages of a document, in order, positions 0, 1, 2, … (see the module comment for the rules).
 * Throws ChunkOptionsError for invalid options.
 *
 * @example
 * const passages = chunkDocument(await extractDocument(bytes, type, key), { maxTokens: 120 });
 */
export function chunkDocument(document: ExtractedDocument, options: Partial<ChunkOptions> = {}): Passage[] {
  const resolved = resolveChunkOptions(options);
  const chunker = new Chunker(resolved);
  const blocks = resolved.minParagraphChars
    ? joinShortParagraphs(document.blocks, resolved.minParagraphChars)
    : document.blocks;
  for (const block of blocks) chunker.add(block);
  chunker.flush();
  return chunker.passages;
}
