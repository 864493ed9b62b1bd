export { type DocumentFormat, detectFormat } from './detect-format.js';
export { extractDocument } from './extract-document.js';
export { DEFAULT_EXTRACT_LIMITS, type ExtractOptions } from './options.js';
