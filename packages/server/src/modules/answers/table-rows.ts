import type { SearchPassage } from '@parley/protocol';

// The rows of a table passage (a CSV, a spreadsheet, a table of a document) as sentences a reply can quote:
// each row with its header names, and the currency its header or file names after a price, so that a quoted
// row reads "Replacement burr set — SKU: GR-310, price: 34.90 EUR, in stock: yes" instead of
// "GR-310 | Replacement burr set | 34.90 | yes". Pure functions, no I/O.

/** How extraction separates a table row's cells (search/ingest/extract/text-util.ts). */
const CELL_SEPARATOR = ' | ';

const CURRENCY_CODES = ['EUR', 'USD', 'GBP', 'CHF', 'CAD', 'AUD', 'JPY', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK'];
const CURRENCY_SYMBOLS: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP', '¥': 'JPY' };
const CODES = CURRENCY_CODES.join('|');
/** A currency in a header: `Price (EUR)`, `Price in €`, `Amount [USD]`, `EUR`. */
const HEADER_CURRENCY = new RegExp(
  `\\s*[([]\\s*(${CODES}|[€$£¥])\\s*[)\\]]|\\s+in\\s+(${CODES}|[€$£¥])(?![a-z])|\\b(${CODES})\\b|([€$£¥])`,
  'i',
);
/** A currency in a file name: `prices-eur.csv`, `tarifs_CHF.xlsx`. */
const KEY_CURRENCY = new RegExp(`(?:^|[^a-z])(${CODES})(?:[^a-z]|$)`, 'i');
/** A header naming an amount of money, which a currency named by the file applies to. */
const MONEY_HEADER = /\b(price|cost|fee|amount|total|rate|charge|subtotal|net|gross)s?\b/i;
/** A cell that is a plain number (`34.90`, `1,149.00`). */
const PLAIN_NUMBER = /^-?\d[\d.,\s']*$/;
/** A header naming an identifier column (never a row's label). */
const ID_HEADER = /^(sku|id|code|ref(erence)?|no\.?|number|#|item (no|number|code)|article( no)?)$/i;
/** A cell that is a code or a number, not a name: `GR-310`, `2026-04-03`, `12.5`. */
const CODE_CELL = /^[\p{Lu}\p{N}][\p{Lu}\p{N}\-_./:#]*$/u;

const cellsOf = (line: string) => line.split(CELL_SEPARATOR).map((cell) => cell.trim());

/** Whether a row looks like a header: every cell filled, none a number, no two the same. */
function looksLikeHeader(cells: readonly string[]): boolean {
  if (cells.length < 2 || cells.some((c) => c === '' || PLAIN_NUMBER.test(c))) return false;
  return new Set(cells.map((c) => c.toLowerCase())).size === cells.length;
}

/** The currency code a text names (`EUR`), from a code or a symbol. */
function currencyIn(match: RegExpExecArray | null): string | undefined {
  const named = match?.slice(1).find((g) => g !== undefined);
  if (!named) return undefined;
  return CURRENCY_SYMBOLS[named] ?? named.toUpperCase();
}

/** A column of the header: how a row names it, and the currency its numbers are in. */
interface Column {
  label: string;
  currency: string | undefined;
  isId: boolean;
}

/** A header cell as a row's label names it: the currency taken out, lower case unless an acronym (`SKU`). */
function columnOf(header: string, fileCurrency: string | undefined): Column {
  const match = HEADER_CURRENCY.exec(header);
  const own = currencyIn(match);
  const bare = (match && own ? header.replace(match[0], ' ') : header).replace(/\s+/g, ' ').trim() || header;
  const label = /^\p{Lu}[\p{Lu}\p{N}]+$/u.test(bare) ? bare : bare.charAt(0).toLowerCase() + bare.slice(1);
  const currency = own ?? (MONEY_HEADER.test(bare) ? fileCurrency : undefined);
  return { label, currency, isId: ID_HEADER.test(bare) };
}

/** A cell with its currency, when it is a plain number of a money column. */
const withCurrency = (cell: string, column: Column | undefined) =>
  column?.currency && PLAIN_NUMBER.test(cell) ? `${cell} ${column.currency}` : cell;

/**
 * A table row with its header names: its label (the first cell that is a name, not a code, a number or an
 * identifier column) then ` — ` and the other cells as `header: value`, a money column's numbers followed by
 * their currency. Without a name cell, every cell is `header: value`.
 * @example labelledRow(['GR-310', 'Replacement burr set', '34.90', 'yes'], columns) // 'Replacement burr set — SKU: GR-310, price: 34.90 EUR, in stock: yes'
 */
function labelledRow(cells: readonly string[], columns: readonly Column[]): string {
  const labelAt = cells.findIndex(
    (cell, i) =>
      !columns[i]?.isId && /\p{L}/u.test(cell) && !CODE_CELL.test(cell) && !PLAIN_NUMBER.test(cell),
  );
  const parts = cells.flatMap((cell, i) => {
    if (i === labelAt || cell === '') return [];
    const column = columns[i];
    return [column ? `${column.label}: ${withCurrency(cell, column)}` : cell];
  });
  if (labelAt < 0) return parts.join(', ');
  const label = cells[labelAt] as string;
  return parts.length > 0 ? `${label} — ${parts.join(', ')}` : label;
}

/**
 * The rows of a table passage with their header names ({@link labelledRow}), its header row left out; undefined
 * when the passage is no table or its first line is no header (then its lines are quoted as they are). The
 * currency comes from a header cell (`Price (EUR)`) or, for columns of money, from the file's name
 * (`prices-eur.csv`).
 * @example tableRows(passage) // ['Replacement burr set — SKU: GR-310, price: 34.90 EUR, in stock: yes', …]
 */
export function tableRows(passage: Pick<SearchPassage, 'content' | 'meta' | 'file'>): string[] | undefined {
  if (passage.meta.subtype !== 'table') return undefined;
  const lines = passage.content
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const [first, ...rows] = lines;
  if (first === undefined || rows.length === 0) return undefined;
  const header = cellsOf(first);
  if (!looksLikeHeader(header)) return undefined;
  const fileCurrency = currencyIn(KEY_CURRENCY.exec(passage.file.key.replace(/^.*\//, '')));
  const columns = header.map((h) => columnOf(h, fileCurrency));
  return rows.map((row) => labelledRow(cellsOf(row), columns));
}
