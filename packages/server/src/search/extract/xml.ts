import { createRequire } from 'node:module';
import { ExtractionError } from '../types.js';
import { type ExtractContext, tooLarge } from './options.js';

/**
 * The few DOM members the Office readers use. `@xmldom/xmldom` is loaded through `require` with these
 * types instead of its own, which pull the whole DOM library into the compilation.
 */
export interface XmlNode {
  readonly nodeType: number;
  readonly localName: string | null;
  readonly nodeValue: string | null;
  readonly childNodes: ArrayLike<XmlNode>;
  readonly parentNode: XmlNode | null;
  getAttribute?(name: string): string | null;
  readonly attributes?: ArrayLike<{ readonly localName: string | null; readonly value: string }>;
}

interface XmlParser {
  parseFromString(source: string, mimeType: string): XmlNode;
}

type XmlParserClass = new (options: {
  errorHandler: {
    warning(message: string): void;
    error(message: string): void;
    fatalError(message: string): void;
  };
}) => XmlParser;

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;

let parserClass: XmlParserClass | undefined;

/** Parses an XML document; malformed XML throws. Unbounded: reach it through XmlBudget.parse. */
function parseXml(source: string): XmlNode {
  parserClass ??= (createRequire(import.meta.url)('@xmldom/xmldom') as { DOMParser: XmlParserClass })
    .DOMParser;
  const fail = (message: string): never => {
    throw new Error(`malformed XML: ${message.split('\n')[0] ?? message}`);
  };
  const parser = new parserClass({ errorHandler: { warning: () => {}, error: fail, fatalError: fail } });
  return parser.parseFromString(source, 'text/xml');
}

/** An element's start tag, as a streaming read sees it. */
export interface XmlTag {
  /** An attribute by local name, whatever its prefix (namespace declarations excluded), entities decoded. */
  attribute(localName: string): string | undefined;
}

