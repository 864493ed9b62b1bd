import type { FileObject, FileStatus, KnowledgeBaseFile } from '@parley/client';
import { useMemo } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { type MessageKey, t } from '../../i18n.js';

/** A file's states, in the order they happen, with the key of the words people read. */
const FILE_STATUS_KEYS = {
  upload_pending: 'fileStatus.uploadPending',
  upload_failed: 'fileStatus.uploadFailed',
  upload_completed: 'fileStatus.uploaded',
  indexing_pending: 'fileStatus.indexing',
  indexing_failed: 'fileStatus.indexingFailed',
  indexing_completed: 'fileStatus.indexed',
} as const satisfies Record<FileStatus, MessageKey>;

/** A file's state in the words people read, in the Console's language. */
export const fileStatusWords = (status: FileStatus): string => t(FILE_STATUS_KEYS[status]);

/** Every state, for the status filter. */
export const FILE_STATUSES = Object.keys(FILE_STATUS_KEYS) as FileStatus[];

/** Whether a file will not change state by itself any more (nothing to wait for). */
export function isSettled(status: FileStatus, indexed = true): boolean {
  if (status === 'upload_completed') return !indexed;
  return status !== 'indexing_pending' && status !== 'upload_pending';
}

/**
 * Whether Parley itself is moving a file on (indexing it): what a page waits for live. A file waiting for
 * its upload moves only when someone sends the bytes, so pages poll for it only while they send them.
 */
export function isIndexing(status: FileStatus, indexed = true): boolean {
  return status === 'indexing_pending' || (status === 'upload_completed' && indexed);
}

/** Whether a state is a failure. */
export function isFailed(status: FileStatus): boolean {
  return status === 'upload_failed' || status === 'indexing_failed';
}

/** How often the pages of files still being indexed ask again, in ms. */
export const LIVE_EVERY = 1500;

/** The client of the Files API for one bot (its `x-bot-id`), authenticated by the session cookie. */
export function useBotClient(botId: string) {
  const { client } = useConsole();
  return useMemo(() => client.with({ botId }), [client, botId]);
}

/** The link of a bot's file panel. */
export function filePath(botId: string, fileId: string): string {
  return `/console/bots/${encodeURIComponent(botId)}/files/${encodeURIComponent(fileId)}`;
}

/** A file's state as a badge, with the reason of a failure in words. */
export function StatusBadge({ file }: { file: Pick<FileObject, 'status'> }) {
  const tone = isFailed(file.status)
    ? 'badge-failed'
    : file.status === 'indexing_completed'
      ? 'badge-active'
      : 'badge-working';
  return <span class={`badge ${tone}`}>{fileStatusWords(file.status)}</span>;
}

/** A file of a knowledge base, with its record's details while it is not settled (indexing progress). */
export interface LinkedFile extends KnowledgeBaseFile {
  detail?: FileObject | undefined;
}
