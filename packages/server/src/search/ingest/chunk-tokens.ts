// Tokens as chunking counts them (see chunk.ts).

const CJK = '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}';
const TOKEN_SOURCE = `[${CJK}]|(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}_])+|[^\\s\\p{L}\\p{N}\\p{M}_]`;

function tokenPattern(): RegExp {
  return new RegExp(TOKEN_SOURCE, 'gu');
}

/** Tokens of `text` as chunking counts them: words and numbers, each punctuation mark, each CJK character. */
export function countTokens(text: string): number {
  let count = 0;
  const pattern = tokenPattern();
  while (pattern.exec(text) !== null) count++;
  return count;
}

/** Start and end offsets of each token of `text`. */
export function tokenBounds(text: string): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  const pattern = tokenPattern();
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    starts.push(match.index);
    ends.push(match.index + match[0].length);
  }
  return { starts, ends };
}
