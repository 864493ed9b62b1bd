import type { SearchPassage } from '@parley/protocol';

/** What a test passage may set; the rest has plain defaults. */
export interface TestPassageOptions {
  fileId?: string;
  position?: number;
  score?: number;
  subtype?: 'title' | 'subtitle' | 'paragraph' | 'table';
  /** Its file's key (default `<fileId>.md`). */
  key?: string;
  /** Its headings, as searchFiles' breadcrumb context gives them (`Handbook › Shipping`). */
  breadcrumb?: string;
}

let next = 0;

/**
 * A searchFiles passage for unit tests of what is made of search results (answers, their quotes and gate).
 * Positions count up on their own unless given.
 * @example searchPassage('Refunds take 5 days.', { fileId: 'file_faq', score: 2 })
 */
export function searchPassage(content: string, options: TestPassageOptions = {}): SearchPassage {
  next += 1;
  const fileId = options.fileId ?? 'file_1';
  return {
    content,
    score: options.score ?? 1,
    meta: { type: 'chunk', subtype: options.subtype ?? 'paragraph', position: options.position ?? next },
    file: {
      id: fileId,
      key: options.key ?? `${fileId}.md`,
      contentType: 'text/markdown',
      metadata: {},
      tags: {},
      createdAt: '2026-11-25T00:00:00.000Z',
      updatedAt: '2026-11-25T00:00:00.000Z',
    },
    ...(options.breadcrumb
      ? {
          context: [
            { text: options.breadcrumb, offset: 0, type: 'breadcrumb' as const },
            { text: content, offset: 0, type: 'current' as const },
          ],
        }
      : {}),
  };
}
