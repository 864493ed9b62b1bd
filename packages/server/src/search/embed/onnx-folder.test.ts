import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbedderError } from './errors.js';
import { embedderFromConfig } from './from-config.js';
import { OnnxModelEmbedder } from './onnx-folder.js';
import { OnnxGraphBuilder } from './onnx-graph.js';

// A tiny model in the layout sentence-transformers/optimum export: a WordPiece tokenizer.json and a
// model.onnx whose `last_hidden_state` is an embedding lookup (masked), so the expected sentence vector is
// the normalised mean of the token rows, computable here.

const VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  'the',
  'cat',
  'sat',
  'on',
  'mat',
  '##s',
  'a',
  'b',
  'c',
  'd',
  'e',
];
const WIDTH = 6;
const id = (token: string): number => VOCAB.indexOf(token);

/** Row `i` of the embedding table: small distinct numbers. */
const row = (i: number, scale = 1): number[] =>
  Array.from({ length: WIDTH }, (_, k) => scale * Math.sin(1 + i * 7 + k * 3));

function tokenizerJson(maxLength?: number): object {
  const special = (content: string) => ({
    id: id(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation:
      maxLength === undefined
        ? null
        : { direction: 'Right', max_length: maxLength, strategy: 'LongestFirst', stride: 0 },
    padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]'].map(special),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [id('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [id('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(VOCAB.map((token, i) => [token, i])),
    },
  };
}

/** model.onnx: last_hidden_state = Embeddings[input_ids] · attention_mask (and token_type_ids taken, unused). */
function modelOnnx(scale = 1): Uint8Array {
  const g = new OnnxGraphBuilder();
  const ids = g.input('input_ids', 'int64', ['batch', 'sequence']);
  const mask = g.input('attention_mask', 'int64', ['batch', 'sequence']);
  g.input('token_type_ids', 'int64', ['batch', 'sequence']);
  const table = g.constant(
    VOCAB.flatMap((_, i) => row(i, scale)),
    [VOCAB.length, WIDTH],
  );
  const looked = g.node('Gather', [table, ids]);
  const weights = g.node('Unsqueeze', [g.node('Cast', [mask], { to: 1 }), g.ints([2])]);
  g.output(g.node('Mul', [looked, weights]), 'last_hidden_state', 'float32', ['batch', 'sequence', WIDTH]);
  return g.build('tiny', 'parley test');
}

/** The unit mean of the rows of `tokens`. */
function expected(tokens: string[]): number[] {
  const sum = new Array<number>(WIDTH).fill(0);
  for (const token of tokens) {
    row(id(token)).forEach((value, k) => {
      sum[k] = (sum[k] as number) + value;
    });
  }
  const norm = Math.hypot(...sum);
  return sum.map((value) => value / norm);
}

const close = (got: Float32Array | undefined, want: number[]): void => {
  expect(got).toBeDefined();
  expect([...(got as Float32Array)].map((x) => Number(x.toFixed(5)))).toEqual(
    want.map((x) => Number(x.toFixed(5))),
  );
};

describe('OnnxModelEmbedder (an operator model folder on onnxruntime)', () => {
  let root: string;
  let dir: string;
  let embedder: OnnxModelEmbedder;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'parley-onnx-folder-'));
    dir = path.join(root, 'tiny-encoder');
    await mkdir(dir);
    await writeFile(path.join(dir, 'model.onnx'), modelOnnx());
    await writeFile(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
    embedder = new OnnxModelEmbedder({ dir, workers: 1 });
    await embedder.ready();
  }, 60_000);
  afterAll(async () => {
    await embedder?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('takes its id from the folder name and a hash of its files, and its width from the model', () => {
    expect(embedder.id).toMatch(/^onnx:tiny-encoder@[0-9a-f]{12}$/);
    expect(embedder.dimensions).toBe(WIDTH);
    expect(embedder.runtime).toBe('onnx');
  });

  it('tokenizes with WordPiece (lower case, ##pieces, [CLS]/[SEP]) and mean-pools to unit vectors', async () => {
    const [cats, unknown] = await embedder.embed(['The Cats sat', 'the zebra']);
    close(cats, expected(['[CLS]', 'the', 'cat', '##s', 'sat', '[SEP]']));
    close(unknown, expected(['[CLS]', 'the', '[UNK]', '[SEP]']));
  });

  it('gives a text the same vector alone or padded in a batch of longer ones', async () => {
    const [alone] = await embedder.embed(['cat']);
    const batch = await embedder.embed(['the cat sat on the mat the cat sat on the mat', 'cat', '']);
    close(batch[1], [...(alone as Float32Array)]);
    close(batch[2], expected(['[CLS]', '[SEP]']));
  });

  it('cuts a text at the window stated in tokenizer.json, keeping the closing [SEP]', async () => {
    const cut = path.join(root, 'cut');
    await mkdir(cut);
    await writeFile(path.join(cut, 'model.onnx'), modelOnnx());
    await writeFile(path.join(cut, 'tokenizer.json'), JSON.stringify(tokenizerJson(4)));
    const short = new OnnxModelEmbedder({ dir: cut });
    try {
      const [vector] = await short.embed(['a b c d e']);
      close(vector, expected(['[CLS]', 'a', 'b', '[SEP]']));
    } finally {
      await short.close();
    }
  });

  it('gives another id to another model (vectors of different models are never mixed)', async () => {
    const other = path.join(root, 'tiny-encoder-2');
    await mkdir(other);
    await writeFile(path.join(other, 'model.onnx'), modelOnnx(2));
    await writeFile(path.join(other, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
    const second = new OnnxModelEmbedder({ dir: other });
    try {
      await second.ready();
      expect(second.id.split('@')[1]).not.toBe(embedder.id.split('@')[1]);
    } finally {
      await second.close();
    }
  });

  it('fails with model_load_failed naming the missing file', async () => {
    const empty = path.join(root, 'empty');
    await mkdir(empty);
    const missingModel = new OnnxModelEmbedder({ dir: empty });
    await expect(missingModel.embed(['x'])).rejects.toMatchObject({
      code: 'model_load_failed',
      message: expect.stringContaining(`${path.join(empty, 'model.onnx')} is missing`),
    });
    await missingModel.close();

    await writeFile(path.join(empty, 'model.onnx'), modelOnnx());
    const missingTokenizer = new OnnxModelEmbedder({ dir: empty });
    await expect(missingTokenizer.embed(['x'])).rejects.toMatchObject({
      code: 'model_load_failed',
      message: expect.stringContaining(`${path.join(empty, 'tokenizer.json')} is missing`),
    });
    await missingTokenizer.close();
  });

  it('fails with model_load_failed when the graph lacks input_ids', async () => {
    const wrong = path.join(root, 'wrong');
    await mkdir(wrong);
    const g = new OnnxGraphBuilder();
    const x = g.input('pixels', 'float32', ['n']);
    g.output(x, 'out', 'float32', ['n']);
    await writeFile(path.join(wrong, 'model.onnx'), g.build('wrong', 'parley test'));
    await writeFile(path.join(wrong, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
    const embedder = new OnnxModelEmbedder({ dir: wrong });
    await expect(embedder.embed(['x'])).rejects.toMatchObject({
      code: 'model_load_failed',
      message: expect.stringContaining('has no input input_ids (inputs: pixels)'),
    });
    await embedder.close();
  });

  it('is what PARLEY_EMBEDDER=onnx builds, and needs PARLEY_EMBEDDING_MODEL_DIR', async () => {
    const configured = embedderFromConfig({ embedder: 'onnx', modelDir: dir, workers: 2 });
    expect(configured).toBeInstanceOf(OnnxModelEmbedder);
    expect(configured?.id).toBe('onnx:tiny-encoder');
    await configured?.close();
    expect(() => embedderFromConfig({ embedder: 'onnx' })).toThrow(EmbedderError);
    expect(() => embedderFromConfig({ embedder: 'onnx' })).toThrow(
      'PARLEY_EMBEDDER=onnx needs PARLEY_EMBEDDING_MODEL_DIR',
    );
  });
});
