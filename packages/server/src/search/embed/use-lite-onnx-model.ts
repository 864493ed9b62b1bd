/**
 * USE lite on onnxruntime-node: the graph rebuilt from the package's weights (use-lite-onnx.ts), one
 * inference session per worker thread with one intra-op thread (the pool gives each worker one core), and
 * the model's own tokenizer. Its fp32 vectors are those TensorFlow.js gave when it ran the model (cosine
 * ≥ 0.9999 with reference vectors saved from it, use-lite-onnx.test.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import {
  checkUseLiteFiles,
  USE_LITE_DIMENSIONS,
  type UseLiteFiles,
  type UseLiteModel,
} from './use-lite-model.js';
import { buildUseLiteOnnx, readUseLiteWeights, type UseLitePrecision } from './use-lite-onnx.js';
import { UseLiteTokenizer, type VocabularyEntry } from './use-lite-tokenizer.js';

/** Options of an onnxruntime session that runs on one core of its own. */
export const ONE_CORE_SESSION: InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
};

/**
 * Builds the ONNX graph from the weights in `files.modelDir`, opens a session and runs it once.
 * Meant for the embedding worker (~1–2 s, ~150 MB).
 */
export async function loadUseLiteOnnxModel(
  files: UseLiteFiles,
  precision: UseLitePrecision = 'fp32',
): Promise<UseLiteModel> {
  await checkUseLiteFiles(files);
  const ort = (await import(files.onnxRuntime ?? 'onnxruntime-node')) as typeof import('onnxruntime-node');
  const [weights, vocabulary] = await Promise.all([
    readUseLiteWeights(files.modelDir),
    readFile(path.join(files.modelDir, 'vocab.json'), 'utf8').then(
      (text) => JSON.parse(text) as VocabularyEntry[],
    ),
  ]);
  const session = await ort.InferenceSession.create(buildUseLiteOnnx(weights, precision), ONE_CORE_SESSION);
  weights.tensors.clear();
  const tokenizer = new UseLiteTokenizer(vocabulary);
  // The TensorFlow graph had no row for an input without tokens (an empty text, if last, shifted the batch):
  // such inputs are embedded as a single blank, as they always were.
  const blank = tokenizer.encode(' ');

  const model: UseLiteModel = {
    async embedBatch(texts) {
      const rows = texts.map((text) => {
        const ids = tokenizer.encode(text);
        return ids.length > 0 ? ids : blank;
      });
      const batch = rows.length;
      const length = Math.max(1, ...rows.map((ids) => ids.length));
      const tokens = new BigInt64Array(batch * length);
      const mask = new Float32Array(batch * length);
      rows.forEach((ids, row) => {
        for (let column = 0; column < ids.length; column++) {
          tokens[row * length + column] = BigInt(ids[column] as number);
          mask[row * length + column] = 1;
        }
      });
      const output = await session.run({
        tokens: new ort.Tensor('int64', tokens, [batch, length]),
        mask: new ort.Tensor('float32', mask, [batch, length]),
      });
      const embeddings = output.embeddings;
      if (
        embeddings === undefined ||
        embeddings.dims[0] !== batch ||
        embeddings.dims[1] !== USE_LITE_DIMENSIONS
      ) {
        throw new Error(`the model returned shape [${embeddings?.dims.join(', ')}] for ${batch} texts`);
      }
      // A copy the worker can transfer (the tensor's buffer belongs to onnxruntime).
      const vectors = new Float32Array(embeddings.data as Float32Array);
      embeddings.dispose();
      return vectors;
    },
    dispose() {
      void session.release();
    },
  };
  await model.embedBatch(['warm up']);
  return model;
}
