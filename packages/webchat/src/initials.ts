/**
 * The initials the webchat draws for a person who has no picture: the first letter of their name's first
 * and last words (words split at spaces, dots, dashes and underscores), upper-cased; "?" for no letter.
 */
export function initials(name: string): string {
  const words = name.split(/[\s._-]+/u).filter((w) => /\p{L}|\p{N}/u.test(w));
  const first = (w: string | undefined) => (w === undefined ? '' : (Array.from(w)[0] ?? ''));
  const letters = words.length > 1 ? first(words[0]) + first(words[words.length - 1]) : first(words[0]);
  return letters.toLocaleUpperCase() || '?';
}
