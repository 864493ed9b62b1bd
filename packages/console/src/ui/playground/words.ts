/** The words of a query worth marking: letters and digits runs of two or more, lower-cased, longest first. */
export function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

/** `text` cut into pieces, each marked when it is one of `words` (compared without case). */
export function splitMatches(
  text: string,
  words: readonly string[],
): Array<{ text: string; match: boolean }> {
  if (words.length === 0 || text === '') return [{ text, match: false }];
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // Whole-word starts only: "refund" marks "Refunds" but not "prerefund"; Unicode-aware boundaries.
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})`, 'giu');
  const pieces: Array<{ text: string; match: boolean }> = [];
  let last = 0;
  for (const found of text.matchAll(pattern)) {
    const at = found.index ?? 0;
    if (at > last) pieces.push({ text: text.slice(last, at), match: false });
    pieces.push({ text: found[0], match: true });
    last = at + found[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), match: false });
  return pieces;
}
