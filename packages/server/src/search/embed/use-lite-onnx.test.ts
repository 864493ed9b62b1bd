import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoUseLitePrecision, USE_LITE_ID, USE_LITE_INT8_ID, UseLiteEmbedder } from './use-lite.js';
import { resolveUseLiteFiles } from './use-lite-model.js';
import { quantizeColumns } from './use-lite-onnx.js';

const dot = (a: Float32Array, b: Float32Array): number => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
};

/** The least cosine between each vector and its reference, every vector checked unit length to `digits`. */
function leastCosine(vectors: Float32Array[], references: Float32Array[], digits: number): number {
  let least = 1;
  vectors.forEach((a, i) => {
    expect(dot(a, a)).toBeCloseTo(1, digits);
    least = Math.min(least, dot(a, references[i] as Float32Array));
  });
  return least;
}

/** Real prose: the paragraphs of the repository's README, plus edge cases of the tokenizer. */
function realTexts(): string[] {
  const readme = readFileSync(new URL('../../../../../README.md', import.meta.url), 'utf8');
  const paragraphs = readme
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter((paragraph) => /[a-z]{3}/.test(paragraph))
    .slice(0, 60);
  return [
    ...paragraphs,
    '',
    'a',
    '你好，世界 😀 — naïve café',
    'How do I reset my password?',
    'word '.repeat(400), // past the model's 128-token window
  ];
}

describe('USE lite on onnxruntime-node (the graph rebuilt from the package weights)', () => {
  const onnx = new UseLiteEmbedder({ runtime: 'onnx' });
  const tfjs = new UseLiteEmbedder({ runtime: 'tfjs' });

  beforeAll(() => Promise.all([onnx.ready(), tfjs.ready()]), 120_000);
  afterAll(() => Promise.all([onnx.close(), tfjs.close()]));

  it('runs on onnxruntime and keeps the model id (the vectors are the same)', () => {
    expect(onnx.runtime).toBe('onnx');
    expect(tfjs.runtime).toBe('tfjs');
    expect(onnx.id).toBe(USE_LITE_ID);
    expect(onnx.dimensions).toBe(512);
  });

  it('gives the vectors of the TensorFlow.js path, cosine ≥ 0.9999, on real text', async () => {
    const texts = realTexts();
    expect(texts.length).toBeGreaterThan(30);
    const [fromOnnx, fromTfjs] = await Promise.all([onnx.embed(texts), tfjs.embed(texts)]);
    expect(fromOnnx).toHaveLength(texts.length);
    expect(leastCosine(fromOnnx, fromTfjs, 5)).toBeGreaterThanOrEqual(0.9999);
  }, 120_000);

  it('gives a text the same vector alone or in a batch of longer ones (padding is masked)', async () => {
    const text = 'Knowledge bases group files for search.';
    const [alone] = await onnx.embed([text]);
    const batch = await onnx.embed([`${'A much longer sentence about something else. '.repeat(6)}`, text]);
    expect(dot(alone as Float32Array, batch[1] as Float32Array)).toBeGreaterThan(0.99999);
  });

  describe('at int8 precision (dense layers quantised)', () => {
    const fp32 = onnx;
    const int8 = new UseLiteEmbedder({ precision: 'int8' });

    beforeAll(() => int8.ready(), 120_000);
    afterAll(() => int8.close());

    it('has a model id of its own, so its vectors are never compared with the fp32 ones', () => {
      expect(int8.id).toBe(USE_LITE_INT8_ID);
      expect(int8.id).not.toBe(USE_LITE_ID);
      expect(int8.runtime).toBe('onnx');
      expect(int8.dimensions).toBe(512);
    });

    it('stays within cosine 0.998 of the fp32 vectors on real text (0.995 for each), and ranks them alike', async () => {
      const texts = realTexts();
      const [exact, quantised] = await Promise.all([fp32.embed(texts), int8.embed(texts)]);
      expect(quantised).toHaveLength(texts.length);
      const least = leastCosine(quantised, exact, 4);
      const mean = quantised.reduce((sum, v, i) => sum + dot(v, exact[i] as Float32Array), 0) / texts.length;
      // Measured on an AVX2 machine without VNNI (7-bit inputs, 8-bit weights), over the README's first 131
      // paragraphs: mean 0.9990, least 0.9969 (a two-word heading: short texts average fewer tokens' rounding).
      expect(mean).toBeGreaterThanOrEqual(0.998);
      expect(least).toBeGreaterThanOrEqual(0.995);
      expect(least).toBeLessThan(0.999999); // really quantised: not the fp32 graph
      // The nearest paragraph of each paragraph is the same at both precisions.
      const nearest = (vectors: Float32Array[], i: number): number => {
        let best = -1;
        let bestScore = -2;
        vectors.forEach((v, j) => {
          const score = j === i ? -2 : dot(vectors[i] as Float32Array, v);
          if (score > bestScore) [best, bestScore] = [j, score];
        });
        return best;
      };
      const paragraphs = 40;
      let same = 0;
      for (let i = 0; i < paragraphs; i++) if (nearest(exact, i) === nearest(quantised, i)) same++;
      // Near-ties between paragraphs can flip: 9 in 10 at least.
      expect(same).toBeGreaterThanOrEqual(paragraphs * 0.9);
    }, 120_000);

    it('gives a text the same vector alone or among others (inputs are quantised per row, not per batch)', async () => {
      const text = 'Knowledge bases group files for search.';
      const [alone] = await int8.embed([text]);
      const batch = await int8.embed([`${'A much longer sentence about something else. '.repeat(6)}`, text]);
      const among = batch[1] as Float32Array;
      const largestDifference = Math.max(
        ...Array.from(alone as Float32Array, (v, i) => Math.abs(v - (among[i] as number))),
      );
      expect(largestDifference).toBeLessThan(1e-6); // float rounding only (per batch, cosine was ~0.998)
    });

    it('is refused on TensorFlow.js, which has no int8 graph', () => {
      expect(() => new UseLiteEmbedder({ precision: 'int8', runtime: 'tfjs' })).toThrow(
        'the int8 precision runs on onnxruntime only',
      );
      expect(() => new UseLiteEmbedder({ precision: 'fp16' as 'int8' })).toThrow(
        'precision must be fp32 or int8, got fp16',
      );
    });

    it('fails rather than fall back to TensorFlow.js when onnxruntime cannot load (another model)', async () => {
      const embedder = new UseLiteEmbedder({
        precision: 'int8',
        files: { ...resolveUseLiteFiles(), onnxRuntime: 'parley-no-such-onnxruntime' },
      });
      try {
        await expect(embedder.embed(['The cat sat on the mat.'])).rejects.toThrow(
          /parley-no-such-onnxruntime/,
        );
        expect(embedder.runtime).toBeUndefined();
      } finally {
        await embedder.close();
      }
    }, 120_000);

    it('falls back to the fp32 model on TensorFlow.js when asked to (int8Fallback), under the fp32 id, and says so', async () => {
      const told: string[] = [];
      const embedder = new UseLiteEmbedder({
        precision: 'int8',
        int8Fallback: true,
        files: { ...resolveUseLiteFiles(), onnxRuntime: 'parley-no-such-onnxruntime' },
        onFallback: (message) => told.push(message),
      });
      try {
        expect(embedder.id).toBe(USE_LITE_INT8_ID); // until a worker has loaded
        const [vector] = await embedder.embed(['The cat sat on the mat.']);
        expect(vector).toHaveLength(512);
        expect(embedder.runtime).toBe('tfjs');
        expect(embedder.id).toBe(USE_LITE_ID);
        expect(told).toEqual([
          expect.stringMatching(
            new RegExp(
              `could not load \\(.*parley-no-such-onnxruntime.*\\); USE lite runs on TensorFlow\\.js .*the fp32 model's vectors \\(model id ${USE_LITE_ID} instead of ${USE_LITE_INT8_ID}\\)`,
            ),
          ),
        ]);
      } finally {
        await embedder.close();
      }
    }, 120_000);
  });
});

