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

/** The repository's own prose: its README, then the reference pages it leads to. */
const PROSE = ['README.md', 'docs/configuration.md', 'docs/console.md', 'docs/cli.md', 'docs/admin-api.md'];

/** Real prose: the paragraphs of the repository's README and docs, plus edge cases of the tokenizer. */
function realTexts(): string[] {
  const prose = PROSE.map((page) => readFileSync(new URL(`../../../../../${page}`, import.meta.url), 'utf8'));
  const paragraphs = prose
    .join('\n\n')
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

/**
 * Vectors TensorFlow.js 4.22.0 gave for fixed texts when it ran this model (before onnxruntime-node replaced
 * it): what keeps the indexes it built valid under the same model id.
 */
interface Reference {
  model: string;
  texts: string[];
  /** float32, little-endian, base64; one per text. */
  vectors: string[];
}

function readReference(): { model: string; texts: string[]; vectors: Float32Array[] } {
  const reference = JSON.parse(
    readFileSync(new URL('./use-lite-reference.json', import.meta.url), 'utf8'),
  ) as Reference;
  const vectors = reference.vectors.map((encoded) => {
    const bytes = Buffer.from(encoded, 'base64');
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  });
  return { model: reference.model, texts: reference.texts, vectors };
}

describe('USE lite on onnxruntime-node (the graph rebuilt from the package weights)', () => {
  const onnx = new UseLiteEmbedder();

  beforeAll(() => onnx.ready(), 120_000);
  afterAll(() => onnx.close());

  it('runs on onnxruntime under the model id the TensorFlow.js runtime used', () => {
    expect(onnx.runtime).toBe('onnx');
    expect(onnx.id).toBe(USE_LITE_ID);
    expect(onnx.dimensions).toBe(512);
  });

  it('gives the vectors TensorFlow.js gave (saved reference vectors), cosine ≥ 0.9999, in one batch and one by one', async () => {
    const reference = readReference();
    expect(reference.model).toBe(USE_LITE_ID);
    expect(reference.texts.length).toBeGreaterThanOrEqual(14);
    expect(reference.vectors.map((v) => v.length)).toEqual(reference.texts.map(() => 512));
    // One batch: every row padded to the longest text (past the 128-token window), as indexing embeds.
    const together = await onnx.embed(reference.texts);
    expect(together).toHaveLength(reference.texts.length);
    expect(leastCosine(together, reference.vectors, 5)).toBeGreaterThanOrEqual(0.9999);
    const alone = await Promise.all(reference.texts.map(async (text) => (await onnx.embed([text]))[0]));
    expect(leastCosine(alone as Float32Array[], reference.vectors, 5)).toBeGreaterThanOrEqual(0.9999);
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

    it('refuses another precision', () => {
      expect(() => new UseLiteEmbedder({ precision: 'fp16' as 'int8' })).toThrow(
        'precision must be fp32 or int8, got fp16',
      );
    });
  });
});

describe('autoUseLitePrecision (PARLEY_EMBEDDER_PRECISION=auto)', () => {
  it('keeps an index of fp32 vectors on fp32 and picks int8 for any other index', () => {
    expect(autoUseLitePrecision(undefined)).toBe('int8');
    expect(autoUseLitePrecision(USE_LITE_INT8_ID)).toBe('int8');
    expect(autoUseLitePrecision('text-embedding-3-small')).toBe('int8');
    expect(autoUseLitePrecision(USE_LITE_ID)).toBe('fp32');
  });
});

describe('USE lite when onnxruntime cannot load', () => {
  for (const precision of ['fp32', 'int8'] as const) {
    it(`fails its calls with model_load_failed naming the cause, at ${precision} (there is no other runtime)`, async () => {
      const embedder = new UseLiteEmbedder({
        precision,
        files: { ...resolveUseLiteFiles(), onnxRuntime: 'parley-no-such-onnxruntime' },
      });
      try {
        await expect(embedder.embed(['The cat sat on the mat.'])).rejects.toMatchObject({
          code: 'model_load_failed',
          message: expect.stringContaining('parley-no-such-onnxruntime'),
        });
        expect(embedder.runtime).toBeUndefined();
      } finally {
        await embedder.close();
      }
    }, 120_000);
  }
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
