import { createRequire } from 'node:module';
import { ExtractionError } from '../../types.js';
import type { ExtractContext } from './options.js';
import { scanXml, type XmlEvents } from './xml-scan.js';

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
