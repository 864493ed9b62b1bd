import { zipEntryNames } from './zip.js';

/** The formats extraction reads. */
export type DocumentFormat =
  | 'pdf'
  | 'docx'
  | 'pptx'
  | 'xlsx'
  | 'html'
  | 'csv'
  | 'tsv'
  | 'markdown'
  | 'text'
  | 'json'
  | 'jsonl';

/** Names of the formats for messages. */
export const FORMAT_LABELS: Record<DocumentFormat, string> = {
  pdf: 'PDF',
  docx: 'DOCX',
  pptx: 'PPTX',
  xlsx: 'XLSX',
  html: 'HTML',
  csv: 'CSV',
  tsv: 'TSV',
  markdown: 'Markdown',
  text: 'plain text',
  json: 'JSON',
  jsonl: 'JSON Lines',
};

const BY_CONTENT_TYPE: Record<string, DocumentFormat> = {
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-word.document.macroenabled.12': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.ms-powerpoint.presentation.macroenabled.12': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-excel.sheet.macroenabled.12': 'xlsx',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/comma-separated-values': 'csv',
  'text/tab-separated-values': 'tsv',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'application/json': 'json',
  'text/json': 'json',
  'application/x-ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'application/x-jsonlines': 'jsonl',
  'text/plain': 'text',
};

/** Textual types without a reader of their own, indexed as plain text. */
const TEXT_LIKE = new Set([
  'application/xml',
  'application/javascript',
  'application/x-javascript',
  'application/typescript',
  'application/x-yaml',
  'application/yaml',
  'application/x-sh',
  'application/sql',
  'application/x-tex',
]);

const BY_EXTENSION: Record<string, DocumentFormat> = {
  pdf: 'pdf',
  docx: 'docx',
  docm: 'docx',
  pptx: 'pptx',
  pptm: 'pptx',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  md: 'markdown',
  markdown: 'markdown',
  mdown: 'markdown',
  mkd: 'markdown',
  json: 'json',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  txt: 'text',
  text: 'text',
  log: 'text',
  rst: 'text',
  adoc: 'text',
  yaml: 'text',
  yml: 'text',
  xml: 'text',
  ini: 'text',
  toml: 'text',
};

/** Formats a `text/plain` upload may really be, going by its extension. */
const TEXT_FORMATS = new Set<DocumentFormat>(['html', 'csv', 'tsv', 'markdown', 'json', 'jsonl', 'text']);

/** Legacy binary Office formats, named in the unsupported message. */
const LEGACY_OFFICE: Record<string, string> = {
  'application/msword': 'DOCX',
  'application/vnd.ms-powerpoint': 'PPTX',
  'application/vnd.ms-excel': 'XLSX',
  doc: 'DOCX',
  ppt: 'PPTX',
  xls: 'XLSX',
};

/** The media type of a Content-Type value, lower-cased, parameters dropped. */
export function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** The lower-cased extension of a key's last segment, without the dot ('' when none). */
export function extensionOf(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The format of `bytes` guessed from its first bytes: `%PDF-`, or an Office zip by its main part. */
function sniff(bytes: Uint8Array): DocumentFormat | undefined {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'pdf';
  if (head.startsWith('PK\u0003\u0004')) {
    const names = zipEntryNames(bytes) ?? [];
    if (names.includes('word/document.xml')) return 'docx';
    if (names.includes('ppt/presentation.xml')) return 'pptx';
    if (names.includes('xl/workbook.xml')) return 'xlsx';
  }
  return undefined;
}

/** A format, or why none applies (the message names the content type). */
export type Detection = { format: DocumentFormat } | { format: undefined; reason: string };

/**
 * The format of a file: by its content type; when the type is generic (`application/octet-stream`,
 * missing) or unknown, by the key's extension, then by the first bytes. `text/plain` may be refined by
 * the extension to another text format (`.md`, `.csv`, `.json`, `.html`); other text types read as text.
 */
export function detectFormat(bytes: Uint8Array, contentType: string, key: string): Detection {
  const type = mediaType(contentType);
  const extension = extensionOf(key);
  const byExtension = BY_EXTENSION[extension];
  const byType = BY_CONTENT_TYPE[type];
  if (byType === 'text')
    return { format: byExtension && TEXT_FORMATS.has(byExtension) ? byExtension : 'text' };
  if (byType) return { format: byType };
  // Windows browsers send CSV files as application/vnd.ms-excel.
  if (type === 'application/vnd.ms-excel' && (byExtension === 'csv' || byExtension === 'tsv')) {
    return { format: byExtension };
  }
  const legacy = LEGACY_OFFICE[type] ?? LEGACY_OFFICE[extension];
  if (legacy !== undefined && byExtension === undefined) {
    return {
      format: undefined,
      reason: `Files of type "${type || extension}" (legacy binary Office format) cannot be indexed; save "${key}" as ${legacy} and upload it again.`,
    };
  }
  if (byExtension && !/^(image|audio|video|font|model)\//.test(type)) return { format: byExtension };
  if (type.endsWith('+json')) return { format: 'json' };
  if (
    type.endsWith('+xml') ||
    TEXT_LIKE.has(type) ||
    (type.startsWith('text/') && !type.startsWith('text/rtf'))
  ) {
    return { format: 'text' };
  }
  const sniffed =
    type === '' || type === 'application/octet-stream' || type === 'binary/octet-stream'
      ? sniff(bytes)
      : undefined;
  if (sniffed) return { format: sniffed };
  return {
    format: undefined,
    reason: `Files of type "${type || 'unknown'}" ("${key}") cannot be indexed; supported: PDF, DOCX, PPTX, XLSX, HTML, CSV, Markdown, plain text and JSON.`,
  };
}
