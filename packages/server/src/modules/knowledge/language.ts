import { baseLanguage, DETECT_SAMPLE_CHARS, detectLanguage } from '../../search/language/detect.js';
import type { Passage } from '../../search/types.js';
import type { FileRow } from '../files/contract.js';

/**
 * A document's language (issue #38): its metadata's `language` (a BCP-47 tag, kept as its base language) when
 * set, else detected from the beginning of its text; null when neither tells.
 */
export function documentLanguage(
  file: Pick<FileRow, 'metadata'>,
  passages: Pick<Passage, 'content'>[],
): string | null {
  const told = metadataLanguage(file.metadata);
  if (told) return told;
  let sample = '';
  for (const p of passages) {
    if (sample.length >= DETECT_SAMPLE_CHARS) break;
    sample += `${p.content}\n`;
  }
  return detectLanguage(sample) ?? null;
}

/** The base language of the metadata's `language` (`de-CH` → `de`), if it is a string tag. */
function metadataLanguage(metadata: string): string | undefined {
  try {
    const value = (JSON.parse(metadata) as { language?: unknown }).language;
    return typeof value === 'string' ? baseLanguage(value) : undefined;
  } catch {
    return undefined;
  }
}
