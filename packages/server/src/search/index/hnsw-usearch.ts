import { createRequire } from 'node:module';
import type { Index } from 'usearch';

/** The graph parameters of an HNSW partition (usearch's names). */
export interface HnswParameters {
  dimensions: number;
  /** Links per node (M); more: better recall, more memory, slower build. */
  connectivity: number;
  /** Candidates kept while inserting (efConstruction). */
  expansionAdd: number;
  /** Candidates kept while searching (ef); a search for k > ef keeps k. */
  expansionSearch: number;
}

/**
 * Defaults measured with bench/search-speed.ts on 100k clustered 512-d vectors (docs/benchmarks/indexing-speed.md, "Vector
 * search by HNSW"): for vectorSearch(v, 80), which asks for 100 candidates, recall@10 against the exact
 * scan 0.995 and 0.997 at expansionSearch 112 on two fills, where 100 gave 0.976–0.998 across fills (0.993 at
 * 128, 0.972 at 80 on one graph); vectorSearch p50 2.4–2.7 ms at 112, 2.2 at 100. A search for k candidates
 * keeps max(k, expansionSearch); saved graphs do not depend on it.
 */
export const DEFAULT_HNSW_PARAMETERS: Omit<HnswParameters, 'dimensions'> = {
  connectivity: 16,
  expansionAdd: 64,
  expansionSearch: 112,
};

/**
 * A usearch index (cosine, float32) of the given parameters; the native module loads on first use.
 * (Required, not imported: a dynamic import of usearch never settles in a worker under the TypeScript
 * module hooks of workers/spawn.ts.)
 */
export function newUsearchIndex(p: HnswParameters): Index {
  const usearch = createRequire(import.meta.url)('usearch') as typeof import('usearch');
  return new usearch.Index({
    dimensions: p.dimensions,
    metric: usearch.MetricKind.Cos,
    quantization: usearch.ScalarKind.F32,
    connectivity: p.connectivity,
    expansion_add: p.expansionAdd,
    expansion_search: p.expansionSearch,
    multi: false,
  });
}
