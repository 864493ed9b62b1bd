import type { Block, ExtractedDocument } from '../../types.js';
import { type ExtractContext, tooLarge, unreadable } from './options.js';
import { decodeText } from './text-util.js';

/** Deepest nesting followed; deeper values are written as compact JSON on their path's line. */
const MAX_DEPTH = 32;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isRecord = (value: Json): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function scalar(value: Json): string {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ').trim();
  return JSON.stringify(value);
}

function keyPath(path: string, key: string): string {
  const safe = /^[\p{L}\p{N}_$-]+$/u.test(key) ? key : JSON.stringify(key);
  return path === '' ? safe : `${path}.${safe}`;
}

/**
 * Flattens JSON into `path: value` lines grouped into records: each object inside an array is a record of
 * its own (one block), so a list of products or FAQ entries gives one block per entry; the lines outside
 * any such array form the blocks between them. Arrays of scalars are one line (`tags: a, b, c`).
 */
class JsonFlattener {
  readonly blocks: Block[] = [];
  private lines: string[] = [];
  private chars = 0;

  constructor(private readonly ctx: ExtractContext) {}

  private line(text: string): void {
    this.chars += text.length + 1;
    if (this.chars > this.ctx.maxChars) throw tooLarge(this.ctx.key, 'characters of text', this.ctx.maxChars);
    this.lines.push(text);
  }

  /** Ends the current record. */
  flush(): void {
    if (this.lines.length > 0) this.blocks.push({ type: 'paragraph', text: this.lines.join('\n') });
    this.lines = [];
  }

  visit(value: Json, path: string, depth: number): void {
    const label = path === '' ? 'value' : path;
    if (depth > MAX_DEPTH && typeof value === 'object' && value !== null) {
      this.line(`${label}: ${JSON.stringify(value)}`);
    } else if (Array.isArray(value)) {
      if (value.length === 0) return;
      if (value.every((item) => typeof item !== 'object' || item === null)) {
        this.line(`${label}: ${value.map(scalar).join(', ')}`);
        return;
      }
      value.forEach((item, index) => {
        const itemPath = `${path}[${index}]`;
        if (isRecord(item) || Array.isArray(item)) {
          this.flush();
          this.visit(item, itemPath, depth + 1);
          this.flush();
        } else {
          this.visit(item, itemPath, depth + 1);
        }
      });
    } else if (isRecord(value)) {
      for (const [key, item] of Object.entries(value)) this.visit(item, keyPath(path, key), depth + 1);
    } else if (value !== null && scalar(value) !== '') {
      this.line(`${label}: ${scalar(value)}`);
    }
  }
}

/**
 * JSON (or JSON Lines with `lines`: one value a line) as `paragraph` blocks of `path: value` lines, one
 * block per record (see JsonFlattener). Invalid JSON is `unreadable_document`, naming the parse error.
 */
export function extractJson(bytes: Buffer, ctx: ExtractContext, lines = false): ExtractedDocument {
  const text = decodeText(bytes, ctx.key).replace(/^\uFEFF/, '');
  let value: Json;
  try {
    value = lines
      ? text
          .split(/\r?\n/)
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as Json)
      : (JSON.parse(text) as Json);
  } catch (error) {
    throw unreadable(ctx.key, 'JSON', error);
  }
  const flattener = new JsonFlattener(ctx);
  flattener.visit(value, '', 0);
  flattener.flush();
  const document: ExtractedDocument = { blocks: flattener.blocks };
  if (isRecord(value) && typeof value.title === 'string' && value.title.trim() !== '')
    document.title = value.title.trim();
  return document;
}
