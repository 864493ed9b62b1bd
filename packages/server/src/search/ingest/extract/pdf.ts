import { getDocumentProxy } from 'unpdf';
import { type Block, type ExtractedDocument, ExtractionError } from '../../types.js';
import { type ExtractContext, raceAbort, throwIfAborted, tooLarge, unreadable } from './options.js';
import { LIST_ITEM } from './text-util.js';

/** A line of text on a page, as pdf.js lays it out. */
interface Line {
  text: string;
  /** Baseline height from the bottom of the page. */
  y: number;
  /** Font size. */
  size: number;
}

/** Consecutive lines read as one paragraph, list item or heading. */
interface Group {
  lines: Line[];
  list: boolean;
}

interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

function isTextItem(item: unknown): item is PdfTextItem {
  return typeof item === 'object' && item !== null && 'str' in item && 'transform' in item;
}

/** Lines of one page from its text items: a new line at an end-of-line mark or a change of baseline. */
function pageLines(items: readonly unknown[]): Line[] {
  const lines: Line[] = [];
  let current: (Line & { endX: number }) | undefined;
  const flush = (): void => {
    if (current && current.text.trim() !== '')
      lines.push({ text: current.text.trim(), y: current.y, size: current.size });
    current = undefined;
  };
  for (const item of items) {
    if (!isTextItem(item)) continue;
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    const size = Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0) || item.height || 1;
    if (item.str !== '') {
      if (current && Math.abs(current.y - y) > Math.max(current.size, size) * 0.5) flush();
      if (current) {
        const gap = x - current.endX;
        if (gap > size * 0.15 && !/\s$/.test(current.text) && !/^\s/.test(item.str)) current.text += ' ';
        current.text += item.str;
        current.size = Math.max(current.size, size);
        current.endX = x + item.width;
      } else {
        current = { text: item.str, y, size, endX: x + item.width };
      }
    }
    if (item.hasEOL) flush();
  }
  flush();
  return lines;
}

/** A line that is only a page number: `12`, `iv`, `Page 3`, `3 / 10`, `- 4 -`. */
const PAGE_NUMBER =
  /^[-–—\s]*(?:page\s+)?(?:\d{1,4}|(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))(?:\s*(?:\/|of)\s*\d{1,4})?[-–—\s]*$/i;

/**
 * Drops page furniture from the top and bottom lines of each page: lone page numbers, and
 * running headers or footers (the same text, digits aside, at the edge of at least half the pages, 3 or more),
 * except on the first page, where that text is often the document's title.
 */
function stripFurniture(pages: readonly Line[][]): Line[][] {
  const key = (line: Line): string => line.text.replace(/\d+/g, '#').replace(/\s+/g, ' ').toLowerCase();
  const edges = pages.map((lines) => {
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    for (const line of lines) {
      low = Math.min(low, line.y);
      high = Math.max(high, line.y);
    }
    return new Set(lines.filter((line) => line.y === low || line.y === high));
  });
  const counts = new Map<string, number>();
  for (const edge of edges) {
    for (const text of new Set([...edge].map(key))) counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  const threshold = pages.length >= 3 ? Math.max(3, Math.ceil(pages.length / 2)) : Number.POSITIVE_INFINITY;
  return pages.map((lines, index) =>
    lines.filter(
      (line) =>
        !edges[index]?.has(line) ||
        (!PAGE_NUMBER.test(line.text) && (index === 0 || (counts.get(key(line)) ?? 0) < threshold)),
    ),
  );
}

/** Dot leaders of a table of contents (`Introduction . . . . . 4`) shortened to an ellipsis. */
function dropLeaders(text: string): string {
  return text.replace(/(?:\s?\.){4,}/g, ' … ');
}

/** Groups lines into paragraphs and list items by line spacing, font size and list markers. */
function groupLines(lines: readonly Line[]): Group[] {
  const groups: Group[] = [];
  let current: Group | undefined;
  let previous: Line | undefined;
  for (const line of lines) {
    const startsItem = LIST_ITEM.test(line.text);
    const size = Math.max(line.size, previous?.size ?? 0);
    const gap = previous ? previous.y - line.y : 0;
    const breaks =
      current === undefined ||
      previous === undefined ||
      startsItem ||
      gap > size * 1.6 ||
      gap < -size ||
      Math.abs(line.size - previous.size) > Math.min(line.size, previous.size) * 0.15;
    if (breaks) {
      current = { lines: [line], list: startsItem };
      groups.push(current);
    } else {
      current?.lines.push(line);
    }
    previous = line;
  }
  return groups;
}

/** Lines of a paragraph joined with spaces; a word hyphenated across a line break is joined back. */
function joinLines(lines: readonly Line[]): string {
  let text = '';
  for (const line of lines) {
    if (text === '') text = line.text;
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(line.text)) text = text.slice(0, -1) + line.text;
    else text += ` ${line.text}`;
  }
  return dropLeaders(text).replace(/\s+/g, ' ').trim();
}

