import { Lexer, type MarkedToken, type Token, type Tokens } from 'marked';
import { parse as parseHtml } from 'node-html-parser';
import type { Block, ExtractedDocument } from '../types.js';
import type { ExtractContext } from './options.js';
import { decodeEntities, decodeText, normalizeSpace, tableBlock } from './text-util.js';

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;

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
  const walker = new MarkdownWalker();
  walker.walk(Lexer.lex(source, { gfm: true }));
  title ??= walker.blocks.find((block) => block.type === 'title')?.text;
  const document: ExtractedDocument = { blocks: walker.blocks };
  if (title) document.title = title;
  return document;
}
