import { type ExtractedDocument, ExtractionError } from '../../types.js';
import { extractCsv } from './csv.js';
import { type DocumentFormat, detectFormat, FORMAT_LABELS } from './detect-format.js';
import { extractDocx } from './docx.js';
import { extractHtml } from './html.js';
import { extractJson } from './json.js';
import { extractMarkdown } from './markdown.js';
import {
  asExtractionError,
  type ExtractContext,
  type ExtractOptions,
  raceAbort,
  resolveLimits,
  throwIfAborted,
  tooLarge,
} from './options.js';
import { extractPdf } from './pdf.js';
import { extractPlainText } from './plain-text.js';
import { extractPptx } from './pptx.js';
import { decodeText } from './text-util.js';
import { extractXlsx } from './xlsx.js';

/** A reader of one format; it may answer synchronously (it runs inside the document-reader worker). */
type Reader = (bytes: Buffer, ctx: ExtractContext) => Promise<ExtractedDocument> | ExtractedDocument;

/** The reader of each format. */
const READERS: Record<DocumentFormat, Reader> = {
  pdf: extractPdf,
  docx: extractDocx,
  pptx: extractPptx,
  xlsx: extractXlsx,
  html: (bytes, ctx) => extractHtml(decodeText(bytes, ctx.key)),
  csv: extractCsv,
  tsv: (bytes, ctx) => extractCsv(bytes, ctx, '\t'),
  markdown: extractMarkdown,
  text: extractPlainText,
  json: extractJson,
  jsonl: (bytes, ctx) => extractJson(bytes, ctx, true),
};

/** Blocks with text only, trimmed (code and list items keep their indentation), within `maxChars` altogether. */
function clean(document: ExtractedDocument, ctx: ExtractContext): ExtractedDocument {
  let chars = 0;
  const blocks = [];
  for (const block of document.blocks) {
    const keepIndent = block.type === 'code' || block.type === 'list';
    const text = keepIndent ? block.text.replace(/^\s*\n|\s+$/g, '') : block.text.trim();
    if (text.trim() === '' && !block.header) continue;
    chars += text.length + (block.header?.length ?? 0);
    if (chars > ctx.maxChars) throw tooLarge(ctx.key, 'characters of text', ctx.maxChars);
    blocks.push(text === block.text ? block : { ...block, text });
  }
  return { ...document, blocks };
}

/**
 * Reads a file into structured blocks, choosing the reader by content type, then extension, then the
 * first bytes: PDF (per page), DOCX, PPTX, XLSX, HTML, CSV/TSV, Markdown, plain text, JSON / JSON Lines.
 *
 * Rejects with ExtractionError only: `unsupported_format` (the message names the content type),
 * `unreadable_document` (damaged or not of its declared format), `empty_document` (no text, e.g. a scanned
 * PDF), `too_large` (over `maxPages`, `maxChars`, `timeoutMs`, or for Office files `maxUnzippedBytes`,
 * `maxXmlBytes`, `maxElements`, `maxDepth`, `maxCells`: decompression bombs fail here, bounded, instead
 * of exhausting the process). When the caller's `signal` aborts, rejects with the signal's reason instead.
 *
 * @example
 * const document = await extractDocument(bytes, 'application/pdf', 'handbook.pdf', { signal });
 * const passages = chunkDocument(document, indexingOptionsFrom(file.indexing.configuration).chunk);
 */
export async function extractDocument(
  bytes: Buffer,
  contentType: string,
  key: string,
  options: ExtractOptions = {},
): Promise<ExtractedDocument> {
  const detection = detectFormat(bytes, contentType, key);
  if (detection.format === undefined) throw new ExtractionError('unsupported_format', detection.reason);
  const format = detection.format;
  const { timeoutMs, ...limits } = resolveLimits(options);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const ctx: ExtractContext = { key, signal, ...limits };
  let document: ExtractedDocument;
  try {
    throwIfAborted(signal);
    document = clean(
      await raceAbort(
        Promise.resolve().then(() => READERS[format](bytes, ctx)),
        signal,
      ),
      ctx,
    );
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.aborted) {
      throw new ExtractionError(
        'too_large',
        `"${key}" took longer than ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`} to read, the limit for one document.`,
      );
    }
    throw asExtractionError(error, key, FORMAT_LABELS[format]);
  }
  if (document.blocks.length === 0) {
    const hint =
      format === 'pdf' ? ' (a scanned PDF has no text layer; text recognition is not supported)' : '';
    throw new ExtractionError('empty_document', `"${key}" contains no text to index${hint}.`);
  }
  return document;
}
