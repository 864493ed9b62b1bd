/**
 * Worker thread of the HNSW vector index (hnsw-vector-index.ts): builds one partition's usearch index from
 * the vectors it is sent and saves it to a file, so a rebuild of a large partition never blocks the
 * server's event loop. Answers `{ ok: true, size }` or `{ ok: false, message }`.
 */
import { chmodSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { type HnswParameters, newUsearchIndex } from './hnsw-usearch.js';

/** What the worker is given. */
export interface HnswBuildRequest {
  parameters: HnswParameters;
  keys: BigUint64Array;
  /** keys.length × dimensions unit float32 components. */
  vectors: Float32Array;
  /** Where to save the index (mode 0600). */
  path: string;
  threads: number;
}

async function build(request: HnswBuildRequest): Promise<number> {
  const index = newUsearchIndex(request.parameters);
  if (request.keys.length > 0) index.add(request.keys, request.vectors, request.threads);
  index.save(request.path);
  chmodSync(request.path, 0o600);
  return Number(index.size());
}

build(workerData as HnswBuildRequest).then(
  (size) => parentPort?.postMessage({ ok: true, size }),
  (error: unknown) =>
    parentPort?.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
);
