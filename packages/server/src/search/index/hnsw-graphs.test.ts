import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Graphs, type HnswReply, searchBreadth, WIDE_SEARCH_FROM } from './hnsw-graphs.js';
import { DEFAULT_HNSW_PARAMETERS } from './hnsw-usearch.js';

const parameters = { ...DEFAULT_HNSW_PARAMETERS, dimensions: 4 };
const unit = (...xs: number[]) => {
  const norm = Math.hypot(...xs);
  return xs.map((x) => x / norm);
};

/** The worker's graphs, driven directly: requests in, replies collected. */
function graphs() {
  const replies: HnswReply[] = [];
  return { g: new Graphs((r) => replies.push(r)), replies };
}

/** Request 1: a new graph of partition `bot` holding these vectors. */
const build = (g: Graphs, keys: Float64Array, vectors: number[]) =>
  g.handle({
    kind: 'build',
    id: 1,
    partition: 'bot',
    parameters,
    threads: 1,
    keys,
    vectors: Float32Array.from(vectors),
  });

const answer = (replies: HnswReply[], id: number) => replies.find((r) => r.kind === 'reply' && r.id === id);

describe('HNSW graphs (the worker side)', () => {
  it('answers a build whose vectors were all removed before their insertion, at once', async () => {
    const { g, replies } = graphs();
    build(g, Float64Array.of(7), unit(0, 0, 1, 0));
    // The file of that one passage is deleted before the worker got round to inserting it.
    g.handle({ kind: 'remove', partition: 'bot', keys: Float64Array.of(7) });
    await tick();
    // It used to wait for the next insertion or save (30 s later) to hear that the queue was empty.
    expect(answer(replies, 1)).toEqual({ kind: 'reply', id: 1, ok: true, value: 1 });
    g.handle({ kind: 'search', id: 2, partition: 'bot', q: Float32Array.from(unit(0, 0, 1, 0)), k: 5 });
    expect(answer(replies, 2)).toEqual({
      kind: 'reply',
      id: 2,
      ok: true,
      value: { keys: [], distances: [] },
    });
  });

  it('answers a build once its vectors are in the graph, and finds them', async () => {
    const { g, replies } = graphs();
    build(g, Float64Array.of(1, 2), [...unit(1, 0, 0, 0), ...unit(0, 1, 0, 0)]);
    expect(answer(replies, 1)).toBeUndefined(); // queued, not yet inserted
    await tick();
    await tick();
    expect(answer(replies, 1)).toEqual({ kind: 'reply', id: 1, ok: true, value: 2 });
    g.handle({ kind: 'search', id: 2, partition: 'bot', q: Float32Array.from(unit(0, 1, 0, 0)), k: 1 });
    expect(answer(replies, 2)).toMatchObject({ ok: true, value: { keys: [2] } });
  });

  it('searches a large graph wider, so its recall does not fall with its size', () => {
    expect(searchBreadth(1_000, 100)).toBe(100);
    expect(searchBreadth(WIDE_SEARCH_FROM, 10)).toBe(10);
    expect(searchBreadth(400_000, 10)).toBe(256);
    expect(searchBreadth(1_000_000, 100)).toBe(640);
    expect(searchBreadth(1_000_000, 800)).toBe(800);
    expect(searchBreadth(5_000_000, 10)).toBe(1024);
  });
});
