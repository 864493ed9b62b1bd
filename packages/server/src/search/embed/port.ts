import type { Embedder } from '../types.js';

/** An Embedder that can be started (and checked) ahead of its first call. */
export interface StartableEmbedder extends Embedder {
  /** Loads the model, or reaches the service and learns the dimensions; rejects with why it cannot embed. */
  ready(): Promise<void>;
}
