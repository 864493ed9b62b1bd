import { type HTMLElement, type Node, NodeType, parse } from 'node-html-parser';
import type { Block, ExtractedDocument } from '../../types.js';
import { normalizeSpace, tableBlock } from './text-util.js';

/** Options of extractHtml beyond the markup itself. */
export interface HtmlExtractOptions {
  /**
   * A class marking the `h1` that is the document's title (mammoth marks Word's "Title" style so): when
   * present, it stays a level-1 title and every other heading moves one level down (h1 → 2, … capped at 6).
   */
  titleClass?: string;
}

/** Elements whose content is never indexed. */
const SKIPPED = new Set([
  'script',
  'style',
  'nav',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'head',
  'button',
  'select',
  'textarea',
  'input',
  'form',
]);

/** Elements that end the running paragraph (everything else is inline). */
const BLOCK_ELEMENTS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'li',
  'main',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

const HEADING = /^h([1-6])$/;

function tagOf(node: Node): string {
  return node.nodeType === NodeType.ELEMENT_NODE
    ? ((node as HTMLElement).rawTagName?.toLowerCase() ?? '')
    : '';
}

/** Text of a subtree, with a space wherever a block element or `br` separates words; skipped parts left out. */
function textOf(node: Node, out: string[] = []): string[] {
  if (node.nodeType === NodeType.TEXT_NODE) {
    out.push(node.text);
  } else if (node.nodeType === NodeType.ELEMENT_NODE) {
    const tag = tagOf(node);
    if (SKIPPED.has(tag)) return out;
    if (tag === 'br' || BLOCK_ELEMENTS.has(tag)) out.push(' ');
    for (const child of node.childNodes) textOf(child, out);
    if (BLOCK_ELEMENTS.has(tag)) out.push(' ');
  }
  return out;
}

function plainText(node: Node): string {
  return normalizeSpace(textOf(node).join(''));
}

/** Text of a `pre`, whitespace kept, trailing blank lines dropped. */
function preText(node: HTMLElement): string {
  return node.text.replace(/\r\n?/g, '\n').replace(/^\n+|\s+$/g, '');
}

class HtmlWalker {
  readonly blocks: Block[] = [];
  private inline: string[] = [];

  constructor(
    private readonly titleClass: string | undefined,
    private readonly shift: number,
  ) {}

  walk(node: Node): void {
    for (const child of node.childNodes) this.visit(child);
  }

  flush(): void {
    const text = normalizeSpace(this.inline.join(''));
    this.inline = [];
    if (text !== '') this.blocks.push({ type: 'paragraph', text });
  }

  private push(block: Block): void {
    if (block.text.trim() !== '') this.blocks.push(block);
  }

  private visit(node: Node): void {
    if (node.nodeType === NodeType.TEXT_NODE) {
      this.inline.push(node.text);
      return;
    }
    if (node.nodeType !== NodeType.ELEMENT_NODE) return;
    const element = node as HTMLElement;
    const tag = tagOf(element);
    if (SKIPPED.has(tag)) return;
    if (tag === 'br') {
      this.inline.push(' ');
      return;
    }
    if (tag === 'img') {
      const alt = normalizeSpace(element.getAttribute('alt') ?? '');
      if (alt !== '') {
        this.flush();
        this.push({ type: 'image', text: alt });
      }
      return;
    }
    if (!BLOCK_ELEMENTS.has(tag)) {
      this.walk(element);
      return;
    }
    this.flush();
    const heading = HEADING.exec(tag);
    if (heading) {
      const isTitle = this.titleClass !== undefined && element.classList.contains(this.titleClass);
      const level = isTitle ? 1 : Math.min(6, Number(heading[1]) + this.shift);
      this.push({ type: level === 1 ? 'title' : 'subtitle', text: plainText(element), level });
    } else if (tag === 'p') {
      this.walkParagraph(element);
    } else if (tag === 'ul' || tag === 'ol') {
      this.list(element, 0);
    } else if (tag === 'table') {
      this.table(element);
    } else if (tag === 'pre') {
      this.push({ type: 'code', text: preText(element) });
    } else if (tag === 'blockquote') {
      this.push({ type: 'blockquote', text: plainText(element) });
    } else {
      this.walk(element);
      this.flush();
    }
  }

