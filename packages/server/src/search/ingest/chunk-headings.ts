// The headings above the current block, for breadcrumbs (see chunk.ts).

import type { Block } from '../types.js';
import { tokenBounds } from './chunk-tokens.js';

/** Longest breadcrumb entry, in tokens; longer headings are cut with `…` in breadcrumbs (not in their passage). */
const BREADCRUMB_TOKENS = 32;

/** A heading as a breadcrumb entry: one line, at most BREADCRUMB_TOKENS tokens. */
function crumb(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const { ends } = tokenBounds(line);
  const end = ends[BREADCRUMB_TOKENS - 1];
  return ends.length > BREADCRUMB_TOKENS && end !== undefined ? `${line.slice(0, end)}…` : line;
}

/** Whether a block is a heading (title or subtitle). */
export function isHeading(block: Block): boolean {
  return block.type === 'title' || block.type === 'subtitle';
}

/** A heading's level, 1 to 6: its own, else 1 for a title and 2 for a subtitle. */
function headingLevel(block: Block): number {
  const level = block.level ?? (block.type === 'title' ? 1 : 2);
  return Math.min(6, Math.max(1, Math.trunc(level)));
}

/** The document's outline as read so far: the stack of headings above the current block. */
export class Outline {
  private readonly headings: { level: number; text: string }[] = [];

  /** The breadcrumb of the current block: the headings above it, outermost first. */
  breadcrumb(): string[] {
    return this.headings.map((heading) => heading.text);
  }

  /**
   * Enters a heading (its text as chunked): closes the headings at its level or deeper, and answers the
   * breadcrumb above it, before it becomes part of the breadcrumb of what follows.
   */
  enter(heading: Block, text: string): string[] {
    const level = headingLevel(heading);
    while ((this.headings[this.headings.length - 1]?.level ?? 0) >= level) this.headings.pop();
    const above = this.breadcrumb();
    this.headings.push({ level, text: crumb(text) });
    return above;
  }
}
