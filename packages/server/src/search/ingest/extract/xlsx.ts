import type { Block, ExtractedDocument } from '../../types.js';
import { openOfficePackage } from './office-package.js';
import { asExtractionError, type ExtractContext, throwIfAborted, tooLarge } from './options.js';
import { tableBlock } from './text-util.js';
import { attribute, child, children, coreTitle, relationships, rootElement, type XmlBudget } from './xml.js';
import { xmlText } from './xml-scan.js';

/**
 * Collects the text of a rich string (`si` or `is`) from streaming events: its `t` children and the first
 * `t` of each `r` child; phonetic runs (`rPh`) left out. `depth` is the rich string element's depth.
 */
class RichText {
  text = '';
  /** Depth of the `t` being read, 0 when none. */
  private reading = 0;
  /** Whether an `r` child is open, and whether it has had its `t`. */
  private inRun = false;
  private runRead = false;

  constructor(private readonly depth: number) {}

  open(name: string, depth: number): void {
    if (this.reading !== 0) return;
    if (depth === this.depth + 1) {
      if (name === 't') this.reading = depth;
      else if (name === 'r') {
        this.inRun = true;
        this.runRead = false;
      }
    } else if (depth === this.depth + 2 && name === 't' && this.inRun && !this.runRead) {
      this.reading = depth;
      this.runRead = true;
    }
  }

  close(depth: number): void {
    if (depth === this.reading) this.reading = 0;
    else if (depth === this.depth + 1) this.inRun = false;
  }

  add(source: string, start: number, end: number, cdata: boolean): void {
    if (this.reading !== 0) this.text += xmlText(source, start, end, cdata);
  }
}

/** Running totals of a workbook against `maxCells` and `maxChars`. */
class CellBudget {
  private cells = 0;
  private chars = 0;

  constructor(private readonly ctx: ExtractContext) {}

  addCells(count: number): void {
    this.cells += count;
    if (this.cells > this.ctx.maxCells) throw tooLarge(this.ctx.key, 'spreadsheet cells', this.ctx.maxCells);
  }

  addText(text: string): void {
    this.chars += text.length;
    if (this.chars > this.ctx.maxChars) throw tooLarge(this.ctx.key, 'characters of text', this.ctx.maxChars);
  }
}

/** The shared strings table, read streaming (each `si` of the root, in order). */
function sharedStrings(xml: string | undefined, budget: XmlBudget): string[] {
  if (xml === undefined) return [];
  const strings: string[] = [];
  let item: RichText | undefined;
  budget.stream(xml, {
    open(name, depth) {
      if (depth === 2 && name === 'si') item = new RichText(2);
      else item?.open(name, depth);
    },
    close(_name, depth) {
      if (depth === 2 && item) {
        strings.push(item.text);
        item = undefined;
      } else item?.close(depth);
    },
    text(source, start, end, cdata) {
      item?.add(source, start, end, cdata);
    },
  });
  return strings;
}