  /** A paragraph is one block, but images inside it become their own blocks after it. */
  private walkParagraph(element: HTMLElement): void {
    this.push({ type: 'paragraph', text: plainText(element) });
    for (const img of element.querySelectorAll('img')) {
      const alt = normalizeSpace(img.getAttribute('alt') ?? '');
      if (alt !== '') this.push({ type: 'image', text: alt });
    }
  }

  /** One `list` block per item, `- ` or `n. ` first, nested items indented two spaces per level. */
  private list(element: HTMLElement, depth: number): void {
    const ordered = tagOf(element) === 'ol';
    let number = Number.parseInt(element.getAttribute('start') ?? '1', 10);
    if (!Number.isFinite(number)) number = 1;
    for (const child of element.childNodes) {
      const tag = tagOf(child);
      if (tag === 'ul' || tag === 'ol') {
        this.list(child as HTMLElement, depth + 1);
        continue;
      }
      if (tag !== 'li') continue;
      const item = child as HTMLElement;
      const own: string[] = [];
      const nested: HTMLElement[] = [];
      for (const part of item.childNodes) {
        const partTag = tagOf(part);
        if (partTag === 'ul' || partTag === 'ol') nested.push(part as HTMLElement);
        else textOf(part, own);
      }
      const text = normalizeSpace(own.join(''));
      const marker = ordered ? `${number}.` : '-';
      number++;
      if (text !== '') this.push({ type: 'list', text: `${'  '.repeat(depth)}${marker} ${text}` });
      for (const sub of nested) this.list(sub, depth + 1);
    }
  }

  /** One `table` block per table: the header row (th cells, or thead) apart, body rows as lines. */
  private table(element: HTMLElement): void {
    const rows: string[][] = [];
    let headerRow: string[] | undefined;
    for (const tr of element.querySelectorAll('tr')) {
      if (tr.closest('table') !== element) continue;
      const cells = tr.childNodes.filter(
        (cell) => tagOf(cell) === 'td' || tagOf(cell) === 'th',
      ) as HTMLElement[];
      const texts = cells.map((cell) => plainText(cell));
      const isHeader =
        rows.length === 0 &&
        headerRow === undefined &&
        ((tr.parentNode !== null && tagOf(tr.parentNode) === 'thead') ||
          (cells.length > 0 && cells.every((cell) => tagOf(cell) === 'th')));
      if (isHeader) headerRow = texts;
      else rows.push(texts);
    }
    const block = headerRow ? tableBlock([headerRow, ...rows], 'first') : tableBlock(rows, 'guess');
    if (!block) return;
    this.push(block);
  }
}

/**
 * Blocks of an HTML page: `<title>` as the document title, h1 → title, h2–h6 → subtitle (with level),
 * p → paragraph, li → list, table → table (cells separated by ` | `), pre → code, blockquote, img alt →
 * image; script, style, nav and form controls skipped.
 */
export function extractHtml(html: string, options: HtmlExtractOptions = {}): ExtractedDocument {
  const root = parse(html, {
    comment: false,
    lowerCaseTagName: true,
    blockTextElements: { script: true, noscript: true, style: true },
  });
  const titleClass = options.titleClass;
  const hasTitle = titleClass !== undefined && root.querySelector(`h1.${titleClass}`) !== null;
  const walker = new HtmlWalker(titleClass, hasTitle ? 1 : 0);
  const body = root.querySelector('body') ?? root;
  walker.walk(body);
  walker.flush();
  const document: ExtractedDocument = { blocks: walker.blocks };
  const title = normalizeSpace(root.querySelector('title')?.text ?? '');
  if (title !== '') document.title = title;
  return document;
}
