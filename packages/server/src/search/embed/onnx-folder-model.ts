/**
 * An operator's own sentence-embedding model, from a folder as sentence-transformers / optimum export it:
 * `model.onnx` (or `onnx/model.onnx`), `tokenizer.json` (and `tokenizer_config.json` when present). Run by
 * onnxruntime-node like the shipped model (one session per worker thread, one intra-op thread); tokenized
 * by `@huggingface/tokenizers` (pure JavaScript: WordPiece, BPE, Unigram as tokenizer.json describes).
 *
 * - Inputs fed by name: `input_ids`, `attention_mask`, and `token_type_ids` (zeros) when the graph has it.
 * - Output: `sentence_embedding` when the export has one, else `last_hidden_state` (or the first output)
 *   mean-pooled over the attention mask; every vector scaled to unit length.
 * - Inputs longer than the model's window (tokenizer.json `truncation.max_length`, else tokenizer_config's
 *   `model_max_length`, else 512) keep their first tokens and their closing special token.
 * - Model id `onnx:<folder name>@<first 12 hex of sha256(model.onnx, tokenizer.json)>`: a changed model is
 *   a new id, so vectors of different models are never compared.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type { Tensor } from 'onnxruntime-node';
import { normalizeRows, type UseLiteModel } from './use-lite-model.js';
import { ONE_CORE_SESSION } from './use-lite-onnx-model.js';

/** Window used when the tokenizer files do not state one. */
export const DEFAULT_MAX_TOKENS = 512;

/** A loaded folder model: embeds one bounded batch at a time, with its id and vector width. */
export interface OnnxFolderModel extends UseLiteModel {
  id: string;
  dimensions: number;
}

interface TokenizerJson {
  truncation?: { max_length?: number } | null;
  padding?: { pad_id?: number } | null;
}

/** The model file of `dir`: `model.onnx`, else `onnx/model.onnx`; throws naming what is missing. */
async function modelFile(dir: string): Promise<string> {
  for (const candidate of [path.join(dir, 'model.onnx'), path.join(dir, 'onnx', 'model.onnx')]) {
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  throw new Error(
    `${path.join(dir, 'model.onnx')} is missing (PARLEY_EMBEDDING_MODEL_DIR must hold model.onnx)`,
  );
}

async function readJson<T>(file: string, what: string): Promise<T> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new Error(`${file} is missing (${what})`);
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** sha256 of the files, in order, streamed. */
async function hashFiles(files: string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

/**
 * Loads the model folder `dir` in the calling thread (meant for an embedding worker) and runs it once.
 *
 * @throws naming the missing or unreadable file, or when the graph lacks `input_ids`/`attention_mask`.
 */
export async function loadOnnxFolderModel(
  dir: string,
  onnxRuntime = 'onnxruntime-node',
): Promise<OnnxFolderModel> {
  const file = await modelFile(dir);
  const tokenizerFile = path.join(dir, 'tokenizer.json');
  const tokenizerJson = await readJson<TokenizerJson & object>(
    tokenizerFile,
    'the model folder needs tokenizer.json',
  );
  const configFile = path.join(dir, 'tokenizer_config.json');
  const config = await access(configFile).then(
    () => readJson<{ model_max_length?: number }>(configFile, 'tokenizer settings'),
    () => ({}) as { model_max_length?: number },
  );
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(tokenizerJson, config);
  } catch (error) {
    throw new Error(
      `${tokenizerFile} could not be read as a tokenizer: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const configured = tokenizerJson.truncation?.max_length ?? config.model_max_length;
  // tokenizer_config.json says 1e30 when it does not know.
  const maxTokens =
    configured !== undefined && Number.isInteger(configured) && configured > 1 && configured <= 65_536
      ? configured
      : DEFAULT_MAX_TOKENS;
  const padId = tokenizerJson.padding?.pad_id ?? 0;

  const ort = (await import(onnxRuntime)) as typeof import('onnxruntime-node');
  const session = await ort.InferenceSession.create(file, ONE_CORE_SESSION);
  for (const name of ['input_ids', 'attention_mask']) {
    if (!session.inputNames.includes(name)) {
      throw new Error(`${file} has no input ${name} (inputs: ${session.inputNames.join(', ')})`);
    }
  }
  const withTypes = session.inputNames.includes('token_type_ids');
  const outputName = session.outputNames.includes('sentence_embedding')
    ? 'sentence_embedding'
    : session.outputNames.includes('last_hidden_state')
      ? 'last_hidden_state'
      : (session.outputNames[0] as string);
  const hash = await hashFiles([file, tokenizerFile]);

  const encode = (text: string): number[] => {
    const ids = tokenizer.encode(text).ids;
    // Keep the closing special token ([SEP], </s>) as the tokenizers' own truncation does.
    const kept =
      ids.length > maxTokens ? [...ids.slice(0, maxTokens - 1), ids[ids.length - 1] as number] : ids;
    return kept.length > 0 ? kept : [padId];
  };

  const model: OnnxFolderModel = {
    id: `onnx:${path.basename(path.resolve(dir))}@${hash.slice(0, 12)}`,
    dimensions: 0,
    async embedBatch(texts) {
      const rows = texts.map(encode);
      const batch = rows.length;
      const length = Math.max(...rows.map((ids) => ids.length));
      const ids = new BigInt64Array(batch * length).fill(BigInt(padId));
      const mask = new BigInt64Array(batch * length);
      rows.forEach((row, r) => {
        row.forEach((id, c) => {
          ids[r * length + c] = BigInt(id);
          mask[r * length + c] = 1n;
        });
      });
      const feeds: Record<string, Tensor> = {
        input_ids: new ort.Tensor('int64', ids, [batch, length]),
        attention_mask: new ort.Tensor('int64', mask, [batch, length]),
      };
      if (withTypes)
        feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(batch * length), [batch, length]);
      const output = (await session.run(feeds, [outputName]))[outputName];
      if (output === undefined || output.type !== 'float32') {
        throw new Error(`the model's output ${outputName} is not float32`);
      }
      const data = output.data as Float32Array;
      let vectors: Float32Array;
      if (output.dims.length === 2 && output.dims[0] === batch) {
        vectors = new Float32Array(data);
      } else if (output.dims.length === 3 && output.dims[0] === batch && output.dims[1] === length) {
        vectors = meanPool(data, rows, length, output.dims[2] as number);
      } else {
        throw new Error(
          `the model's output ${outputName} has shape [${output.dims.join(', ')}] for ${batch} texts`,
        );
      }
      output.dispose();
      const width = vectors.length / batch;
      if (model.dimensions !== 0 && width !== model.dimensions) {
        throw new Error(`the model gave ${width} numbers per text, then ${model.dimensions}`);
      }
      model.dimensions = width;
      normalizeRows(vectors, width);
      return vectors;
    },
    dispose() {
      void session.release();
    },
  };
  await model.embedBatch(['warm up']);
  return model;
}

/** The mean of each row's token vectors (`rows[r].length` tokens of `length`), `width` wide. */
function meanPool(data: Float32Array, rows: number[][], length: number, width: number): Float32Array {
  const out = new Float32Array(rows.length * width);
  rows.forEach((row, r) => {
    for (let t = 0; t < row.length; t++) {
      const base = (r * length + t) * width;
      for (let k = 0; k < width; k++)
        out[r * width + k] = (out[r * width + k] as number) + (data[base + k] as number);
    }
    for (let k = 0; k < width; k++) out[r * width + k] = (out[r * width + k] as number) / row.length;
  });
  return out;
}
