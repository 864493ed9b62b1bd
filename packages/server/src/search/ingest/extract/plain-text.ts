import type { Block, ExtractedDocument } from '../../types.js';
import type { ExtractContext } from './options.js';
import { decodeText, LIST_ITEM } from './text-util.js';

/**
 * Plain text: paragraphs split on blank lines, line breaks inside a paragraph kept. A paragraph whose
 * every line is a list item (or continues one, indented) becomes one `list` block per item.
 */
export function extractPlainText(bytes: Buffer, ctx: ExtractContext): ExtractedDocument {
  return { blocks: textBlocks(decodeText(bytes, ctx.key)) };
}

/** The blocks of a plain text string. */
function textBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const normalized = text.replace(/\r\n?/g, '\n');
  for (const paragraph of normalized.split(/\n[ \t]*\n/)) {
    const lines = paragraph
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== '');
    if (lines.length === 0) continue;
    const first = lines[0] ?? '';
    const isList = LIST_ITEM.test(first) && lines.every((line) => LIST_ITEM.test(line) || /^\s/.test(line));
    if (!isList) {
      blocks.push({ type: 'paragraph', text: lines.join('\n').trim() });
      continue;
    }
    let item = '';
    for (const line of lines) {
      if (LIST_ITEM.test(line)) {
        if (item !== '') blocks.push({ type: 'list', text: item });
        item = line.trim();
      } else {
        item += ` ${line.trim()}`;
      }
    }
    if (item !== '') blocks.push({ type: 'list', text: item });
  }
  return blocks;
}
