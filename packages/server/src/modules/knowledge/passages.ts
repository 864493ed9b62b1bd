import type { FileObject } from '@parley/protocol';
import { errors } from '../../errors/errors.js';
import type { Page } from '../../http/pagination.js';
import { decodeCursor, encodeCursor } from '../../http/pagination.js';
import type { PassageIndex } from '../../search/index/index.js';
import type { PassageSubtype } from '../../search/types.js';
import type { FilesContext, FilesService } from '../files/service.js';

/** A stored passage as listFilePassages answers it. */
export interface FilePassageView {
  id: string;
  content: string;
  meta: { type: 'chunk'; subtype: PassageSubtype; position: number; pageNumber?: number };
  breadcrumb: string[];
}

/** listFilePassages and setFilePassages. */
export function passagesService(deps: { index: PassageIndex; files: FilesService }) {
  return {
    async list(
      ctx: FilesContext,
      idOrKey: string,
      q: { nextToken?: string | undefined; limit?: number | undefined },
    ): Promise<Page<FilePassageView>> {
      const file = await deps.files.readable(ctx, idOrKey);
      const limit = q.limit ?? 20;
      const after = decodeCursor(q.nextToken, 'position:asc');
      const rows = await deps.index.listFilePassages(
        file.id,
        limit + 1,
        after ? Number(after.value) : undefined,
      );
      const items = rows.slice(0, limit).map((p) => ({
        id: p.id,
        content: p.content,
        meta: {
          type: 'chunk' as const,
          subtype: p.subtype,
          position: p.position,
          ...(p.pageNumber ? { pageNumber: p.pageNumber } : {}),
        },
        breadcrumb: p.breadcrumb,
      }));
      const last = items[items.length - 1];
      return {
        items,
        ...(rows.length > limit && last
          ? { nextToken: encodeCursor({ sort: 'position:asc', value: last.meta.position, id: last.id }) }
          : {}),
      };
    },

    /**
     * Replaces a file's passages with the caller's own (in order). A background job embeds them; the file is
     * then `indexing_completed` and its passages searchable.
     */
    async set(
      ctx: FilesContext,
      idOrKey: string,
      passages: Array<{
        content: string;
        meta?: { subtype?: PassageSubtype | undefined; pageNumber?: number | undefined } | undefined;
      }>,
    ): Promise<FileObject> {
      const file = await deps.files.writable(ctx, idOrKey);
      if (!file.blob_key)
        throw errors.invalidPayload(
          'The file has no uploaded content yet; upload it before setting its passages',
        );
      await deps.index.replaceFilePassages({
        fileId: file.id,
        botId: file.bot_id,
        passages: passages.map((p, position) => ({
          position,
          content: p.content,
          subtype: p.meta?.subtype ?? 'paragraph',
          breadcrumb: [],
          ...(p.meta?.pageNumber ? { pageNumber: p.meta.pageNumber } : {}),
        })),
      });
      // The files module marks the file and queues the job that embeds them.
      await deps.files.indexStoredPassages(file, passages.length);
      return deps.files.get(ctx, file.id);
    },
  };
}
/** The passages service. */
export type PassagesService = ReturnType<typeof passagesService>;
