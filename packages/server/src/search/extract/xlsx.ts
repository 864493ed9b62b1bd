import type { Block, ExtractedDocument } from '../types.js';
import { type ExtractContext, throwIfAborted, unreadable } from './options.js';
import { tableBlock } from './text-util.js';
import {
  attribute,
  child,
  children,
  coreTitle,
  parseXml,
  relationships,
  rootElement,
  textContent,
  type XmlNode,
} from './xml.js';
import { readZipTexts } from './zip.js';

/** Text of a rich string (`si` or `is`): its `t` and `r/t` runs; phonetic runs (`rPh`) left out. */
function richText(node: XmlNode): string {
  let text = '';
  for (const part of children(node)) {
    if (part.localName === 't') text += textContent(part);
    else if (part.localName === 'r') {
      const t = child(part, 't');
      if (t) text += textContent(t);
    }
  }
  return text;
}

/** The shared strings table. */
function sharedStrings(xml: string | undefined): string[] {
  if (xml === undefined) return [];
  const root = rootElement(parseXml(xml));
  return root ? children(root, 'si').map(richText) : [];
}

/** 0-based column of a cell reference (`C7` → 2). */
function columnIndex(reference: string | undefined): number | undefined {
  const letters = reference ? /^([A-Z]+)\d*$/i.exec(reference)?.[1] : undefined;
  if (!letters) return undefined;
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

function cellText(cell: XmlNode, strings: readonly string[]): string {
  const type = attribute(cell, 't') ?? 'n';
  const value = child(cell, 'v');
  const raw = value ? textContent(value) : '';
  switch (type) {
    case 's':
      return strings[Number(raw)] ?? '';
    case 'inlineStr': {
      const inline = child(cell, 'is');
      return inline ? richText(inline) : '';
    }
    case 'b':
      return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
    default:
      return raw;
  }
}

/** Rows of a worksheet, cells placed by their column reference (gaps filled with empty cells). */
function sheetRows(xml: string, strings: readonly string[]): string[][] {
  const root = rootElement(parseXml(xml));
  const data = root ? child(root, 'sheetData') : undefined;
  if (!data) return [];
  const rows: string[][] = [];
  for (const row of children(data, 'row')) {
    const values: string[] = [];
    for (const cell of children(row, 'c')) {
      const text = cellText(cell, strings);
      const column = columnIndex(attribute(cell, 'r')) ?? values.length;
      if (column > values.length + 16_384) continue;
      while (values.length < column) values.push('');
      values[column] = text;
    }
    rows.push(values);
  }
  return rows;
}

/**
 * An Excel (.xlsx) workbook, read from its XML parts (fflate + xmldom): for each sheet, in workbook order,
 * a `subtitle` with the sheet's name and a `table` block of its rows (first row as header when it looks
 * like one). Cells show their stored values: formulas their last result, dates as serial numbers.
 */
export function extractXlsx(bytes: Buffer, ctx: ExtractContext): ExtractedDocument {
  const parts = readZipTexts(
    bytes,
    ctx,
    'XLSX',
    (name) =>
      name === 'xl/workbook.xml' ||
      name === 'xl/_rels/workbook.xml.rels' ||
      name === 'xl/sharedStrings.xml' ||
      name === 'docProps/core.xml' ||
      /^xl\/worksheets\/[^/]+\.xml$/.test(name),
  );
  const workbook = parts.get('xl/workbook.xml');
  if (workbook === undefined) throw unreadable(ctx.key, 'XLSX', 'no xl/workbook.xml part');
  const blocks: Block[] = [];
  try {
    const rels = relationships(parts.get('xl/_rels/workbook.xml.rels'), 'xl/');
    const strings = sharedStrings(parts.get('xl/sharedStrings.xml'));
    const root = rootElement(parseXml(workbook));
    const sheets = root ? child(root, 'sheets') : undefined;
    for (const sheet of sheets ? children(sheets, 'sheet') : []) {
      throwIfAborted(ctx.signal);
      const path = rels.get(attribute(sheet, 'id', 'r:id') ?? '')?.target;
      const xml = path === undefined ? undefined : parts.get(path);
      if (xml === undefined) continue;
      const table = tableBlock(sheetRows(xml, strings), 'guess');
      if (!table) continue;
      const name = (attribute(sheet, 'name') ?? '').trim();
      if (name !== '') blocks.push({ type: 'subtitle', text: name, level: 2 });
      blocks.push(table);
    }
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    throw unreadable(ctx.key, 'XLSX', error);
  }
  const document: ExtractedDocument = { blocks };
  const title = coreTitle(parts.get('docProps/core.xml'));
  if (title !== undefined) document.title = title;
  return document;
}
