import { type Kysely, PostgresAdapter, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FileUploadsTable } from '../../db/tables/files.js';

/** A resumable upload session row, numbers as numbers (PostgreSQL answers bigint as text). */
export type UploadSessionRow = Selectable<FileUploadsTable>;

/** A stored part of a resumable upload. */
export interface UploadPartRow {
  offset: number;
  size: number;
  blob_key: string;
}

function session(row: Selectable<FileUploadsTable> | undefined): UploadSessionRow | undefined {
  return row && { ...row, size: Number(row.size), offset: Number(row.offset) };
}

/** Queries of resumable upload sessions (`file_uploads`) and their parts (`file_upload_parts`). */
export function uploadSessionsRepo(db: Kysely<Database>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    byId: async (id: string) =>
      session(await db.selectFrom('file_uploads').selectAll().where('id', '=', id).executeTakeFirst()),
    /** Inside a transaction: a session, its row locked until commit (PostgreSQL `FOR UPDATE`). */
    byIdLocked: async (id: string) => {
      const q = db.selectFrom('file_uploads').selectAll().where('id', '=', id);
      return session(await (postgres ? q.forUpdate() : q).executeTakeFirst());
    },
    byFileVersion: async (fileId: string, version: number) =>
      session(
        await db
          .selectFrom('file_uploads')
          .selectAll()
          .where('file_id', '=', fileId)
          .where('upload_version', '=', version)
          .executeTakeFirst(),
      ),
    insert: (row: UploadSessionRow) => db.insertInto('file_uploads').values(row).execute(),
    update: (id: string, values: Partial<Pick<UploadSessionRow, 'offset' | 'status' | 'updated_at'>>) =>
      db.updateTable('file_uploads').set(values).where('id', '=', id).execute(),
    delete: (id: string) => db.deleteFrom('file_uploads').where('id', '=', id).execute(),
    /** Sessions whose expiry has passed, oldest first. */
    expired: async (now: string, limit: number) =>
      (
        await db
          .selectFrom('file_uploads')
          .selectAll()
          .where('expires_at', '<=', now)
          .orderBy('expires_at')
          .limit(limit)
          .execute()
      ).map((r) => session(r) as UploadSessionRow),
    /** Active sessions whose file no longer waits for them (re-upserted, uploaded by a PUT, deleted). */
    stale: async (limit: number) =>
      (
        await db
          .selectFrom('file_uploads')
          .leftJoin('files', 'files.id', 'file_uploads.file_id')
          .selectAll('file_uploads')
          .where('file_uploads.status', '=', 'active')
          .where((eb) =>
            eb.or([
              eb('files.id', 'is', null),
              eb('files.upload_version', '!=', eb.ref('file_uploads.upload_version')),
              eb('files.status', '!=', 'upload_pending'),
            ]),
          )
          .limit(limit)
          .execute()
      ).map((r) => session(r) as UploadSessionRow),
    addPart: (uploadId: string, part: UploadPartRow) =>
      db
        .insertInto('file_upload_parts')
        .values({ upload_id: uploadId, ...part })
        .execute(),
    /** The parts of a session in the order of their bytes. */
    parts: async (uploadId: string): Promise<UploadPartRow[]> =>
      (
        await db
          .selectFrom('file_upload_parts')
          .select(['offset', 'size', 'blob_key'])
          .where('upload_id', '=', uploadId)
          .orderBy('offset')
          .execute()
      ).map((p) => ({ offset: Number(p.offset), size: Number(p.size), blob_key: p.blob_key })),
    deleteParts: (uploadId: string) =>
      db.deleteFrom('file_upload_parts').where('upload_id', '=', uploadId).execute(),
    /** Of these part blob keys, those no part row holds. */
    unheldParts: async (keys: string[]) => {
      if (keys.length === 0) return [];
      const rows = await db
        .selectFrom('file_upload_parts')
        .select('blob_key')
        .where('blob_key', 'in', keys)
        .execute();
      const held = new Set(rows.map((r) => r.blob_key));
      return keys.filter((k) => !held.has(k));
    },
  };
}
