import { LRUCache } from 'lru-cache';
import { type Embedder, embedderAround } from '../../search/types.js';

/** Questions whose vectors are remembered (a few kB each). */
const REMEMBERED = 512;

/**
 * The embedder, remembering the vectors of the last texts it embedded one at a time (questions; batches, as the
 * indexer sends, pass through unremembered). A reply embeds its question for the Q&A entries' lookup, then the
 * passage search embeds the same text: the second costs nothing. Keyed by the model's id too. A failure is not
 * remembered.
 * @example const embedder = rememberingQueries(meteredEmbedder(embedderFromConfig(options), metrics));
 */
export function rememberingQueries(embedder: Embedder | null, max = REMEMBERED): Embedder | null {
  if (!embedder) return null;
  const vectors = new LRUCache<string, Float32Array>({ max });
  return embedderAround(embedder, async (texts, signal, priority) => {
    const [text] = texts;
    if (texts.length !== 1 || text === undefined) return embedder.embed(texts, signal, priority);
    const key = `${embedder.id}\n${text}`;
    const known = vectors.get(key);
    if (known) return [known];
    const embedded = await embedder.embed(texts, signal, priority);
    if (embedded[0]) vectors.set(key, embedded[0]);
    return embedded;
  });
}