/** A line that ends a sentence (or introduces what follows): the next line may start a new paragraph. */
const SENTENCE_END = /[.!?:;…]["'”’)\]]*$/u;

/**
 * Paragraphs cut at a hard line break joined back: a paragraph whose last line ends without sentence
 * punctuation continues in the next one (on the same page or the next) when that one is no list item or
 * heading, is in the same font size, and starts in lower case or follows a line as long as the page's longest
 * (wrapped at the margin). Line spacing alone cuts such sentences: a document set 1.5 or 2 lines apart has a
 * gap between any two lines, and a paragraph can run over a page break. The joined paragraph keeps the page
 * it starts on.
 */
function joinContinuations(pageGroups: readonly Group[][], body: number): Array<Group & { page: number }> {
  const out: Array<Group & { page: number; heading: boolean }> = [];
  // The longest line of each page: a line about as long ended at the margin.
  const longest = pageGroups.map((groups) =>
    Math.max(0, ...groups.flatMap((g) => g.lines.map((l) => l.text.length))),
  );
  pageGroups.forEach((groups, index) => {
    for (const group of groups) {
      const heading = isHeading(group, body);
      const before = out.at(-1);
      const last = before?.lines.at(-1);
      const first = group.lines[0];
      const continues =
        before !== undefined &&
        last !== undefined &&
        first !== undefined &&
        !before.heading &&
        !heading &&
        !group.list &&
        Math.abs(first.size - last.size) <= Math.min(first.size, last.size) * 0.15 &&
        !SENTENCE_END.test(last.text) &&
        (/^[\p{Ll}\p{N}(]/u.test(first.text) ||
          (last.text.length >= 40 && last.text.length >= 0.6 * (longest[before.page - 1] ?? 0)));
      if (continues) before.lines.push(...group.lines);
      else out.push({ lines: [...group.lines], list: group.list, page: index + 1, heading });
    }
  });
  return out;
}

const roundSize = (size: number): number => Math.round(size * 2) / 2;

/** The font size carrying the most characters: the body text's. */
function bodySize(pages: readonly (readonly Line[])[]): number {
  const weight = new Map<number, number>();
  for (const lines of pages) {
    for (const line of lines) {
      const size = roundSize(line.size);
      weight.set(size, (weight.get(size) ?? 0) + line.text.length);
    }
  }
  let best = 0;
  let bestWeight = -1;
  for (const [size, chars] of weight) {
    if (chars > bestWeight || (chars === bestWeight && size < best)) {
      best = size;
      bestWeight = chars;
    }
  }
  return best;
}

function isHeading(group: Group, body: number): boolean {
  const size = group.lines[0]?.size ?? 0;
  if (group.list || body === 0 || size < body * 1.2 || group.lines.length > 3) return false;
  const text = joinLines(group.lines);
  return /\p{L}/u.test(text) && text.split(/\s+/).length <= 25;
}

/**
 * A PDF through unpdf (its own pdf.js build; `pdfjs-dist` must not be loaded in the same process): text
 * per page, every block with its `pageNumber`. Paragraphs follow line spacing; lines in a larger font
 * than the body text become headings (the largest size title, smaller ones subtitles); lines starting with
 * a bullet or number become list items. Pages are read one at a time, within `maxPages` and the signal.
 */
export async function extractPdf(bytes: Buffer, ctx: ExtractContext): Promise<ExtractedDocument> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await raceAbort(
      getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false }),
      ctx.signal,
    );
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    if (error instanceof Error && error.name === 'PasswordException') {
      throw new ExtractionError(
        'unreadable_document',
        `"${ctx.key}" is a password-protected PDF; remove the password to index it.`,
      );
    }
    throw unreadable(ctx.key, 'PDF', error);
  }
  try {
    if (pdf.numPages > ctx.maxPages) throw tooLarge(ctx.key, 'pages', ctx.maxPages);
    const pages: Line[][] = [];
    let chars = 0;
    let firstFailure: unknown;
    let failures = 0;
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      throwIfAborted(ctx.signal);
      let items: readonly unknown[];
      try {
        const page = await raceAbort(pdf.getPage(pageNumber), ctx.signal);
        items = (await raceAbort(page.getTextContent(), ctx.signal)).items;
        page.cleanup();
      } catch (error) {
        // One damaged page does not sink the others; a PDF whose every page fails is unreadable.
        if (ctx.signal.aborted) throw error;
        firstFailure ??= error;
        failures++;
        items = [];
      }
      const lines = pageLines(items);
      for (const line of lines) chars += line.text.length;
      if (chars > ctx.maxChars) throw tooLarge(ctx.key, 'characters of text', ctx.maxChars);
      pages.push(lines);
    }
    if (failures > 0 && failures === pdf.numPages) throw unreadable(ctx.key, 'PDF', firstFailure);
    const content = stripFurniture(pages);
    const body = bodySize(content);
    const pageGroups = content.map(groupLines);
    const headingSizes = [
      ...new Set(
        pageGroups
          .flat()
          .flatMap((group) => (isHeading(group, body) ? [roundSize(group.lines[0]?.size ?? 0)] : [])),
      ),
    ].sort((a, b) => b - a);
    const blocks: Block[] = [];
    for (const group of joinContinuations(pageGroups, body)) {
      const pageNumber = group.page;
      const text = joinLines(group.lines);
      if (text === '') continue;
      if (isHeading(group, body)) {
        const level = Math.min(6, headingSizes.indexOf(roundSize(group.lines[0]?.size ?? 0)) + 1);
        blocks.push({ type: level === 1 ? 'title' : 'subtitle', text, level, pageNumber });
      } else {
        blocks.push({ type: group.list ? 'list' : 'paragraph', text, pageNumber });
      }
    }
    const document: ExtractedDocument = { blocks, pageCount: pdf.numPages };
    const info = await raceAbort(pdf.getMetadata(), ctx.signal).then(
      (metadata) => metadata.info as Record<string, unknown>,
      () => ({}) as Record<string, unknown>,
    );
    const metaTitle = typeof info.Title === 'string' ? info.Title.replace(/\s+/g, ' ').trim() : '';
    const title = metaTitle !== '' ? metaTitle : blocks.find((block) => block.type === 'title')?.text;
    if (title !== undefined) document.title = title;
    return document;
  } finally {
    await pdf.destroy().catch(() => {});
  }
}
