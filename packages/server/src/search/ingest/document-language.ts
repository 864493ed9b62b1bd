import { DETECT_SAMPLE_CHARS, detectLanguage } from '../language/detect.js';
import type { Passage } from '../types.js';

/**
 * The language detected from a document's passages (issue #38): their beginning, up to the detector's sample;
 * undefined when the detector cannot tell. Run by the document reader's workers (it costs milliseconds of
 * CPU a document, kept off the thread that serves requests), and for passages a caller stored itself.
 */
export function passagesLanguage(passages: readonly Pick<Passage, 'content'>[]): string | undefined {
  let sample = '';
  for (const p of passages) {
    if (sample.length >= DETECT_SAMPLE_CHARS) break;
    sample += `${p.content}\n`;
  }
  return detectLanguage(sample);
}
