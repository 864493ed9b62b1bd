// Helpers of the extraction tests (search/ingest/extract/*.test.ts).
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
