import type { FileStatus } from '@parley/client';
import { type MessageKey, t } from '../../i18n.js';

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
const CODES: Record<string, { lead: MessageKey; retry: boolean; next: MessageKey }> = {
  unsupported_format: { lead: 'failure.unsupported', retry: false, next: 'failure.unsupportedNext' },
  unreadable_document: { lead: 'failure.unreadable', retry: false, next: 'failure.unreadableNext' },
  empty_document: { lead: 'failure.empty', retry: false, next: 'failure.emptyNext' },
  too_large: { lead: 'failure.tooLarge', retry: false, next: 'failure.tooLargeNext' },
  quota_exceeded: { lead: 'failure.quota', retry: true, next: 'failure.quotaNext' },
  timeout: { lead: 'failure.timeout', retry: true, next: 'failure.reindex' },
  invalid_configuration: { lead: 'failure.config', retry: true, next: 'failure.configNext' },
  upload_expired: { lead: 'failure.expired', retry: false, next: 'failure.dropAgain' },
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
  const again = uploadFailed ? t('failure.sendAnew') : t('failure.reindex');
  if (!reason) return { words: t('failure.noReason', { again }), retry: !uploadFailed };
  const match = /^([a-z_]+): ([\s\S]*)$/.exec(reason);
  const code = match?.[1];
  const message = sentence(match?.[2] ?? reason);
  const known = code && Object.hasOwn(CODES, code) ? CODES[code] : undefined;
  if (known) {
    return {
      words: [t(known.lead), message, t(known.next)].filter(Boolean).join(' '),
      retry: known.retry && !uploadFailed,
    };
  }
  const lead = uploadFailed ? t('failure.uploadFailed') : t('failure.indexingError');
  return { words: [lead, message, again].filter(Boolean).join(' '), retry: !uploadFailed };
}