describe('autoUseLitePrecision (PARLEY_EMBEDDER_PRECISION=auto)', () => {
  it('keeps an index of fp32 vectors on fp32 and picks int8 for any other index', () => {
    expect(autoUseLitePrecision(undefined, 'onnx')).toBe('int8');
    expect(autoUseLitePrecision(USE_LITE_INT8_ID, 'onnx')).toBe('int8');
    expect(autoUseLitePrecision('text-embedding-3-small', 'onnx')).toBe('int8');
    expect(autoUseLitePrecision(USE_LITE_ID, 'onnx')).toBe('fp32');
  });

  it('picks fp32 on TensorFlow.js, which has no int8 graph', () => {
    expect(autoUseLitePrecision(undefined, 'tfjs')).toBe('fp32');
    expect(autoUseLitePrecision(USE_LITE_INT8_ID, 'tfjs')).toBe('fp32');
  });
});

describe('USE lite when onnxruntime cannot load', () => {
  it('falls back to TensorFlow.js, says so once, and still embeds', async () => {
    const told: string[] = [];
    const embedder = new UseLiteEmbedder({
      files: { ...resolveUseLiteFiles(), onnxRuntime: 'parley-no-such-onnxruntime' },
      onFallback: (message) => told.push(message),
    });
    try {
      const [vector] = await embedder.embed(['The cat sat on the mat.']);
      expect(vector).toHaveLength(512);
      expect(embedder.runtime).toBe('tfjs');
      expect(told).toHaveLength(1);
      expect(told[0]).toMatch(
        /onnxruntime-node could not load \(.*parley-no-such-onnxruntime.*\); USE lite runs on TensorFlow\.js/,
      );
    } finally {
      await embedder.close();
    }
  }, 120_000);

  it('refuses an unknown runtime', () => {
    expect(() => new UseLiteEmbedder({ runtime: 'gpu' as 'onnx' })).toThrow(
      'runtime must be onnx or tfjs, got gpu',
    );
  });
});

describe('quantizeColumns', () => {
  it('scales each column by its own largest magnitude to ±127 (8 bits, signed), and leaves an all-zero column at scale 1', () => {
    // 2 rows × 3 columns, row-major: column 0 [1, -0.25], column 1 [0, 0], column 2 [0.02, 0.005].
    const { values, scales } = quantizeColumns({
      data: Float32Array.of(1, 0, 0.02, -0.25, 0, 0.005),
      dims: [2, 3],
    });
    expect(Array.from(scales, (s) => Number(s.toPrecision(6)))).toEqual([
      Number((1 / 127).toPrecision(6)),
      1,
      Number((0.02 / 127).toPrecision(6)),
    ]);
    // -0.25 · 127 = -31.75 → -32; 0.005 / 0.02 · 127 = 31.75 → 32.
    expect(values).toBeInstanceOf(Int8Array);
    expect(Array.from(values)).toEqual([127, 0, 127, -32, 0, 32]);
  });
});