/** 0-based column of a cell reference (`C7` → 2). */
function columnIndex(reference: string | undefined): number | undefined {
  const letters = reference ? /^([A-Z]+)\d*$/i.exec(reference)?.[1] : undefined;
  if (!letters) return undefined;
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

function cellText(type: string, raw: string, inline: string | undefined, strings: readonly string[]): string {
  switch (type) {
    case 's':
      return strings[Number(raw)] ?? '';
    case 'inlineStr':
      return inline ?? '';
    case 'b':
      return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
    default:
      return raw;
  }
}

/** A cell being read: its attributes, the text of its first `v`, its first inline string. */
interface OpenCell {
  type: string;
  reference: string | undefined;
  raw: string;
  /** Depth of the `v` being read, 0 when none. */
  reading: number;
  valueSeen: boolean;
  inline: RichText | undefined;
  inlineDone: boolean;
}

/**
 * Rows of a worksheet, cells placed by their column reference (gaps filled with empty cells), read
 * streaming from the root's first `sheetData`: no DOM, only the rows kept, within `cells`' bounds.
 */
function sheetRows(
  xml: string,
  strings: readonly string[],
  budget: XmlBudget,
  cells: CellBudget,
): string[][] {
  const rows: string[][] = [];
  let state: 'before' | 'in' | 'after' = 'before';
  let values: string[] | undefined;
  let cell: OpenCell | undefined;
  budget.stream(xml, {
    open(name, depth, tag) {
      if (state === 'before' && depth === 2 && name === 'sheetData') state = 'in';
      if (state !== 'in') return;
      if (depth === 3 && name === 'row') values = [];
      else if (depth === 4 && name === 'c' && values) {
        const type = tag.attribute('t') ?? 'n';
        const reference = tag.attribute('r');
        cell = {
          type,
          reference,
          raw: '',
          reading: 0,
          valueSeen: false,
          inline: undefined,
          inlineDone: false,
        };
      } else if (cell && cell.reading === 0) {
        if (cell.inline && !cell.inlineDone) cell.inline.open(name, depth);
        else if (depth === 5 && name === 'v' && !cell.valueSeen) {
          cell.valueSeen = true;
          cell.reading = depth;
        } else if (depth === 5 && name === 'is' && !cell.inline && cell.type === 'inlineStr') {
          cell.inline = new RichText(5);
        }
      }
    },
    close(_name, depth) {
      if (state !== 'in') return;
      if (depth === 2) state = 'after';
      else if (depth === 3 && values) {
        if (values.length === 0) cells.addCells(1);
        rows.push(values);
        values = undefined;
      } else if (depth === 4 && cell && values) {
        const text = cellText(cell.type, cell.raw, cell.inline?.text, strings);
        const column = columnIndex(cell.reference) ?? values.length;
        cell = undefined;
        if (column > values.length + 16_384) return;
        if (column >= values.length) cells.addCells(column + 1 - values.length);
        cells.addText(text);
        while (values.length < column) values.push('');
        values[column] = text;
      } else if (cell) {
        if (depth === cell.reading) cell.reading = 0;
        else if (cell.inline && !cell.inlineDone) {
          if (depth === 5) cell.inlineDone = true;
          else cell.inline.close(depth);
        }
      }
    },
    text(source, start, end, cdata) {
      if (!cell) return;
      if (cell.reading !== 0) cell.raw += xmlText(source, start, end, cdata);
      else if (!cell.inlineDone) cell.inline?.add(source, start, end, cdata);
    },
  });
  return rows;
}

const SHEET_PART = /^xl\/worksheets\/[^/]+\.xml$/;

/**
 * An Excel (.xlsx) workbook, read from its XML parts: for each sheet, in workbook order, a `subtitle` with
 * the sheet's name and a `table` block of its rows (first row as header when it looks like one). Cells
 * show their stored values: formulas their last result, dates as serial numbers. Parts are unpacked one
 * at a time within `maxXmlBytes`; sheets and shared strings are read streaming (no DOM), within `maxCells`
 * and `maxChars`.
 */
export function extractXlsx(bytes: Buffer, ctx: ExtractContext): ExtractedDocument {
  const { zip, budget } = openOfficePackage(bytes, ctx, {
    label: 'XLSX',
    mainPart: 'xl/workbook.xml',
    reads: {
      names: ['xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/sharedStrings.xml', 'docProps/core.xml'],
      pattern: SHEET_PART,
    },
  });
  const cells = new CellBudget(ctx);
  const blocks: Block[] = [];
  try {
    const rels = relationships(zip.text('xl/_rels/workbook.xml.rels'), 'xl/', budget);
    const strings = sharedStrings(zip.text('xl/sharedStrings.xml'), budget);
    const root = rootElement(budget.parse(zip.text('xl/workbook.xml') ?? ''));
    const sheets = root ? child(root, 'sheets') : undefined;
    for (const sheet of sheets ? children(sheets, 'sheet') : []) {
      throwIfAborted(ctx.signal);
      const path = rels.get(attribute(sheet, 'id', 'r:id') ?? '')?.target;
      const xml = path === undefined || !SHEET_PART.test(path) ? undefined : zip.text(path);
      if (xml === undefined) continue;
      const table = tableBlock(sheetRows(xml, strings, budget, cells), 'guess');
      if (!table) continue;
      const name = (attribute(sheet, 'name') ?? '').trim();
      if (name !== '') blocks.push({ type: 'subtitle', text: name, level: 2 });
      blocks.push(table);
    }
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    throw asExtractionError(error, ctx.key, 'XLSX');
  }
  const document: ExtractedDocument = { blocks };
  const title = coreTitle(zip.text('docProps/core.xml'), budget);
  if (title !== undefined) document.title = title;
  return document;
}
