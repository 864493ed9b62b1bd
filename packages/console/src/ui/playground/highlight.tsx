import { splitMatches } from './words.js';

/** A passage's text with `words` in `<mark>` elements: text nodes only, never HTML. */
export function Highlighted({ text, words }: { text: string; words: readonly string[] }) {
  return (
    <>
      {splitMatches(text, words).map((piece, i) =>
        piece.match ? <mark key={i}>{piece.text}</mark> : piece.text,
      )}
    </>
  );
}
