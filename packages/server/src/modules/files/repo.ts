import { type Expression, type Kysely, PostgresAdapter, type Selectable, type SqlBool, sql } from 'kysely';
import { fixedQuery } from '../../db/fixed-query.js';
import { keysetPage } from '../../db/keyset.js';
import { likeContaining } from '../../db/like.js';
import type { Database } from '../../db/schema.js';
import type { FilesTable } from '../../db/tables/files.js';
import { type TagFilter, tagConditions } from '../../db/tag-filter.js';
import { tagRows } from '../../db/tags.js';
import type { Cursor } from '../../http/pagination.js';
import type { PassageVisibility } from '../../search/index/index.js';

/** File row. */
export type FileRow = Selectable<FilesTable>;

/** Sort columns of listFiles. */
export const FILE_SORT_COLUMNS = {
  key: 'key',
  size: 'size',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  status: 'status',
} as const;

/**
 * The size a file is listed and sorted with: null (-1 in SQL) while its latest upsert waits for, or failed,
 * its upload, even when older bytes are still served.
 */
export const LISTED_SIZE = sql<number>`case when status in ('upload_pending', 'upload_failed') then -1 else coalesce(size, -1) end`;

/** Most ids one query names (SQLite and PostgreSQL bound the parameters of a statement). */
const ID_BATCH = 500;

/** Advisory lock class of File Storage reservations (PostgreSQL): "FILE". */
const QUOTA_LOCK_CLASS = 0x46494c45;

/** Which files a caller may see in lists: all of the bot's, or (an integration) its own plus shared ones. */
export type FileVisibility = PassageVisibility;

/** What listFiles filters and sorts by. */
export interface FileListQuery extends FileFilter {
  sortField: keyof typeof FILE_SORT_COLUMNS;
  sortDirection: 'asc' | 'desc';
  limit: number;
  after?: Cursor | undefined;
}

/** Which of a bot's files a list keeps. */
export interface FileFilter {
  botId: string;
  visibility: FileVisibility;
  tags?: TagFilter | undefined;
  ids?: string[] | undefined;
  indexed?: boolean | undefined;
  /** Only keys containing this text (case-insensitive for ASCII letters). */
  keyContains?: string | undefined;
  /** Only files in one of these states. */
  status?: readonly string[] | undefined;
}

/** The condition of the files a visibility lets one see in lists (none: all of the bot's). */
function visible(v: FileVisibility): Expression<SqlBool> | undefined {
  return v.kind === 'all'
    ? undefined
    : sql<SqlBool>`((files.owner_type = 'integration' and files.owner_id = ${v.integrationId}) or files.access_policies like '%"integrations"%')`;
}

/**
 * The condition of keys containing `text`, whatever the case of its ASCII letters: a LIKE pattern with the
 * wildcards of `text` escaped, so `%` and `_` match themselves (SQLite and PostgreSQL alike).
 */
