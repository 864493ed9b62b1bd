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
 * - Token counts use countTokens (words, numbers, each punctuation mark, each CJK character). No passage's
 *   content exceeds `maxTokens`. The output depends only on the input.
 */
import {
  type Block,
  type ChunkOptions,
  DEFAULT_CHUNK_OPTIONS,
  type ExtractedDocument,
  type Passage,
  type PassageSubtype,
} from './types.js';

/** Bounds of ChunkOptions.maxTokens accepted from a file's configuration. */
export const MAX_TOKENS_RANGE = { min: 16, max: 2000 } as const;

/** Longest breadcrumb entry, in tokens; longer headings are cut with `…` in breadcrumbs (not in their passage). */
const BREADCRUMB_TOKENS = 32;

/** A file's chunking configuration is not valid; the message names the field and the rule. */
export class ChunkOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChunkOptionsError';
  }
}

const CJK = '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}';
const TOKEN_SOURCE = `[${CJK}]|(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}_])+|[^\\s\\p{L}\\p{N}\\p{M}_]`;

function tokenPattern(): RegExp {
  return new RegExp(TOKEN_SOURCE, 'gu');
}

/** Tokens of `text` as chunking counts them: words and numbers, each punctuation mark, each CJK character. */
export function countTokens(text: string): number {
  let count = 0;
  const pattern = tokenPattern();
  while (pattern.exec(text) !== null) count++;
  return count;
}

/** Start and end offsets of each token of `text`. */
function tokenBounds(text: string): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  const pattern = tokenPattern();
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    starts.push(match.index);
    ends.push(match.index + match[0].length);
  }
  return { starts, ends };
}

/** A piece of a text: offsets into it, and its token count. Starts at a token (or line start), ends at one. */
interface Segment {
  start: number;
  end: number;
  tokens: number;
}

/** The part of text[from, to) from its first token (or `from`, with `keepIndent`) to its last; undefined if no token. */
function segment(text: string, from: number, to: number, keepIndent = false): Segment | undefined {
  const { starts, ends } = tokenBounds(text.slice(from, to));
  const first = starts[0];
  const last = ends[ends.length - 1];
  if (first === undefined || last === undefined) return undefined;
  return { start: keepIndent ? from : from + first, end: from + last, tokens: starts.length };
}

