import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../search/types.js';
import { rememberingQueries } from './recent-queries.js';

/** An embedder counting the texts it was asked for; it fails on "fail" while `failing` holds. */
function countingEmbedder() {
  const asked: string[][] = [];
  const state = { id: 'model-a', failing: true };
  const embedder: Embedder = {
    get id() {
      return state.id;
    },
    dimensions: 2,
    async embed(texts) {
      asked.push([...texts]);
      if (state.failing && texts.includes('fail')) throw new Error('model down');
      return texts.map((t) => new Float32Array([t.length, state.id === 'model-a' ? 1 : 2]));
    },
    close: async () => {},
  };
  return { embedder, asked, state };
}

describe('rememberingQueries', () => {
  it('embeds a question once for the entries and the passage search, per model', async () => {
    const { embedder, asked, state } = countingEmbedder();
    const remembering = rememberingQueries(embedder) as Embedder;
    const first = await remembering.embed(['Where is my parcel?']);
    const again = await remembering.embed(['Where is my parcel?']);
    expect(again).toEqual(first);
    expect(asked).toEqual([['Where is my parcel?']]);
    // Another model: its own vector.
    state.id = 'model-b';
    expect((await remembering.embed(['Where is my parcel?']))[0]?.[1]).toBe(2);
    expect(asked).toHaveLength(2);
    expect(remembering.id).toBe('model-b');
  });

  it('passes batches through unremembered, and remembers no failure', async () => {
    const { embedder, asked, state } = countingEmbedder();
    const remembering = rememberingQueries(embedder) as Embedder;
    await remembering.embed(['a', 'b']);
    await remembering.embed(['a', 'b']);
    expect(asked).toHaveLength(2);
    await expect(remembering.embed(['fail'])).rejects.toThrow('model down');
    state.failing = false;
    expect(await remembering.embed(['fail'])).toHaveLength(1);
    expect(asked).toHaveLength(4);
    expect(rememberingQueries(null)).toBeNull();
  });
});
