import Type, { type Static } from 'typebox';
import { ListMeta, SortDirection, Timestamp } from './common.js';

/** Largest file the Files API accepts (spec Limits: 1 GB). */
export const MAX_FILE_SIZE = 1024 * 1024 * 1024;
/** Longest a file may be kept before it expires: 90 days. */
export const MAX_FILE_EXPIRY_MS = 90 * 24 * 3600 * 1000;
/** Most ids a listFiles `ids` filter takes. */
export const MAX_FILE_IDS = 50;

/** Access policies a file may carry. */
export const FileAccessPolicy = Type.Union([Type.Literal('public_content'), Type.Literal('integrations')]);
/** Access policy type. */
export type FileAccessPolicy = Static<typeof FileAccessPolicy>;

/** States of a file (API-COMPAT.md status machine). */
export const FILE_STATUSES = [
  'upload_pending',
  'upload_failed',
  'upload_completed',
  'indexing_pending',
  'indexing_failed',
  'indexing_completed',
] as const;
/** File status. */
export const FileStatus = Type.Union([
  Type.Literal('upload_pending'),
  Type.Literal('upload_failed'),
  Type.Literal('upload_completed'),
  Type.Literal('indexing_pending'),
  Type.Literal('indexing_failed'),
  Type.Literal('indexing_completed'),
]);
/** File status type. */
export type FileStatus = Static<typeof FileStatus>;

/** Who created a file. */
export const FileOwner = Type.Object({
  type: Type.Union([Type.Literal('bot'), Type.Literal('integration'), Type.Literal('user')]),
  id: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  alias: Type.Optional(Type.String()),
});

/** File tags: string to string, values at most 1000 characters. */
export const FileTags = Type.Record(
  Type.String({ minLength: 1, maxLength: 100 }),
  Type.String({ maxLength: 1000 }),
);

/** A file record (API-COMPAT.md "File object"). */
export const FileObject = Type.Object(
  {
    id: Type.String(),
    botId: Type.String(),
    key: Type.String(),
    url: Type.String({
      description: 'Permanent for public_content files; otherwise a short-lived signed URL',
    }),
    size: Type.Union([Type.Integer(), Type.Null()], { description: 'null until uploaded' }),
    contentType: Type.String(),
    tags: FileTags,
    metadata: Type.Record(Type.String(), Type.Unknown()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    accessPolicies: Type.Array(FileAccessPolicy),
    index: Type.Boolean(),
    status: FileStatus,
    failedStatusReason: Type.Optional(Type.String()),
    language: Type.Optional(
      Type.String({
        description:
          "The document's language (ISO 639-1), detected from its text at indexing, or its metadata's `language`; absent until indexed or when unknown",
      }),
    ),
    expiresAt: Type.Optional(Timestamp),
    owner: FileOwner,
    checksum: Type.Optional(Type.String({ description: 'sha256 of the content, hex' })),
    indexingProgress: Type.Optional(
      Type.Object(
        { done: Type.Integer(), total: Type.Integer() },
        { description: 'Passages indexed of total, while indexing runs' },
      ),
    ),
  },
  { $id: 'File' },
);
/** File type. */
export type FileObject = Static<typeof FileObject>;

/** Body of upsertFile. */
export const UpsertFileBody = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 1024 }),
  size: Type.Integer({
    minimum: 0,
    description: `Bytes that will be uploaded, at most ${MAX_FILE_SIZE} (1 GB; more is 413)`,
  }),
  tags: Type.Optional(FileTags),
  index: Type.Optional(Type.Boolean()),
  indexing: Type.Optional(
    Type.Object({
      configuration: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), {
          description:
            "Chunking and parsing options, stored on the file: Parley's chunking.maxTokens/overlapTokens and the public client's options it can honour (docs/knowledge.md, Indexing options); any other option, or one turned on that Parley does not support, is a 400 naming it",
        }),
      ),
    }),
  ),
  accessPolicies: Type.Optional(Type.Array(FileAccessPolicy, { maxItems: 2, uniqueItems: true })),
  contentType: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  expiresAt: Type.Optional(Timestamp),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
/** upsertFile body type. */
export type UpsertFileBody = Static<typeof UpsertFileBody>;

/** Body of updateFileMetadata; `null` tag values remove a tag, `expiresAt: null` removes the expiry. */
export const UpdateFileBody = Type.Object({
  tags: Type.Optional(
    Type.Record(
      Type.String({ minLength: 1, maxLength: 100 }),
      // One `type` list, not a union: with Ajv's type coercion a union's string branch turns null into "".
      Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 1000 }),
    ),
  ),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  accessPolicies: Type.Optional(Type.Array(FileAccessPolicy, { maxItems: 2, uniqueItems: true })),
  expiresAt: Type.Optional(Type.Union([Timestamp, Type.Null()])),
});
/** updateFileMetadata body type. */
export type UpdateFileBody = Static<typeof UpdateFileBody>;

/** Query of listFiles (tag filters come as `tags.*` keys besides these). */
export const ListFilesQuery = Type.Object({
  nextToken: Type.Optional(Type.String()),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  sortField: Type.Optional(
    Type.Union([
      Type.Literal('key'),
      Type.Literal('size'),
      Type.Literal('createdAt'),
      Type.Literal('updatedAt'),
      Type.Literal('status'),
    ]),
  ),
  sortDirection: Type.Optional(SortDirection),
  tags: Type.Optional(Type.Unknown()),
  ids: Type.Optional(Type.Array(Type.String(), { maxItems: MAX_FILE_IDS })),
  indexed: Type.Optional(Type.Boolean()),
  keyContains: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      description: 'Only files whose key contains this text (case-insensitive for ASCII letters)',
    }),
  ),
  status: Type.Optional(
    Type.Array(FileStatus, {
      minItems: 1,
      maxItems: FILE_STATUSES.length,
      description: 'Only files in one of these states (repeat the parameter for several)',
    }),
  ),
});

/** Answer of listFiles: a page of files, and how many match the filters in all (on every page). */
export const ListFilesResponse = Type.Object({
  files: Type.Array(FileObject),
  meta: Type.Object({
    ...ListMeta.properties,
    total: Type.Optional(Type.Integer({ description: 'Files matching the filters, on every page' })),
  }),
});

/**
 * A resumable upload session as its URLs answer it (POST on an upload URL starts one; GET its `url` for its
 * state, PATCH bytes at `upload-offset`, DELETE to cancel).
 */
export const ResumableUpload = Type.Object({
  id: Type.String(),
  url: Type.String({
    description:
      'The signed URL of the session: GET its state, PATCH bytes at upload-offset, DELETE to cancel',
  }),
  size: Type.Integer({
    description: "The file's declared size: the upload completes when offset reaches it",
  }),
  offset: Type.Integer({
    description: 'Bytes received and stored so far: the next PATCH sends the bytes from here',
  }),
  status: Type.Union([Type.Literal('active'), Type.Literal('completed')]),
  expiresAt: Type.String({
    format: 'date-time',
    description: 'Past this the session answers 410 and its bytes are dropped',
  }),
});
/** Resumable upload session type. */
export type ResumableUpload = Static<typeof ResumableUpload>;