function keyContaining(text: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(files.key) like ${likeContaining(text.toLowerCase())} escape '\\'`;
}

/** A file by id, any bot's (every upload and indexing job reads it: compiled once, see fixedQuery). */
const fileById = fixedQuery(1, (db, id: string) => db.selectFrom('files').selectAll().where('id', '=', id));

/** A bot's file by key (every upsert reads it: compiled once, see fixedQuery). */
const fileByKey = fixedQuery(2, (db, botId: string, key: string) =>
  db.selectFrom('files').selectAll().where('bot_id', '=', botId).where('key', '=', key),
);

/** Until when a waiting upload may arrive (every upload sets it twice: compiled once, see fixedQuery). */
const uploadExpiry = fixedQuery(3, (db, until: string, id: string, version: number) =>
  db
    .updateTable('files')
    .set({ upload_expires_at: until })
    .where('id', '=', id)
    .where('upload_version', '=', version)
    .where('status', '=', 'upload_pending'),
);

/** Locks taken inside a transaction: the quota of a workspace, a file row. */
function lockQueries(db: Kysely<Database>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    /**
     * Inside a transaction: waits until no other transaction reserves File Storage of this workspace, in any
     * process (a PostgreSQL advisory lock held until commit). SQLite runs one transaction at a time already.
     */
    lockQuota: async (workspaceId: string) => {
      if (postgres)
        await sql`select pg_advisory_xact_lock(${QUOTA_LOCK_CLASS}, hashtext(${workspaceId}))`.execute(db);
    },
    /** Inside a transaction: a file by key, its row locked until commit (PostgreSQL `FOR UPDATE`). */
    byKeyLocked: async (botId: string, key: string): Promise<FileRow | undefined> => {
      if (!postgres) return (await fileByKey(db, botId, key)).rows[0];
      return db
        .selectFrom('files')
        .selectAll()
        .where('bot_id', '=', botId)
        .where('key', '=', key)
        .forUpdate()
        .executeTakeFirst();
    },
    /** Inside a transaction: a file by id, its row locked until commit (PostgreSQL `FOR UPDATE`). */
    byIdLocked: async (id: string): Promise<FileRow | undefined> => {
      if (postgres)
        return db.selectFrom('files').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      return (await fileById(db, id)).rows[0];
    },
  };
}

/** Files by id or key, their tags, their updates; and the expired ones. */
function rowQueries(db: Kysely<Database>) {
  const fileTags = tagRows(db, 'file_tags');
  return {
    insert: async (row: FileRow, tags: Record<string, string>) => {
      await db.insertInto('files').values(row).execute();
      await fileTags.add(row.id, tags);
    },
    byId: (botId: string, id: string) =>
      db.selectFrom('files').selectAll().where('bot_id', '=', botId).where('id', '=', id).executeTakeFirst(),
    byKey: async (botId: string, key: string): Promise<FileRow | undefined> =>
      (await fileByKey(db, botId, key)).rows[0],
    byIdAnyBot: async (id: string): Promise<FileRow | undefined> => (await fileById(db, id)).rows[0],
    /** Up to `limit` files (any bot) that are indexed and done with it, by id after `after`. */
    indexedAfter: (after: string, limit: number) =>
      db
        .selectFrom('files')
        .select(['id', 'upload_version'])
        .where('index', '=', 1)
        .where('status', '=', 'indexing_completed')
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit)
        .execute(),
    /** The files of these ids (of one bot, when given), read in batches so that any number of ids fits a query. */
    byIds: async (ids: string[], botId?: string): Promise<FileRow[]> => {
      const rows: FileRow[] = [];
      for (let i = 0; i < ids.length; i += ID_BATCH) {
        let q = db
          .selectFrom('files')
          .selectAll()
          .where('id', 'in', ids.slice(i, i + ID_BATCH));
        if (botId !== undefined) q = q.where('bot_id', '=', botId);
        rows.push(...(await q.execute()));
      }
      return rows;
    },
    tagsOf: fileTags.of,
    replaceTags: fileTags.replace,
    setTags: fileTags.set,
    update: (id: string, values: Partial<FileRow>) =>
      db.updateTable('files').set(values).where('id', '=', id).execute(),
    /**
     * Updates only while the file is still at this upload version and in this status (waiting for this very
     * upload, or for this very indexing job); answers whether it did.
     */
    updateWhile: async (id: string, state: { version: number; status: string }, values: Partial<FileRow>) => {
      const r = await db
        .updateTable('files')
        .set(values)
        .where('id', '=', id)
        .where('upload_version', '=', state.version)
        .where('status', '=', state.status)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    delete: (id: string) => db.deleteFrom('files').where('id', '=', id).execute(),
    /**
     * Ends `upload_failed` (with `reason`) a file still waiting, at this upload version, for an upload that can
     * no longer arrive at `now`; answers whether it did (not when an upload in flight extended the wait).
     */
    failExpiredUpload: async (id: string, version: number, now: string, reason: string) => {
      const r = await db
        .updateTable('files')
        .set({
          status: 'upload_failed',
          failed_status_reason: reason,
          upload_expires_at: null,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('upload_version', '=', version)
        .where('status', '=', 'upload_pending')
        .where('upload_expires_at', '<=', now)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Sets until when the upload of this upload version may still arrive, while the file waits for it. */
    setUploadExpiry: async (id: string, version: number, until: string): Promise<void> => {
      await uploadExpiry(db, until, id, version);
    },
    expired: (now: string, limit: number) =>
      db
        .selectFrom('files')
        .selectAll()
        .where('expires_at', 'is not', null)
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .execute(),
  };
}

/** Lists of files, of tag keys and of tag values; the bytes files store. */
function listQueries(db: Kysely<Database>) {
  /** The bot's files the filters of `q` keep. */
  const matching = (q: FileFilter) => {
    let query = db.selectFrom('files').where('bot_id', '=', q.botId);
    const vis = visible(q.visibility);
    if (vis) query = query.where(vis);
    if (q.ids && q.ids.length > 0) query = query.where('id', 'in', q.ids);
    if (q.indexed !== undefined) query = query.where('index', '=', q.indexed ? 1 : 0);
    if (q.keyContains !== undefined) query = query.where(keyContaining(q.keyContains));
    if (q.status && q.status.length > 0) query = query.where('status', 'in', [...q.status]);
    const tags = q.tags;
    if (tags)
      query = query.where((eb) => eb.and(tagConditions(eb, tags, 'file_tags', 'file_id', 'files.id')));
    return query;
  };
  return {
    list: (q: FileListQuery) => {
      const column = FILE_SORT_COLUMNS[q.sortField];
      // size is null until uploaded: sort it as -1 so keyset comparisons stay total.
      const key = column === 'size' ? LISTED_SIZE : column;
      return keysetPage(matching(q).selectAll(), { key, id: 'id', direction: q.sortDirection }, q);
    },
    /** How many files match the filters of `q` (all pages). */
    count: async (q: FileFilter): Promise<number> => {
      const row = await matching(q)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /**
     * Distinct tag keys of the bot's files the visibility lets one see (or, given `tagKey`, the values of that
     * tag), in order after `after`: `limit + 1` of them.
     */
    tagStrings: async (
      botId: string,
      visibility: FileVisibility,
      limit: number,
      after: string | undefined,
      tagKey?: string,
    ): Promise<string[]> => {
      const column = tagKey === undefined ? ('file_tags.key' as const) : ('file_tags.value' as const);
      let q = db
        .selectFrom('file_tags')
        .innerJoin('files', 'files.id', 'file_tags.file_id')
        .select((eb) => eb.ref(column).as('s'))
        .distinct()
        .where('files.bot_id', '=', botId);
      if (tagKey !== undefined) q = q.where('file_tags.key', '=', tagKey);
      const vis = visible(visibility);
      if (vis) q = q.where(vis);
      if (after !== undefined) q = q.where(column, '>', after);
      const rows = await q
        .orderBy('s')
        .limit(limit + 1)
        .execute();
      return rows.map((r) => r.s);
    },
    /**
     * Bytes stored by a bot's or a workspace's files, of one class: the team's (the default) or the chat users'
     * uploads (`chat`). With `reservedAt` (the time now), what the quota counts: a file waiting for an upload
     * that may still arrive holds the larger of its declared size and the bytes it still serves meanwhile.
     */
    storedBytes: async (
      where: { botId?: string; workspaceId?: string; chat?: boolean },
      reservedAt: string | undefined,
      exceptFileId?: string,
    ) => {
      const stored = sql`coalesce(size, 0)`;
      const perFile =
        reservedAt !== undefined
          ? sql`case when status = 'upload_pending' and upload_expires_at > ${reservedAt} and declared_size > ${stored} then declared_size else ${stored} end`
          : stored;
      let q = db.selectFrom('files').select(sql<string | number | null>`sum(${perFile})`.as('n'));
      if (where.botId) q = q.where('bot_id', '=', where.botId);
      if (where.workspaceId) q = q.where('workspace_id', '=', where.workspaceId);
      q = q.where('chat_user_id', where.chat ? 'is not' : 'is', null);
      if (exceptFileId) q = q.where('id', '!=', exceptFileId);
      return Number((await q.executeTakeFirstOrThrow()).n ?? 0);
    },
    /**
     * What one chat user's uploads to a bot hold at `now`: how many files (those uploaded, and those whose
     * upload may still arrive) and how many bytes (stored, or reserved by an upload that may still arrive).
     */
    chatUserHolds: async (botId: string, chatUserId: string, now: string) => {
      const waiting = sql`status = 'upload_pending' and upload_expires_at > ${now}`;
      const row = await db
        .selectFrom('files')
        .select([
          sql<string | number | null>`sum(case when ${waiting} or size is not null then 1 else 0 end)`.as(
            'files',
          ),
          sql<
            string | number | null
          >`sum(case when ${waiting} and declared_size > coalesce(size, 0) then declared_size else coalesce(size, 0) end)`.as(
            'bytes',
          ),
        ])
        .where('bot_id', '=', botId)
        .where('chat_user_id', '=', chatUserId)
        .executeTakeFirstOrThrow();
      return { files: Number(row.files ?? 0), bytes: Number(row.bytes ?? 0) };
    },
    /** Files still `upload_pending` whose upload can no longer arrive (expired at `now`), oldest first. */
    expiredUploads: (now: string, limit: number) =>
      db
        .selectFrom('files')
        .select(['id', 'upload_version', 'declared_size', 'upload_expires_at'])
        .where('status', '=', 'upload_pending')
        .where('upload_expires_at', '<=', now)
        .orderBy('upload_expires_at')
        .limit(limit)
        .execute(),
  };
}

function makeFilesRepo(db: Kysely<Database>) {
  return { ...lockQueries(db), ...rowQueries(db), ...listQueries(db) };
}

/** The files repository. */
export type FilesRepo = ReturnType<typeof makeFilesRepo>;

/** The repository of each handle (a page of a crawl asks for it a dozen times; its closures hold only `db`). */
const repos = new WeakMap<Kysely<Database>, FilesRepo>();

/** Queries of files and their tags. */
export function filesRepo(db: Kysely<Database>): FilesRepo {
  let repo = repos.get(db);
  if (!repo) {
    repo = makeFilesRepo(db);
    repos.set(db, repo);
  }
  return repo;
}
