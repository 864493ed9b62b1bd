import { Lexer, type MarkedToken, type Token, type Tokens } from 'marked';
import { parse as parseHtml } from 'node-html-parser';
import type { Block, ExtractedDocument } from '../../types.js';
import { type ExtractContext, tooLarge } from './options.js';
import { decodeEntities, decodeText, normalizeSpace, tableBlock } from './text-util.js';

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;

/**
 * Deepest container nesting (block quotes and list items) the lexer is given. marked re-lexes a container's
 * content once per level, so its time grows with the depth times the size: 5 MB nested thousands deep held
 * a reader for its whole time bound. Real documents nest a few levels.
 */
export const MAX_MARKDOWN_NESTING = 32;

/**
 * The lexer's work on nested Markdown that a document may need, as a multiple of `maxChars`: every nested
 * line counts its characters plus NESTED_LINE_COST (a container's own cost), times its depth. Text at depth
 * 0 never counts, so nesting alone decides.
 */
export const NESTED_WORK_FACTOR = 2;
/** What one nested line costs the lexer at each level besides its characters (measured: ~30 characters). */
export const NESTED_LINE_COST = 32;

const isBlank = (code: number) => code === 32 || code === 9;
const isDigit = (code: number) => code >= 48 && code <= 57;
/** A thematic break (`- - -`, `* * *`, `___`): markers that open no container. */
const THEMATIC_BREAK = /^[ \t]*([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/**
 * How deep the line from `start` to `end` nests: the block quote (`>`) and list markers (`-`, `+`, `*`,
 * `1.`, `1)`) it starts with, plus a level for every two columns its first marker is indented (nested list
 * items are indented under their parent). An estimate made without parsing, never below the real depth of
 * the markers it counts.
 */
function lineDepth(source: string, start: number, end: number): number {
  let i = start;
  let depth = 0;
  let indent = 0;
  for (;;) {
    let columns = 0;
    while (i < end && isBlank(source.charCodeAt(i))) {
      columns += source.charCodeAt(i) === 9 ? 4 : 1;
      i++;
    }
    if (i >= end) break;
    const code = source.charCodeAt(i);
    let after = -1;
    if (code === 62) after = i + 1;
    else if (code === 45 || code === 42 || code === 43) after = i + 1;
    else if (isDigit(code)) {
      let j = i + 1;
      while (j < end && j - i < 9 && isDigit(source.charCodeAt(j))) j++;
      const next = source.charCodeAt(j);
      if (j < end && (next === 46 || next === 41)) after = j + 1;
    }
    // A list marker needs a blank (or the line's end) after it; `>` does not.
    if (after < 0 || (code !== 62 && after < end && !isBlank(source.charCodeAt(after)))) break;
    if (depth === 0) indent = columns;
    depth++;
    i = after;
  }
  if (depth > 2 && THEMATIC_BREAK.test(source.slice(start, end))) return 0;
  return depth === 0 ? 0 : depth + Math.floor(indent / 2);
}

/**
 * Refuses, before the lexer runs, Markdown whose nesting would make it slow: a line nested deeper than
 * MAX_MARKDOWN_NESTING, or nested lines whose characters (plus NESTED_LINE_COST each) times their depth
 * add up to more than NESTED_WORK_FACTOR × `maxChars` (the lexer's work). One pass over the text, stopping at the first line over a bound.
 */
function checkNesting(source: string, ctx: ExtractContext): void {
  const budget = NESTED_WORK_FACTOR * ctx.maxChars;
  let work = 0;
  for (let start = 0; start < source.length; ) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    const depth = lineDepth(source, start, end);
    if (depth > MAX_MARKDOWN_NESTING)
      throw tooLarge(ctx.key, 'levels of Markdown nesting', MAX_MARKDOWN_NESTING);
    if (depth > 0) work += (end - start + 1 + NESTED_LINE_COST) * depth;
    if (work > budget)
      throw tooLarge(ctx.key, 'characters of nested Markdown (counted once per level of nesting)', budget);
    start = end + 1;
  }
}

/** Plain text of inline tokens: markup dropped, link text and image alt kept, entities decoded. */
function inlineText(tokens: readonly Token[] | undefined): string {
  if (!tokens) return '';
  let text = '';
  for (const token of tokens as readonly MarkedToken[]) {
    switch (token.type) {
      case 'text':
        text += token.tokens ? inlineText(token.tokens) : decodeEntities(token.text);
        break;
      case 'escape':
      case 'codespan':
        text += decodeEntities(token.text);
        break;
      case 'image':
        text += token.text;
        break;
      case 'br':
        text += ' ';
        break;
      case 'html':
      case 'checkbox':
      case 'def':
      case 'space':
      case 'hr':
        break;
      default:
        text += 'tokens' in token ? inlineText(token.tokens) : '';
    }
  }
  return text;
}

/** Plain text of block tokens (a blockquote's content), one line per paragraph. */
function blockText(tokens: readonly Token[]): string {
  const lines: string[] = [];
  for (const token of tokens as readonly MarkedToken[]) {
    if (token.type === 'paragraph' || token.type === 'heading' || token.type === 'text') {
      lines.push(normalizeSpace(inlineText(token.tokens ?? [token])));
    } else if (token.type === 'list') {
      for (const item of token.items) lines.push(normalizeSpace(`- ${blockText(item.tokens)}`));
    } else if (token.type === 'code') {
      lines.push(token.text);
    } else if (token.type === 'blockquote') {
      lines.push(blockText(token.tokens));
    }
  }
  return lines.filter((line) => line !== '').join('\n');
}

class MarkdownWalker {
  readonly blocks: Block[] = [];

  private push(block: Block): void {
    if (block.text.trim() !== '') this.blocks.push(block);
  }

  walk(tokens: readonly Token[]): void {
    for (const token of tokens as readonly MarkedToken[]) {
      switch (token.type) {
        case 'heading': {
          const level = Math.min(6, Math.max(1, token.depth));
          this.push({
            type: level === 1 ? 'title' : 'subtitle',
            text: normalizeSpace(inlineText(token.tokens)),
            level,
          });
          break;
        }
        case 'paragraph': {
          const onlyImages = token.tokens.every(
            (part) => part.type === 'image' || (part.type === 'text' && part.text.trim() === ''),
          );
          this.push({
            type: onlyImages ? 'image' : 'paragraph',
            text: normalizeSpace(inlineText(token.tokens)),
          });
          break;
        }
        case 'text':
          this.push({ type: 'paragraph', text: normalizeSpace(inlineText(token.tokens ?? [token])) });
          break;
        case 'list':
          this.list(token, 0);
          break;
        case 'code':
          this.push({ type: 'code', text: token.text.replace(/\s+$/, '') });
          break;
        case 'table': {
          const rows = [token.header, ...token.rows].map((row) =>
            row.map((cell) => normalizeSpace(inlineText(cell.tokens))),
          );
          const block = tableBlock(rows, 'first');
          if (block) this.push(block);
          break;
        }
        case 'blockquote':
          this.push({ type: 'blockquote', text: blockText(token.tokens) });
          break;
        case 'html':
          this.push({ type: 'paragraph', text: normalizeSpace(parseHtml(token.text).text) });
          break;
        default:
          break;
      }
    }
  }

  /** One `list` block per item (`- ` or `n. `, `[x] ` for tasks), nested items indented two spaces a level. */
  private list(list: Tokens.List, depth: number): void {
    let number = typeof list.start === 'number' ? list.start : 1;
    for (const item of list.items) {
      const own: Token[] = [];
      const nested: Tokens.List[] = [];
      for (const part of item.tokens as readonly MarkedToken[]) {
        if (part.type === 'list') nested.push(part);
        else own.push(part);
      }
      const marker = list.ordered ? `${number}.` : '-';
      number++;
      const task = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
      const text = normalizeSpace(blockText(own).replace(/\n/g, ' '));
      if (text !== '') this.push({ type: 'list', text: `${'  '.repeat(depth)}${marker} ${task}${text}` });
      for (const sub of nested) this.list(sub, depth + 1);
    }
  }
}

/**
 * Markdown through the marked lexer (GFM): `#` → title, `##`–`######` → subtitle, paragraphs, list items,
 * fenced and indented code, tables (header row apart), blockquotes; inline markup is dropped. A YAML
 * front matter block is skipped, its `title:` used as the document title (else the first `#` heading).
 * Nesting past MAX_MARKDOWN_NESTING levels, or too much nested text, fails `too_large` before parsing.
 */
export function extractMarkdown(bytes: Buffer, ctx: ExtractContext): ExtractedDocument {
  let source = decodeText(bytes, ctx.key).replace(/\r\n?/g, '\n');
  let title: string | undefined;
  const frontMatter = FRONT_MATTER.exec(source);
  if (frontMatter) {
    source = source.slice(frontMatter[0].length);
    const titleLine = /^title:\s*(.+)$/m.exec(frontMatter[1] ?? '');
    if (titleLine?.[1]) title = titleLine[1].trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  checkNesting(source, ctx);
  const walker = new MarkdownWalker();
  walker.walk(Lexer.lex(source, { gfm: true }));
  title ??= walker.blocks.find((block) => block.type === 'title')?.text;
  const document: ExtractedDocument = { blocks: walker.blocks };
  if (title) document.title = title;
  return document;
}
