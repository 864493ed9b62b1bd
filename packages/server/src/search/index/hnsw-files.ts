/**
 * The files of the HNSW vector index (hnsw-vector-index.ts): where a partition's graph and its stamp are
 * kept, and whether a stamp still matches the stored vectors. The graph file itself is written and read by
 * the worker (hnsw-graphs.ts); the stamp by the main thread, which alone reads the database.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HnswParameters } from './hnsw-usearch.js';

/** Count, largest and sum of the keys of a partition's stored vectors. */
export interface Stamp {
  count: number;
  maxKey: number;
  keySum: number;
}

/** What is stored beside a partition's graph file: a file whose stamp is not the database's is rebuilt. */
interface PartitionMeta {
  format: 1;
  modelId: string;
  parameters: HnswParameters;
  stamp: Stamp;
}

const FORMAT = 1;

/** The stamp of a partition's keys (ascending). */
export function stampOf(keys: number[]): Stamp {
  let keySum = 0;
  for (const k of keys) keySum += k;
  return { count: keys.length, maxKey: keys.length === 0 ? 0 : (keys[keys.length - 1] as number), keySum };
}

/** The graph file and the stamp file of a partition in `dir`. */
export function partitionFiles(dir: string, name: string): { graph: string; meta: string } {
  const safe = /^[A-Za-z0-9_-]{1,80}$/.test(name)
    ? name
    : createHash('sha256').update(name).digest('hex').slice(0, 40);
  const base = join(dir, safe);
  return { graph: `${base}.usearch`, meta: `${base}.json` };
}

/**
 * Whether the stamp file at `path` was written for this model and these parameters and matches the stored
 * keys (ascending) of the partition. The search breadth (expansionSearch) is not the graph's: usearch takes
 * it from the index a file is loaded into, so a file saved with another breadth still serves.
 */
export function stampMatches(
  path: string,
  modelId: string,
  parameters: HnswParameters,
  keys: number[],
): boolean {
  let meta: PartitionMeta;
  try {
    meta = JSON.parse(readFileSync(path, 'utf8')) as PartitionMeta;
  } catch {
    return false;
  }
  if (meta.format !== FORMAT || meta.modelId !== modelId) return false;
  const m = meta.parameters;
  if (
    m.dimensions !== parameters.dimensions ||
    m.connectivity !== parameters.connectivity ||
    m.expansionAdd !== parameters.expansionAdd
  )
    return false;
  const s = stampOf(keys);
  return meta.stamp.count === s.count && meta.stamp.maxKey === s.maxKey && meta.stamp.keySum === s.keySum;
}

/** Writes the stamp file (mode 0600, replaced at once). */
export function writeStamp(path: string, modelId: string, parameters: HnswParameters, stamp: Stamp): void {
  const meta: PartitionMeta = { format: FORMAT, modelId, parameters, stamp };
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(meta), { mode: 0o600 });
  renameSync(tmp, path);
}

/** Removes a file if it is there. */
export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