/** What a streaming read of XML reports, in document order. Depth is 1 for the root element. */
export interface XmlEvents {
  /** An element starts (`name` is its local name). */
  open?(name: string, depth: number, tag: XmlTag): void;
  /** The element opened at `depth` ends (right after `open` for an empty element). */
  close?(name: string, depth: number): void;
  /**
   * Character data directly inside the element at `depth`: `source.slice(start, end)`, with entities
   * still encoded unless `cdata` (read it with `xmlText`).
   */
  text?(source: string, start: number, end: number, cdata: boolean, depth: number): void;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the predefined XML entities and character references (others are left as written). */
export function decodeXml(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/g, (whole, name: string) => {
    if (!name.startsWith('#')) return XML_ENTITIES[name] ?? whole;
    const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The text an XmlEvents.text call reports, decoded. */
export function xmlText(source: string, start: number, end: number, cdata: boolean): string {
  const raw = source.slice(start, end);
  return cdata ? raw : decodeXml(raw);
}

const ATTRIBUTE = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

class StartTag implements XmlTag {
  constructor(
    private readonly source: string,
    private readonly start: number,
    private readonly end: number,
  ) {}

  attribute(localName: string): string | undefined {
    const attributes = this.source.slice(this.start, this.end);
    for (const match of attributes.matchAll(ATTRIBUTE)) {
      const name = match[1] ?? '';
      if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
      if (name.slice(name.indexOf(':') + 1) === localName) return decodeXml(match[2] ?? match[3] ?? '');
    }
    return undefined;
  }
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const BANG = 0x21;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function endsName(code: number): boolean {
  return (
    code === 0x20 ||
    code === 0x09 ||
    code === 0x0a ||
    code === 0x0d ||
    code === SLASH ||
    code === GT ||
    code === LT
  );
}

function malformed(message: string): Error {
  return new Error(`malformed XML: ${message}`);
}

/** Index just past the `>` that ends a DOCTYPE declaration, its internal subset and quotes skipped. */
function skipDoctype(source: string, from: number): number {
  let quote = 0;
  let brackets = 0;
  for (let i = from; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (quote !== 0) {
      if (code === quote) quote = 0;
    } else if (code === QUOTE || code === APOSTROPHE) quote = code;
    else if (code === OPEN_BRACKET) brackets++;
    else if (code === CLOSE_BRACKET) brackets--;
    else if (code === GT && brackets <= 0) return i + 1;
  }
  throw malformed('unterminated DOCTYPE');
}

interface ScanLimits {
  key: string;
  maxDepth: number;
  /** Elements this part may still have. */
  elementsLeft: number;
  /** The document's element limit, for the message. */
  maxElements: number;
}

/**
 * Reads well-formed XML without building anything: checks that tags nest and close, counts elements
 * (`too_large` past `elementsLeft`) and nesting (`too_large` past `maxDepth`), and reports to `events`.
 * Iterative, so deep nesting cannot overflow the stack. Returns the number of elements.
 */
function scanXml(source: string, limits: ScanLimits, events: XmlEvents = {}): number {
  const open: string[] = [];
  const length = source.length;
  let elements = 0;
  let pos = 0;
  while (pos < length) {
    const lt = source.indexOf('<', pos);
    const textEnd = lt === -1 ? length : lt;
    if (textEnd > pos && open.length > 0) events.text?.(source, pos, textEnd, false, open.length);
    if (lt === -1) break;
    const next = source.charCodeAt(lt + 1);
    if (next === SLASH) {
      const gt = source.indexOf('>', lt + 2);
      if (gt === -1) throw malformed('unterminated end tag');
      const name = source.slice(lt + 2, gt).trimEnd();
      const started = open.pop();
      if (started !== name) {
        throw malformed(
          started === undefined ? `</${name}> ends no element` : `</${name}> ends <${started}>`,
        );
      }
      events.close?.(name.slice(name.indexOf(':') + 1), open.length + 1);
      pos = gt + 1;
    } else if (next === QUESTION) {
      const end = source.indexOf('?>', lt + 2);
      if (end === -1) throw malformed('unterminated processing instruction');
      pos = end + 2;
    } else if (next === BANG) {
      if (source.startsWith('--', lt + 2)) {
        const end = source.indexOf('-->', lt + 4);
        if (end === -1) throw malformed('unterminated comment');
        pos = end + 3;
      } else if (source.startsWith('[CDATA[', lt + 2)) {
        const end = source.indexOf(']]>', lt + 9);
        if (end === -1) throw malformed('unterminated CDATA section');
        if (open.length === 0) throw malformed('CDATA outside the root element');
        events.text?.(source, lt + 9, end, true, open.length);
        pos = end + 3;
      } else if (source.startsWith('DOCTYPE', lt + 2) && open.length === 0 && elements === 0) {
        pos = skipDoctype(source, lt + 9);
      } else {
        throw malformed('unexpected <!');
      }
    } else {
      let at = lt + 1;
      while (at < length && !endsName(source.charCodeAt(at))) at++;
      if (at === lt + 1) throw malformed('a < that starts no tag');
      const name = source.slice(lt + 1, at);
      const attributesStart = at;
      let quote = 0;
      for (; at < length; at++) {
        const code = source.charCodeAt(at);
        if (quote !== 0) {
          if (code === quote) quote = 0;
        } else if (code === QUOTE || code === APOSTROPHE) quote = code;
        else if (code === GT) break;
        else if (code === LT) throw malformed(`< inside the tag <${name}>`);
      }
      if (at >= length) throw malformed(`unterminated tag <${name}>`);
      if (open.length === 0 && elements > 0) throw malformed('more than one root element');
      elements++;
      if (elements > limits.elementsLeft) throw tooLarge(limits.key, 'XML elements', limits.maxElements);
      const depth = open.length + 1;
      if (depth > limits.maxDepth) throw tooLarge(limits.key, 'levels of XML nesting', limits.maxDepth);
      const empty = source.charCodeAt(at - 1) === SLASH;
      const local = name.slice(name.indexOf(':') + 1);
      events.open?.(local, depth, new StartTag(source, attributesStart, empty ? at - 1 : at));
      if (empty) events.close?.(local, depth);
      else open.push(name);
      pos = at + 1;
    }
  }
  if (open.length > 0) throw malformed(`<${open[open.length - 1]}> is not closed`);
  if (elements === 0) throw malformed('no root element');
  return elements;
}

/**
 * The XML bounds of one document, shared by all its parts: `maxElements` over the parts built into a DOM
 * (a DOM costs 10–20× its text, mammoth's ~2 KB an element), `maxDepth` for every part. Past either, the
 * document fails `too_large`; both are checked by a streaming scan before any DOM exists.
 */
export class XmlBudget {
  private elements = 0;

  constructor(
    private readonly key: string,
    private readonly maxElements: number,
    private readonly maxDepth: number,
  ) {}

  /** The budget of the document `ctx` describes. */
  static of(ctx: ExtractContext): XmlBudget {
    return new XmlBudget(ctx.key, ctx.maxElements, ctx.maxDepth);
  }

  /** Counts the elements of a part about to become a DOM, here or in a library; malformed XML throws. */
  check(source: string): void {
    this.elements += scanXml(source, {
      key: this.key,
      maxDepth: this.maxDepth,
      elementsLeft: this.maxElements - this.elements,
      maxElements: this.maxElements,
    });
  }

  /** A part parsed into a DOM once `check` has passed. */
  parse(source: string): XmlNode {
    this.check(source);
    return parseXml(source);
  }

  /**
   * Reads a part as events, with no DOM: only its nesting is bounded here (the elements are not counted
   * against `maxElements`), so `events` must bound what it keeps.
   */
  stream(source: string, events: XmlEvents): void {
    scanXml(
      source,
      {
        key: this.key,
        maxDepth: this.maxDepth,
        elementsLeft: Number.POSITIVE_INFINITY,
        maxElements: this.maxElements,
      },
      events,
    );
  }
}

/** Element children of `node`, optionally only those with local name `name`. */
export function children(node: XmlNode, name?: string): XmlNode[] {
  const out: XmlNode[] = [];
  for (let i = 0; i < node.childNodes.length; i++) {
    const child = node.childNodes[i];
    if (child && child.nodeType === ELEMENT && (name === undefined || child.localName === name))
      out.push(child);
  }
  return out;
}

/** The first element child named `name`. */
export function child(node: XmlNode, name: string): XmlNode | undefined {
  return children(node, name)[0];
}

/** Descendant elements with local name `name`, in document order; `stopAt` names subtrees not entered. */
export function descendants(node: XmlNode, name: string, stopAt?: ReadonlySet<string>): XmlNode[] {
  const out: XmlNode[] = [];
  const visit = (current: XmlNode): void => {
    for (const element of children(current)) {
      if (element.localName === name) out.push(element);
      if (!stopAt?.has(element.localName ?? '')) visit(element);
    }
  };
  visit(node);
  return out;
}

/** An attribute by local name, whatever its namespace prefix (`r:id` → `id` finds the first `id`). */
export function attribute(node: XmlNode, localName: string, prefixed?: string): string | undefined {
  if (prefixed !== undefined) {
    const value = node.getAttribute?.(prefixed);
    if (value) return value;
  }
  const attributes = node.attributes;
  if (!attributes) return undefined;
  for (let i = 0; i < attributes.length; i++) {
    const attr = attributes[i];
    if (attr && attr.localName === localName) return attr.value;
  }
  return undefined;
}

/** All text under `node`, in order. */
export function textContent(node: XmlNode): string {
  if (node.nodeType === TEXT || node.nodeType === CDATA) return node.nodeValue ?? '';
  let text = '';
  for (let i = 0; i < node.childNodes.length; i++) {
    const part = node.childNodes[i];
    if (part) text += textContent(part);
  }
  return text;
}

/** The root element of a parsed document. */
export function rootElement(document: XmlNode): XmlNode | undefined {
  return children(document)[0];
}

/** The targets of a `.rels` part by relationship id, resolved against `baseDir` (e.g. `ppt/`). */
export function relationships(
  relsXml: string | undefined,
  baseDir: string,
  budget: XmlBudget,
): Map<string, { target: string; type: string }> {
  const map = new Map<string, { target: string; type: string }>();
  if (relsXml === undefined) return map;
  const root = rootElement(budget.parse(relsXml));
  if (!root) return map;
  for (const rel of children(root, 'Relationship')) {
    const id = attribute(rel, 'Id');
    const target = attribute(rel, 'Target');
    if (id === undefined || target === undefined || attribute(rel, 'TargetMode') === 'External') continue;
    map.set(id, { target: resolvePartPath(baseDir, target), type: attribute(rel, 'Type') ?? '' });
  }
  return map;
}

/** A part name from a relationship target: absolute (`/xl/x.xml`) or relative to `baseDir`, `..` resolved. */
export function resolvePartPath(baseDir: string, target: string): string {
  const joined = target.startsWith('/') ? target.slice(1) : `${baseDir}${target}`;
  const parts: string[] = [];
  for (const part of joined.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/** `dc:title` of `docProps/core.xml`, if set; a malformed part has none, one over the budget fails. */
export function coreTitle(coreXml: string | undefined, budget: XmlBudget): string | undefined {
  if (coreXml === undefined) return undefined;
  try {
    const root = rootElement(budget.parse(coreXml));
    const title = root ? child(root, 'title') : undefined;
    const text = title ? textContent(title).replace(/\s+/g, ' ').trim() : '';
    return text === '' ? undefined : text;
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    return undefined;
  }
}
