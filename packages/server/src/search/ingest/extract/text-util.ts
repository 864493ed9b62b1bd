import { ExtractionError } from '../../types.js';

/** Collapses runs of whitespace (newlines and NBSP included) to one space and trims. */
export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Separator of table cells in block text. */
export const CELL_SEPARATOR = ' | ';

/** One table row as a line: cells whitespace-normalized and separated by CELL_SEPARATOR. */
export function rowText(cells: readonly string[]): string {
  return cells.map(normalizeSpace).join(CELL_SEPARATOR);
}

/** Drops trailing empty cells, so ragged rows do not end in separators. */
export function trimRow(cells: readonly string[]): string[] {
  let end = cells.length;
  while (end > 0 && normalizeSpace(cells[end - 1] ?? '') === '') end--;
  return cells.slice(0, end);
}

const NUMERIC = /^[-+]?[$€£¥]?\s?\d[\d,.\s]*%?$/;

/**
 * Whether the first row of a table reads as a header: at least one more row follows, and its cells are
 * all filled, distinct and not numbers.
 */
export function looksLikeHeader(rows: readonly (readonly string[])[]): boolean {
  const first = rows[0];
  if (first === undefined || rows.length < 2 || first.length === 0) return false;
  const cells = first.map(normalizeSpace);
  if (cells.some((cell) => cell === '' || NUMERIC.test(cell))) return false;
  return new Set(cells.map((cell) => cell.toLowerCase())).size === cells.length;
}

/** A table block as extraction gives it. */
export interface TableBlock {
  type: 'table';
  text: string;
  header?: string;
  pageNumber?: number;
}

/**
 * Table rows as a `table` block: the first row becomes the header when `header` is `'first'`, or when it
 * is `'guess'` and the row looks like one; the other rows are the body lines. Empty rows and columns are
 * dropped. Undefined when no row has text.
 */
export function tableBlock(
  rows: readonly (readonly string[])[],
  header: 'first' | 'guess' = 'guess',
  pageNumber?: number,
): TableBlock | undefined {
  const filled = rows.map(trimRow).filter((row) => row.length > 0);
  // Columns empty in every row (spacing columns of a sheet) are dropped.
  const used = new Set<number>();
  for (const row of filled) {
    row.forEach((cell, column) => {
      if (normalizeSpace(cell) !== '') used.add(column);
    });
  }
  const kept = filled.map((row) => row.filter((_, column) => used.has(column)));
  const first = kept[0];
  if (first === undefined) return undefined;
  const headed = kept.length > 1 && (header === 'first' || looksLikeHeader(kept));
  const body = (headed ? kept.slice(1) : kept).map(rowText);
  const block: TableBlock = { type: 'table', text: body.join('\n') };
  if (headed) block.header = rowText(first);
  if (pageNumber !== undefined) block.pageNumber = pageNumber;
  return block;
}

/** A line that starts a list item: a bullet, or a number or letter followed by `.` or `)`. */
export const LIST_ITEM = /^\s*(?:[•◦▪▫●○■□‣⁃∙·*\-–—]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)])\s+\S/;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  copy: '©',
  reg: '®',
  trade: '™',
  laquo: '«',
  raquo: '»',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

/** Decodes numeric character references and the common named entities (others are left as written). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * Bytes of a text file as a string: UTF-8 (BOM dropped), UTF-16 with a BOM, or Windows-1252 when the
 * bytes are not valid UTF-8. Binary content (NUL bytes without a UTF-16 BOM) is `unreadable_document`.
 */
export function decodeText(bytes: Uint8Array, key: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes.subarray(0, 8192).includes(0)) {
    throw new ExtractionError('unreadable_document', `"${key}" is not a text file: it contains binary data.`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
