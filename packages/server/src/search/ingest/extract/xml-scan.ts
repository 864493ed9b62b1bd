// Reading XML as a stream of events, without building anything: the bounded scan every Office part goes
// through before a DOM is built (see XmlBudget in xml.ts).
import { tooLarge } from './options.js';

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

/** The bounds of one scan. */
export interface ScanLimits {
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
export function scanXml(source: string, limits: ScanLimits, events: XmlEvents = {}): number {
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