/** text[from, to) cut after every match of `boundary`, as segments (pieces without tokens dropped). */
function splitAt(text: string, from: number, to: number, boundary: RegExp, keepIndent = false): Segment[] {
  const pieces: Segment[] = [];
  const part = text.slice(from, to);
  const pattern = new RegExp(boundary.source, 'gu');
  let start = 0;
  for (let match = pattern.exec(part); match !== null; match = pattern.exec(part)) {
    if (match[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    const end = match.index + match[0].length;
    const piece = segment(text, from + start, from + end, keepIndent);
    if (piece) pieces.push(piece);
    start = end;
  }
  const rest = segment(text, from + start, to, keepIndent);
  if (rest) pieces.push(rest);
  return pieces;
}

/** A segment cut into windows of at most `size` tokens, at token boundaries. */
function hardSplit(text: string, piece: Segment, size: number): Segment[] {
  const { starts, ends } = tokenBounds(text.slice(piece.start, piece.end));
  const windows: Segment[] = [];
  for (let first = 0; first < starts.length; first += size) {
    const last = Math.min(first + size, starts.length) - 1;
    windows.push({
      start: piece.start + (first === 0 ? 0 : (starts[first] ?? 0)),
      end: piece.start + (ends[last] ?? 0),
      tokens: last - first + 1,
    });
  }
  return windows;
}

/** Ends of sentences (Latin and CJK punctuation, then space) and blank lines. */
const SENTENCE_END = /[.!?…]+[)"'”’»\]]*\s+|[。！？]+\s*|\n[ \t]*\n/u;
const LINE_END = /\n/u;

/** Prose cut into units of at most `size` tokens: sentences, else lines, else token windows. */
function proseUnits(text: string, size: number): Segment[] {
  const units: Segment[] = [];
  for (const sentence of splitAt(text, 0, text.length, SENTENCE_END)) {
    if (sentence.tokens <= size) {
      units.push(sentence);
      continue;
    }
    for (const line of splitAt(text, sentence.start, sentence.end, LINE_END)) {
      if (line.tokens <= size) units.push(line);
      else units.push(...hardSplit(text, line, size));
    }
  }
  return units;
}

/** Lines (indentation kept) of at most `size` tokens; a longer line is cut into token windows. */
function lineUnits(text: string, size: number): Segment[] {
  const units: Segment[] = [];
  for (const line of splitAt(text, 0, text.length, LINE_END, true)) {
    if (line.tokens <= size) units.push(line);
    else units.push(...hardSplit(text, line, size));
  }
  return units;
}

/**
 * Packs units into pieces of at most `max` tokens; each piece after the first starts with up to `overlap`
 * tokens of the one before: its last whole units when they fit, else the last `overlap` tokens. Units must
 * be at most `max - overlap` tokens.
 */
function pack(text: string, units: readonly Segment[], max: number, overlap: number): string[] {
  const pieces: string[] = [];
  let i = 0;
  let carryStart: number | undefined;
  let carryTokens = 0;
  while (i < units.length) {
    const first = units[i];
    if (first === undefined) break;
    let tokens = carryTokens;
    let j = i;
    for (let unit = units[j]; unit !== undefined && tokens + unit.tokens <= max; unit = units[j]) {
      tokens += unit.tokens;
      j++;
    }
    if (j === i) j = i + 1; // cannot happen with units ≤ max - overlap; guarantees progress regardless
    const last = units[j - 1] ?? first;
    pieces.push(text.slice(carryStart ?? first.start, last.end));
    if (j >= units.length || overlap === 0) {
      carryStart = undefined;
      carryTokens = 0;
      i = j;
      continue;
    }
    let kept = 0;
    let k = j;
    for (
      let unit = units[k - 1];
      k > i && unit !== undefined && kept + unit.tokens <= overlap;
      unit = units[k - 1]
    ) {
      kept += unit.tokens;
      k--;
    }
    if (kept > 0) {
      carryStart = units[k]?.start;
      carryTokens = kept;
    } else {
      // The last `overlap` tokens, less any punctuation they would start with.
      const slice = text.slice(last.start, last.end);
      const { starts } = tokenBounds(slice);
      let from = starts.length - overlap;
      while (from < starts.length - 1 && /^[^\p{L}\p{N}]/u.test(slice.slice(starts[from] ?? 0))) from++;
      carryStart = last.start + (starts[from] ?? 0);
      carryTokens = starts.length - from;
    }
    i = j;
  }
  return pieces;
}

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

/** A heading as a breadcrumb entry: one line, at most BREADCRUMB_TOKENS tokens. */
function crumb(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const { ends } = tokenBounds(line);
  const end = ends[BREADCRUMB_TOKENS - 1];
  return ends.length > BREADCRUMB_TOKENS && end !== undefined ? `${line.slice(0, end)}…` : line;
}

function isHeading(block: Block): boolean {
  return block.type === 'title' || block.type === 'subtitle';
}

function headingLevel(block: Block): number {
  const level = block.level ?? (block.type === 'title' ? 1 : 2);
  return Math.min(6, Math.max(1, Math.trunc(level)));
}

interface Group {
  subtype: PassageSubtype;
  pageNumber: number | undefined;
  header: string | undefined;
  headerTokens: number;
  texts: string[];
  tokens: number;
  breadcrumb: string[];
}

class Chunker {
  readonly passages: Passage[] = [];
  private readonly headings: { level: number; text: string }[] = [];
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

  private breadcrumb(): string[] {
    return this.headings.map((heading) => heading.text);
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
      const level = headingLevel(block);
      while ((this.headings[this.headings.length - 1]?.level ?? 0) >= level) this.headings.pop();
      const above = this.breadcrumb();
      if (tokens <= maxTokens) this.emit(text, block.type, block.pageNumber, above);
      else this.split(text, block, undefined, 0, above);
      this.headings.push({ level, text: crumb(text) });
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
    const breadcrumb = this.breadcrumb();
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

function integerIn(value: unknown, path: string, min: number, max: number, rule: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ChunkOptionsError(`${path} must be ${rule} (got ${JSON.stringify(value) ?? String(value)}).`);
  }
  return value;
}

function validate(maxTokens: unknown, overlapTokens: unknown, prefix: string): ChunkOptions {
  const max = integerIn(
    maxTokens ?? DEFAULT_CHUNK_OPTIONS.maxTokens,
    `${prefix}maxTokens`,
    MAX_TOKENS_RANGE.min,
    MAX_TOKENS_RANGE.max,
    `an integer from ${MAX_TOKENS_RANGE.min} to ${MAX_TOKENS_RANGE.max}`,
  );
  const highestOverlap = Math.ceil(max / 2) - 1;
  const overlap =
    overlapTokens === undefined || overlapTokens === null
      ? Math.min(DEFAULT_CHUNK_OPTIONS.overlapTokens, highestOverlap)
      : integerIn(
          overlapTokens,
          `${prefix}overlapTokens`,
          0,
          highestOverlap,
          `an integer from 0 to less than half of maxTokens (at most ${highestOverlap} for maxTokens ${max})`,
        );
  return { maxTokens: max, overlapTokens: overlap };
}

/**
 * Complete, validated chunk options: `maxTokens` from 16 to 2000 (default 120), `overlapTokens` from 0 to
 * less than half of it (default 20, lowered to fit a small maxTokens). Throws ChunkOptionsError.
 */
export function resolveChunkOptions(options: Partial<ChunkOptions> = {}): ChunkOptions {
  return validate(options.maxTokens, options.overlapTokens, '');
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Chunk options from a file's `indexing.configuration`: `{ chunking: { maxTokens?, overlapTokens? } }`,
 * defaults for what is absent (other keys of the configuration are left to their owners). Throws
 * ChunkOptionsError naming the field for a configuration that is not an object, unknown `chunking` keys, a
 * maxTokens outside 16–2000 or an overlap of half of maxTokens or more.
 *
 * @example
 * chunkOptionsFrom({ chunking: { maxTokens: 200 } }); // { maxTokens: 200, overlapTokens: 20 }
 */
export function chunkOptionsFrom(configuration: unknown): ChunkOptions {
  const prefix = 'indexing.configuration';
  if (configuration === undefined || configuration === null) return { ...DEFAULT_CHUNK_OPTIONS };
  if (!isObject(configuration)) throw new ChunkOptionsError(`${prefix} must be an object.`);
  const chunking = configuration.chunking;
  if (chunking === undefined || chunking === null) return { ...DEFAULT_CHUNK_OPTIONS };
  if (!isObject(chunking)) throw new ChunkOptionsError(`${prefix}.chunking must be an object.`);
  const unknown = Object.keys(chunking).filter((key) => key !== 'maxTokens' && key !== 'overlapTokens');
  if (unknown.length > 0) {
    throw new ChunkOptionsError(
      `${prefix}.chunking has unknown ${unknown.length === 1 ? 'key' : 'keys'} ${unknown.map((key) => `"${key}"`).join(', ')}; allowed: maxTokens, overlapTokens.`,
    );
  }
  return validate(chunking.maxTokens, chunking.overlapTokens, `${prefix}.chunking.`);
}

/**
 * Passages of a document, in order, positions 0, 1, 2, … (see the module comment for the rules).
 * Throws ChunkOptionsError for invalid options.
 *
 * @example
 * const passages = chunkDocument(await extractDocument(bytes, type, key), { maxTokens: 120 });
 */
export function chunkDocument(document: ExtractedDocument, options: Partial<ChunkOptions> = {}): Passage[] {
  const chunker = new Chunker(resolveChunkOptions(options));
  for (const block of document.blocks) chunker.add(block);
  chunker.flush();
  return chunker.passages;
}
