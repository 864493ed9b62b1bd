// Cutting a text into segments (sentences, lines, token windows) and packing them into pieces with
// overlap: the splitting of blocks too long for one passage (see chunk.ts).
import { tokenBounds } from './chunk-tokens.js';

/** A piece of a text: offsets into it, and its token count. Starts at a token (or line start), ends at one. */
export interface Segment {
  start: number;
  end: number;
  tokens: number;
}

/** The part of text[from, to) from its first token (or `from`, with `keepIndent`) to its last; undefined if no token. */
function segment(text: string, from: number, to: number, keepIndent = false): Segment | undefined {
  const { starts, ends } = tokenBounds(text.slice(from, to));
  const first = starts[0];
  const last = ends[ends.length - 1];
  if (first === undefined || last === undefined) return undefined;
  return { start: keepIndent ? from : from + first, end: from + last, tokens: starts.length };
}

/** text[from, to) cut after every match of `boundary`, as segments (pieces without tokens dropped). */
function splitAt(text: string, from: number, to: number, boundary: RegExp, keepIndent = false): Segment[] {
  const pieces: Segment[] = [];
  const part = text.slice(from, to);
  const pattern = new RegExp(boundary.source, 'gu');
  let start = 0;
  for (let match = pattern.exec(part); match !== null; match = pattern.exec(part)) {
    if (match[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    const end = match.index + match[0].length;
    const piece = segment(text, from + start, from + end, keepIndent);
    if (piece) pieces.push(piece);
    start = end;
  }
  const rest = segment(text, from + start, to, keepIndent);
  if (rest) pieces.push(rest);
  return pieces;
}

/** A segment cut into windows of at most `size` tokens, at token boundaries. */
function hardSplit(text: string, piece: Segment, size: number): Segment[] {
  const { starts, ends } = tokenBounds(text.slice(piece.start, piece.end));
  const windows: Segment[] = [];
  for (let first = 0; first < starts.length; first += size) {
    const last = Math.min(first + size, starts.length) - 1;
    windows.push({
      start: piece.start + (first === 0 ? 0 : (starts[first] ?? 0)),
      end: piece.start + (ends[last] ?? 0),
      tokens: last - first + 1,
    });
  }
  return windows;
}

/** Ends of sentences (Latin and CJK punctuation, then space) and blank lines. */
const SENTENCE_END = /[.!?…]+[)"'”’»\]]*\s+|[。！？]+\s*|\n[ \t]*\n/u;
const LINE_END = /\n/u;

/** Prose cut into units of at most `size` tokens: sentences, else lines, else token windows. */
export function proseUnits(text: string, size: number): Segment[] {
  const units: Segment[] = [];
  for (const sentence of splitAt(text, 0, text.length, SENTENCE_END)) {
    if (sentence.tokens <= size) {
      units.push(sentence);
      continue;
    }
    for (const line of splitAt(text, sentence.start, sentence.end, LINE_END)) {
      if (line.tokens <= size) units.push(line);
      else units.push(...hardSplit(text, line, size));
    }
  }
  return units;
}

/** Lines (indentation kept) of at most `size` tokens; a longer line is cut into token windows. */
export function lineUnits(text: string, size: number): Segment[] {
  const units: Segment[] = [];
  for (const line of splitAt(text, 0, text.length, LINE_END, true)) {
    if (line.tokens <= size) units.push(line);
    else units.push(...hardSplit(text, line, size));
  }
  return units;
}

/**
 * Packs units into pieces of at most `max` tokens; each piece after the first starts with up to `overlap`
 * tokens of the one before: its last whole units when they fit, else the last `overlap` tokens. Units must
 * be at most `max - overlap` tokens.
 */
export function pack(text: string, units: readonly Segment[], max: number, overlap: number): string[] {
  const pieces: string[] = [];
  let i = 0;
  let carryStart: number | undefined;
  let carryTokens = 0;
  while (i < units.length) {
    const first = units[i];
    if (first === undefined) break;
    let tokens = carryTokens;
    let j = i;
    for (let unit = units[j]; unit !== undefined && tokens + unit.tokens <= max; unit = units[j]) {
      tokens += unit.tokens;
      j++;
    }
    if (j === i) j = i + 1; // cannot happen with units ≤ max - overlap; guarantees progress regardless
    const last = units[j - 1] ?? first;
    pieces.push(text.slice(carryStart ?? first.start, last.end));
    if (j >= units.length || overlap === 0) {
      carryStart = undefined;
      carryTokens = 0;
      i = j;
      continue;
    }
    let kept = 0;
    let k = j;
    for (
      let unit = units[k - 1];
      k > i && unit !== undefined && kept + unit.tokens <= overlap;
      unit = units[k - 1]
    ) {
      kept += unit.tokens;
      k--;
    }
    if (kept > 0) {
      carryStart = units[k]?.start;
      carryTokens = kept;
    } else {
      // The last `overlap` tokens, less any punctuation they would start with.
      const slice = text.slice(last.start, last.end);
      const { starts } = tokenBounds(slice);
      let from = starts.length - overlap;
      while (from < starts.length - 1 && /^[^\p{L}\p{N}]/u.test(slice.slice(starts[from] ?? 0))) from++;
      carryStart = last.start + (starts[from] ?? 0);
      carryTokens = starts.length - from;
    }
    i = j;
  }
  return pieces;
}
