import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USE_LITE_ID, UseLiteEmbedder } from './use-lite.js';
import { resolveUseLiteFiles } from './use-lite-model.js';

const dot = (a: Float32Array, b: Float32Array): number => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
};

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
    let least = 1;
    for (let i = 0; i < texts.length; i++) {
      const a = fromOnnx[i] as Float32Array;
      expect(dot(a, a)).toBeCloseTo(1, 5);
      least = Math.min(least, dot(a, fromTfjs[i] as Float32Array));
    }
    expect(least).toBeGreaterThanOrEqual(0.9999);
  }, 120_000);

  it('gives a text the same vector alone or in a batch of longer ones (padding is masked)', async () => {
    const text = 'Knowledge bases group files for search.';
    const [alone] = await onnx.embed([text]);
    const batch = await onnx.embed([`${'A much longer sentence about something else. '.repeat(6)}`, text]);
    expect(dot(alone as Float32Array, batch[1] as Float32Array)).toBeGreaterThan(0.99999);
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
