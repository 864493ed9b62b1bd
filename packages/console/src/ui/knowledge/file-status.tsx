import type { FileObject, FileStatus, KnowledgeBaseFile } from '@parley/client';
import { useMemo } from 'preact/hooks';
import { useConsole } from '../../context.js';

/** A file's states, in the order they happen, with the words people read. */
export const FILE_STATUS_WORDS: Record<FileStatus, string> = {
  upload_pending: 'Waiting for upload',
  upload_failed: 'Upload failed',
  upload_completed: 'Uploaded',
  indexing_pending: 'Indexing',
  indexing_failed: 'Indexing failed',
  indexing_completed: 'Indexed',
};

/** Every state, for the status filter. */
export const FILE_STATUSES = Object.keys(FILE_STATUS_WORDS) as FileStatus[];

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
  return <span class={`badge ${tone}`}>{FILE_STATUS_WORDS[file.status]}</span>;
}

/** A file of a knowledge base, with its record's details while it is not settled (indexing progress). */
export interface LinkedFile extends KnowledgeBaseFile {
  detail?: FileObject | undefined;
}
