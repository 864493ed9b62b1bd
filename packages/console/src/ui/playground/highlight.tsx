import { queryWords, splitMatches } from './words.js';

/** A passage's text with the query's words in `<mark>` elements: text nodes only, never HTML. */
export function Highlighted({ text, query }: { text: string; query: string }) {
  return (
    <>
      {splitMatches(text, queryWords(query)).map((piece, i) =>
        piece.match ? <mark key={i}>{piece.text}</mark> : piece.text,
      )}
    </>
  );
}
