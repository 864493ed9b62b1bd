import { baseLanguage } from '../../search/language/detect.js';
import type { FileRow } from '../files/contract.js';

/**
 * The language its metadata tells of a document (issue #38): its `language` (a BCP-47 tag, kept as its base
 * language), if it is a string tag. When it tells none, the document's language is detected from the beginning
 * of its text (`passagesLanguage`, in the document reader's worker for a document read).
 */
export function toldLanguage(file: Pick<FileRow, 'metadata'>): string | undefined {
  try {
    const value = (JSON.parse(file.metadata) as { language?: unknown }).language;
    return typeof value === 'string' ? baseLanguage(value) : undefined;
  } catch {
    return undefined;
  }
}
