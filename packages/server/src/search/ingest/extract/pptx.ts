import type { Block, ExtractedDocument } from '../../types.js';
import { openOfficePackage } from './office-package.js';
import { asExtractionError, type ExtractContext, throwIfAborted, tooLarge } from './options.js';
import { tableBlock } from './text-util.js';
import {
  attribute,
  child,
  children,
  coreTitle,
  descendants,
  relationships,
  rootElement,
  textContent,
  type XmlBudget,
  type XmlNode,
} from './xml.js';

/** Placeholders that carry no content of the slide (slide number, date, footer, header, thumbnails). */
const SKIPPED_PLACEHOLDERS = new Set(['sldNum', 'dt', 'ftr', 'hdr', 'sldImg']);
/** Placeholders whose paragraphs are bulleted by default (the layout's body text). */
const BODY_PLACEHOLDERS = new Set(['body', 'obj', '']);

/** Text of a DrawingML paragraph (`a:p`): its runs and fields, `a:br` as a space. */
function paragraphText(paragraph: XmlNode): string {
  let text = '';
  for (const part of children(paragraph)) {
    if (part.localName === 'r' || part.localName === 'fld') {
      const t = child(part, 't');
      if (t) text += textContent(t);
    } else if (part.localName === 'br') {
      text += ' ';
    }
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** The placeholder type of a shape (`''` for a typed-less placeholder, undefined for a free text box). */
function placeholderType(shape: XmlNode): string | undefined {
  const nv = child(shape, 'nvSpPr');
  const nvPr = nv ? child(nv, 'nvPr') : undefined;
  const ph = nvPr ? child(nvPr, 'ph') : undefined;
  return ph ? (attribute(ph, 'type') ?? '') : undefined;
}

function shapeBlocks(shape: XmlNode, pageNumber: number, blocks: Block[], notes: boolean): void {
  const type = placeholderType(shape);
  if (type !== undefined && SKIPPED_PLACEHOLDERS.has(type)) return;
  if (notes && type !== 'body') return;
  const body = child(shape, 'txBody');
  if (!body) return;
  const paragraphs = children(body, 'p');
  if (type === 'title' || type === 'ctrTitle') {
    const text = paragraphs
      .map(paragraphText)
      .filter((line) => line !== '')
      .join(' ');
    if (text !== '') {
      const level = type === 'ctrTitle' ? 1 : 2;
      blocks.push({ type: level === 1 ? 'title' : 'subtitle', text, level, pageNumber });
    }
    return;
  }
  for (const paragraph of paragraphs) {
    const text = paragraphText(paragraph);
    if (text === '') continue;
    const properties = child(paragraph, 'pPr');
    const noBullet = properties ? child(properties, 'buNone') !== undefined : false;
    const explicitBullet = properties
      ? child(properties, 'buChar') !== undefined || child(properties, 'buAutoNum') !== undefined
      : false;
    const bulleted =
      !notes && (explicitBullet || (type !== undefined && BODY_PLACEHOLDERS.has(type) && !noBullet));
    if (bulleted) {
      const level = Number(properties ? (attribute(properties, 'lvl') ?? '0') : '0') || 0;
      blocks.push({ type: 'list', text: `${'  '.repeat(Math.min(level, 8))}- ${text}`, pageNumber });
    } else {
      blocks.push({ type: 'paragraph', text, pageNumber });
    }
  }
}

function tableRows(table: XmlNode): string[][] {
  return children(table, 'tr').map((row) =>
    children(row, 'tc').map((cell) => {
      const body = child(cell, 'txBody');
      return body ? children(body, 'p').map(paragraphText).join(' ') : '';
    }),
  );
}

/** Blocks of a shape tree in document order: text shapes, tables, groups (recursively), picture alt text. */
function treeBlocks(tree: XmlNode, pageNumber: number, blocks: Block[], notes: boolean): void {
  for (const element of children(tree)) {
    switch (element.localName) {
      case 'sp':
        shapeBlocks(element, pageNumber, blocks, notes);
        break;
      case 'grpSp':
        treeBlocks(element, pageNumber, blocks, notes);
        break;
      case 'graphicFrame': {
        if (notes) break;
        for (const table of descendants(element, 'tbl')) {
          const properties = child(table, 'tblPr');
          const firstRow = properties ? attribute(properties, 'firstRow') : undefined;
          const block = tableBlock(
            tableRows(table),
            firstRow === '1' || firstRow === 'true' ? 'first' : 'guess',
            pageNumber,
          );
          if (block) blocks.push(block);
        }
        break;
      }
      case 'pic': {
        if (notes) break;
        const nv = child(element, 'nvPicPr');
        const properties = nv ? child(nv, 'cNvPr') : undefined;
        const alt = (properties ? (attribute(properties, 'descr') ?? '') : '').replace(/\s+/g, ' ').trim();
        if (alt !== '') blocks.push({ type: 'image', text: alt, pageNumber });
        break;
      }
      default:
        break;
    }
  }
}

function slideTree(xml: string | undefined, budget: XmlBudget): XmlNode | undefined {
  if (xml === undefined) return undefined;
  const root = rootElement(budget.parse(xml));
  const cSld = root ? child(root, 'cSld') : undefined;
  return cSld ? child(cSld, 'spTree') : undefined;
}

/** The parts a deck is read from: the presentation, its relationships, slides, notes and their relationships. */
const SLIDE_PART = /^ppt\/(slides|notesSlides)\/(_rels\/)?[^/]+\.xml(\.rels)?$/;

/**
 * A PowerPoint (.pptx) deck, read from its XML parts (fflate + xmldom): one page per slide, in the
 * presentation's order. A title slide's title is a `title` (level 1), slide titles are `subtitle`s (level
 * 2); body placeholders give `list` items, text boxes paragraphs, tables `table` blocks, picture alt text
 * `image` blocks, and the speaker notes paragraphs on the slide's page. Parts are unpacked one at a time
 * within `maxXmlBytes`, and each DOM is built only after a scan within `maxElements` and `maxDepth`.
 */
export function extractPptx(bytes: Buffer, ctx: ExtractContext): ExtractedDocument {
  const { zip, budget } = openOfficePackage(bytes, ctx, {
    label: 'PPTX',
    mainPart: 'ppt/presentation.xml',
    reads: {
      names: ['ppt/presentation.xml', 'ppt/_rels/presentation.xml.rels', 'docProps/core.xml'],
      pattern: SLIDE_PART,
    },
  });
  const part = (path: string): string | undefined => (SLIDE_PART.test(path) ? zip.text(path) : undefined);
  let slidePaths: string[];
  try {
    const rels = relationships(zip.text('ppt/_rels/presentation.xml.rels'), 'ppt/', budget);
    const root = rootElement(budget.parse(zip.text('ppt/presentation.xml') ?? ''));
    const list = root ? child(root, 'sldIdLst') : undefined;
    slidePaths = (list ? children(list, 'sldId') : [])
      .map((slide) => rels.get(attribute(slide, 'id', 'r:id') ?? '')?.target)
      .filter((path): path is string => path !== undefined && SLIDE_PART.test(path) && zip.has(path));
  } catch (error) {
    throw asExtractionError(error, ctx.key, 'PPTX');
  }
  if (slidePaths.length > ctx.maxPages) throw tooLarge(ctx.key, 'slides', ctx.maxPages);
  const blocks: Block[] = [];
  slidePaths.forEach((path, index) => {
    throwIfAborted(ctx.signal);
    const pageNumber = index + 1;
    try {
      const tree = slideTree(part(path), budget);
      if (tree) treeBlocks(tree, pageNumber, blocks, false);
      const name = path.slice(path.lastIndexOf('/') + 1);
      const slideRels = relationships(part(`ppt/slides/_rels/${name}.rels`), 'ppt/slides/', budget);
      for (const rel of slideRels.values()) {
        if (!rel.type.endsWith('/notesSlide')) continue;
        const notes = slideTree(part(rel.target), budget);
        if (notes) treeBlocks(notes, pageNumber, blocks, true);
      }
    } catch (error) {
      throw asExtractionError(error, ctx.key, 'PPTX');
    }
  });
  const document: ExtractedDocument = { blocks, pageCount: slidePaths.length };
  const title =
    coreTitle(zip.text('docProps/core.xml'), budget) ?? blocks.find((block) => block.type === 'title')?.text;
  if (title !== undefined) document.title = title;
  return document;
}
