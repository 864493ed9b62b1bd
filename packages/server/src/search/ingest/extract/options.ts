import { ExtractionError } from '../../types.js';

/** Bounds on one extraction, so a hostile or huge file can neither hang nor exhaust the process. */
export interface ExtractOptions {
  /** Stops the work early (the job's time bound or shutdown); the rejection is the signal's reason. */
  signal?: AbortSignal;
  /** Wall-clock bound of one extraction, in ms; past it the document fails `too_large`. Default 120 000. */
  timeoutMs?: number;
  /** Most pages (PDF) or slides (PPTX) read; a longer document fails `too_large`. Default 2 000. */
  maxPages?: number;
  /** Most characters of extracted text; a wordier document fails `too_large`. Default 10 000 000. */
  maxChars?: number;
  /**
   * Most bytes unpacked from an Office (zip) container (DOCX, PPTX, XLSX), over all the parts read: the
   * sizes its directory declares reject early, and the bytes actually inflated are counted as they are
   * produced. The lower of this and `maxXmlBytes` applies. Default 200 MiB.
   */
  maxUnzippedBytes?: number;
  /**
   * Most bytes of XML parts unpacked from an Office container per document, counted on the bytes really
   * inflated (never the sizes the zip declares, which the file's author controls): unpacking stops the
   * moment the running total passes it, and the document fails `too_large`. Images and other media are
   * never unpacked. Default 64 MiB.
   */
  maxXmlBytes?: number;
  /**
   * Most XML elements in the parts of an Office document that are built into a DOM (DOCX: every part
   * mammoth reads; PPTX: all of them; XLSX: the workbook and relationships, as sheets and shared strings
   * are read streaming), counted by a scan before any DOM exists. A DOM costs 10–20× its text, and
   * mammoth's model ~2 KB an element (measured: 900 000 elements took 1.7 GB and 20 s), so a document over
   * it fails `too_large`. Default 500 000.
   */
  maxElements?: number;
  /** Deepest nesting of XML elements in any part of an Office document; past it `too_large`. Default 1 000. */
  maxDepth?: number;
  /**
   * Most cells of a spreadsheet (XLSX), over all sheets: cells placed in rows, the empty cells filling the
   * gaps before a cell's column included, an empty row counting one; past it `too_large`. Default 1 000 000.
   */
  maxCells?: number;
}

/** Defaults of ExtractOptions. */
export const DEFAULT_EXTRACT_LIMITS = {
  timeoutMs: 120_000,
  maxPages: 2_000,
  maxChars: 10_000_000,
  maxUnzippedBytes: 200 * 1024 * 1024,
  maxXmlBytes: 64 * 1024 * 1024,
  maxElements: 500_000,
  maxDepth: 1_000,
  maxCells: 1_000_000,
} as const;

/** Every bound of ExtractOptions, resolved. */
export type ExtractLimits = { -readonly [K in keyof typeof DEFAULT_EXTRACT_LIMITS]: number };

/** The bounds of one extraction: each option as given, else its default. */
export function resolveLimits(options: ExtractOptions): ExtractLimits {
  const limits: ExtractLimits = { ...DEFAULT_EXTRACT_LIMITS };
  for (const name of Object.keys(limits) as (keyof ExtractLimits)[])
    limits[name] = options[name] ?? limits[name];
  return limits;
}

/** What every format extractor receives: the file's name for messages and the resolved bounds. */
export interface ExtractContext {
  key: string;
  /** Aborts on the caller's signal or on the time bound. */
  signal: AbortSignal;
  maxPages: number;
  maxChars: number;
  maxUnzippedBytes: number;
  maxXmlBytes: number;
  maxElements: number;
  maxDepth: number;
  maxCells: number;
}

/** Throws the abort reason when `signal` has fired; call between units of work. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

/**
 * `promise`, or a rejection with the abort reason as soon as `signal` fires, whichever comes first. The
 * losing promise's outcome is still observed, so a late rejection is never unhandled.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The `too_large` error for a document over a count limit. */
export function tooLarge(key: string, what: string, limit: number): ExtractionError {
  return new ExtractionError(
    'too_large',
    `"${key}" is too large to index: it has more ${what} than the limit of ${limit.toLocaleString('en-US')}.`,
  );
}

/** The `unreadable_document` error for a file that is damaged or not of its declared format. */
export function unreadable(key: string, label: string, cause?: unknown): ExtractionError {
  const raw = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : '';
  const detail = raw.replace(/\s+/g, ' ').trim().slice(0, 200);
  return new ExtractionError(
    'unreadable_document',
    `"${key}" could not be read as ${label}: it is damaged or not a ${label} file${detail ? ` (${detail})` : ''}.`,
  );
}

/** A failure while reading a document: an ExtractionError as it is, anything else `unreadable_document`. */
export function asExtractionError(error: unknown, key: string, label: string): ExtractionError {
  return error instanceof ExtractionError ? error : unreadable(key, label, error);
}
