import type { FileStatus } from '@parley/client';

/** Why a file failed, for people: the sentence to show, and whether indexing it again may help. */
export interface FailureWords {
  words: string;
  /** False when the file's own bytes are the cause: indexing them again fails again (no Re-index). */
  retry: boolean;
}

/**
 * The words for each failure code Parley records (`failedStatusReason` is `code: message`): the lead
 * sentence, whether a retry may help, and what to do next (after the message).
 */
const CODES: Record<string, { lead: string; retry: boolean; next: string }> = {
  unsupported_format: {
    lead: 'This kind of file cannot be read.',
    retry: false,
    next: 'Save it as PDF, Word, Markdown, HTML, text, CSV, JSON, Excel or PowerPoint and drop it again.',
  },
  unreadable_document: {
    lead: 'The file could not be read.',
    retry: false,
    next: 'Drop a readable copy to replace it.',
  },
  empty_document: {
    lead: 'The file has no text to search.',
    retry: false,
    next: 'A scanned document needs its text recognised first: drop a copy with text.',
  },
  too_large: { lead: 'The file is too large to index.', retry: false, next: 'Split it into smaller files.' },
  quota_exceeded: {
    lead: 'The workspace has no room left for its search index.',
    retry: true,
    next: 'Remove files it no longer needs, then press Re-index.',
  },
  timeout: {
    lead: 'Indexing took too long and was stopped.',
    retry: true,
    next: 'Press Re-index to try again.',
  },
  invalid_configuration: {
    lead: "The file's indexing settings are not valid.",
    retry: true,
    next: 'Correct them, then press Re-index.',
  },
  upload_expired: {
    lead: 'The upload stopped before the whole file arrived.',
    retry: false,
    next: 'Drop the file again.',
  },
};

/** A sentence's first letter in capitals and a full stop at its end. */
function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return '';
  const capital = trimmed[0]?.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * A failed file's reason in words (never the raw `code: …`), and whether Re-index is worth offering.
 * @example describeFailure('indexing_failed', 'unsupported_format: Files of type "x" cannot be indexed')
 *   // { words: 'This kind of file cannot be read. Files of type "x" cannot be indexed. Save it as …', retry: false }
 */
export function describeFailure(status: FileStatus, reason: string | null | undefined): FailureWords {
  const uploadFailed = status === 'upload_failed';
  const again = uploadFailed ? 'Drop the file again to send it anew.' : 'Press Re-index to try again.';
  if (!reason) return { words: `Parley gave no reason. ${again}`, retry: !uploadFailed };
  const match = /^([a-z_]+): ([\s\S]*)$/.exec(reason);
  const code = match?.[1];
  const message = sentence(match?.[2] ?? reason);
  const known = code ? CODES[code] : undefined;
  if (known) {
    return {
      words: [known.lead, message, known.next].filter(Boolean).join(' '),
      retry: known.retry && !uploadFailed,
    };
  }
  const lead = uploadFailed ? 'The upload failed.' : 'Indexing stopped on an error.';
  return { words: [lead, message, again].filter(Boolean).join(' '), retry: !uploadFailed };
}
