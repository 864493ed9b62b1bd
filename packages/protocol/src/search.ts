import Type, { type Static } from 'typebox';
import { ListMeta, Timestamp } from './common.js';
import { FileStatus } from './files.js';

/** Longest search query, in bytes (spec Limits: 1 KB). */
export const MAX_QUERY_BYTES = 1024;
/** Most passages a search answers (spec Limits: 50). */
export const MAX_SEARCH_RESULTS = 50;
/** Most passages listFilePassages answers per page. */
export const MAX_PASSAGES_PAGE = 200;

/** How searchFiles ranks: both signals fused (default), words only, or meaning only. */
export const SearchMode = Type.Union([
  Type.Literal('hybrid'),
  Type.Literal('lexical'),
  Type.Literal('semantic'),
]);
/** Search mode type. */
export type SearchMode = Static<typeof SearchMode>;

/** Query of searchFiles (tag filters come as `tags.*` keys besides these). */
export const SearchFilesQuery = Type.Object({
  query: Type.String({ minLength: 1, description: `What to look for, at most ${MAX_QUERY_BYTES} bytes` }),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: `Passages to answer (default 20, at most ${MAX_SEARCH_RESULTS})`,
    }),
  ),
  tags: Type.Optional(Type.Unknown()),
  contextDepth: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
  consolidate: Type.Optional(Type.Boolean()),
  includeBreadcrumb: Type.Optional(Type.Boolean()),
  withContext: Type.Optional(Type.Boolean()),
  knowledgeBaseIds: Type.Optional(
    Type.Array(Type.String(), { maxItems: 50, description: 'Only files linked to these knowledge bases' }),
  ),
  mode: Type.Optional(SearchMode),
});

/** Where a passage sits in its file. */
export const PassageMeta = Type.Object({
  type: Type.Union([
    Type.Literal('chunk'),
    Type.Literal('summary'),
    Type.Literal('consolidated'),
    Type.Literal('image'),
  ]),
  subtype: Type.Optional(
    Type.Union([
      Type.Literal('title'),
      Type.Literal('subtitle'),
      Type.Literal('paragraph'),
      Type.Literal('blockquote'),
      Type.Literal('list'),
      Type.Literal('table'),
      Type.Literal('code'),
      Type.Literal('image'),
      Type.Literal('page'),
    ]),
  ),
  pageNumber: Type.Optional(Type.Integer()),
  position: Type.Optional(Type.Integer()),
  sourceUrl: Type.Optional(Type.String()),
});

/** The file a passage belongs to, as search answers it. */
export const PassageFile = Type.Object({
  id: Type.String(),
  key: Type.String(),
  contentType: Type.String(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  tags: Type.Record(Type.String(), Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** One passage of a search answer. */
export const SearchPassage = Type.Object({
  content: Type.String(),
  score: Type.Number(),
  meta: PassageMeta,
  file: PassageFile,
  context: Type.Optional(
    Type.Array(
      Type.Object({
        text: Type.String(),
        offset: Type.Integer(),
        type: Type.Union([
          Type.Literal('preceding'),
          Type.Literal('subsequent'),
          Type.Literal('current'),
          Type.Literal('breadcrumb'),
        ]),
      }),
    ),
  ),
});
/** Search passage type. */
export type SearchPassage = Static<typeof SearchPassage>;

/** Answer of searchFiles. */
export const SearchFilesResponse = Type.Object({ passages: Type.Array(SearchPassage) });

/** A stored passage of one file (listFilePassages). */
export const FilePassage = Type.Object({
  id: Type.String(),
  content: Type.String(),
  meta: PassageMeta,
  breadcrumb: Type.Optional(Type.Array(Type.String())),
});

/** Answer of listFilePassages. */
export const ListFilePassagesResponse = Type.Object({ passages: Type.Array(FilePassage), meta: ListMeta });

/** Body of setFilePassages: the caller's own chunks replace the file's passages. */
export const SetFilePassagesBody = Type.Object({
  passages: Type.Array(
    Type.Object({
      content: Type.String({ minLength: 1, maxLength: 20_000 }),
      meta: Type.Optional(
        Type.Object({
          subtype: Type.Optional(PassageMeta.properties.subtype),
          pageNumber: Type.Optional(Type.Integer({ minimum: 1 })),
        }),
      ),
    }),
    { maxItems: 10_000 },
  ),
});

/** A knowledge base: a named group of files searched together. */
export const KnowledgeBase = Type.Object(
  {
    id: Type.String(),
    botId: Type.String(),
    name: Type.String(),
    tags: Type.Record(Type.String(), Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    /** Files linked, and how many are in each indexing state, so a client never waits on a file that will not finish. */
    files: Type.Object({
      total: Type.Integer(),
      indexed: Type.Integer(),
      pending: Type.Integer(),
      failed: Type.Integer(),
      /** Bytes of the linked files that were uploaded (a file still waiting for its upload counts 0). */
      size: Type.Integer(),
    }),
  },
  { $id: 'KnowledgeBase' },
);
/** Knowledge base type. */
export type KnowledgeBase = Static<typeof KnowledgeBase>;

/** Body of createKnowledgeBase / updateKnowledgeBase. */
export const KnowledgeBaseBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  tags: Type.Optional(
    Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.String({ maxLength: 1000 })),
  ),
});

/** A file linked to a knowledge base, with its indexing state (listKnowledgeBaseFiles). */
export const KnowledgeBaseFile = Type.Object({
  fileId: Type.String(),
  key: Type.String(),
  status: FileStatus,
  failedStatusReason: Type.Optional(Type.String()),
  linkedAt: Timestamp,
});
/** Knowledge base file type. */
export type KnowledgeBaseFile = Static<typeof KnowledgeBaseFile>;
/** Answer of listKnowledgeBaseFiles. */
export const ListKnowledgeBaseFilesResponse = Type.Object({ files: Type.Array(KnowledgeBaseFile) });
/** listKnowledgeBaseFiles answer type. */
export type ListKnowledgeBaseFilesResponse = Static<typeof ListKnowledgeBaseFilesResponse>;
