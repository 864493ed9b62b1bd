/**
 * English words too common to be worth marking (a search matches on the others), and the words that make a
 * question's form, not its subject ("how long", "how many", "do I get"), which the bot does not look for.
 */
const COMMON = new Set(
  (
    'a an and are as at be but by can could do does did for from had has have how i if in into is it its me my ' +
    'no not of on or our so than that the their them then there these they this to was we were what when where ' +
    'which who why will with would you your many much long often soon get'
  ).split(' '),
);

/** The words of a query worth marking: letter and digit runs of two or more, lower-cased, not the most common, longest first. */
export function queryWords(query: string): string[] {
  const words = (query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []).filter((w) => !COMMON.has(w));
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
