// Helpers of the extraction tests (search/ingest/extract/*.test.ts).
import { createHash } from 'node:crypto';
import { extractDocument } from '../../../server/src/search/ingest/extract/extract-document.js';
import type { ExtractOptions } from '../../../server/src/search/ingest/extract/options.js';
import type { ExtractedDocument } from '../../../server/src/search/types.js';

/** Extracts a document given as text (its UTF-8 bytes). */
export function extractText(
  text: string,
  contentType: string,
  key: string,
  options?: ExtractOptions,
): Promise<ExtractedDocument> {
  return extractDocument(Buffer.from(text), contentType, key, options);
}

/** What `promise` rejects with; undefined when it resolves. */
export function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** Deterministic pseudo-random bytes (SHA-256 in counter mode), so failures reproduce. */
export function noise(length: number, seed = 'seed'): Buffer {
  const chunks: Buffer[] = [];
  for (let i = 0; chunks.length * 32 < length; i++)
    chunks.push(createHash('sha256').update(`${seed}:${i}`).digest());
  return Buffer.concat(chunks).subarray(0, length);
}
