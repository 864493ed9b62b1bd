/**
 * Reading the answers of an OpenAI-compatible embeddings service: the vectors of a successful answer
 * (checked for count, order and finite numbers, scaled to unit length) and the service's own message
 * of a failed one.
 */
import { EmbedderError } from './errors.js';

interface EmbeddingsAnswer {
  data?: unknown;
}

/** The `bad_response` error for an answer from `where` that cannot be used, and why. */
export function unusableAnswer(where: string, why: string): EmbedderError {
  return new EmbedderError('bad_response', `${where} gave an unusable answer: ${why}`);
}

/**
 * The vectors of a successful answer `text` from `where`, in input order, as unit vectors; `count` is
 * the number of inputs. Widths are not compared here.
 */
export function parseEmbeddings(text: string, count: number, where: string): Float32Array[] {
  const bad = (why: string): EmbedderError => unusableAnswer(where, why);
  let answer: EmbeddingsAnswer;
  try {
    answer = JSON.parse(text) as EmbeddingsAnswer;
  } catch {
    throw bad(`not JSON (${serviceMessage(text)})`);
  }
  const data = answer?.data;
  if (!Array.isArray(data)) throw bad('no `data` array');
  if (data.length !== count) throw bad(`${data.length} embeddings for ${count} inputs`);
  const vectors: (Float32Array | undefined)[] = new Array(count);
  data.forEach((item: { embedding?: unknown; index?: unknown } | null, position) => {
    const index = item?.index ?? position;
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= count) {
      throw bad(`index ${String(index)} out of range`);
    }
    if (vectors[index as number] !== undefined) throw bad(`index ${String(index)} given twice`);
    vectors[index as number] = toVector(item?.embedding, bad);
  });
  return vectors as Float32Array[];
}

/** The service's own error message: OpenAI's `error.message`, other common shapes, or the raw text. */
export function serviceMessage(text: string): string {
  let message: unknown;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = body?.error;
    message =
      (typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : error) ??
      body?.message ??
      body?.detail;
    if (typeof message !== 'string') message = undefined;
  } catch {
    // not JSON: use the text
  }
  const raw = (typeof message === 'string' ? message : text).trim() || '(empty body)';
  return raw.length > 500 ? `${raw.slice(0, 500)}…` : raw;
}

/** A JSON number array or base64 little-endian float32, as a unit Float32Array. */
function toVector(embedding: unknown, bad: (why: string) => EmbedderError): Float32Array {
  let vector: Float32Array;
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64');
    if (bytes.length === 0 || bytes.length % 4 !== 0) throw bad('a base64 embedding is not float32');
    vector = new Float32Array(bytes.length / 4);
    for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4);
  } else if (Array.isArray(embedding) && embedding.length > 0) {
    vector = new Float32Array(embedding.length);
    for (let i = 0; i < embedding.length; i++) {
      const value = embedding[i] as unknown;
      if (typeof value !== 'number' || !Number.isFinite(value)) throw bad('an embedding holds a non-number');
      vector[i] = value;
    }
  } else {
    throw bad('an item has no embedding');
  }
  let sum = 0;
  for (const value of vector) sum += value * value;
  if (!(sum > 0) || !Number.isFinite(sum)) throw bad('a zero or non-finite vector');
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) * scale;
  return vector;
}
