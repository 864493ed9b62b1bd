import Type, { type Static } from 'typebox';

/** ISO 8601 timestamp string. */
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 timestamp' });

/** Metadata of a list page: `nextToken` is absent on the last page. */
export const ListMeta = Type.Object({
  nextToken: Type.Optional(Type.String({ description: 'Cursor for the next page; absent on the last page' })),
});
/** List page metadata type. */
export type ListMeta = Static<typeof ListMeta>;

/** Largest page size any list accepts. */
export const MAX_PAGE_SIZE = 100;
/** Page size when none is given. */
export const DEFAULT_PAGE_SIZE = 20;

/** Query parameters shared by cursor-paginated lists. */
export const PageQuery = {
  nextToken: Type.Optional(Type.String({ description: 'Cursor from a previous page' })),
  pageSize: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      description: `Items per page (default ${DEFAULT_PAGE_SIZE})`,
    }),
  ),
};

/** Sort direction of a list. */
export const SortDirection = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);
/** Sort direction type. */
export type SortDirection = Static<typeof SortDirection>;

/** String-to-string tags. */
export const Tags = Type.Record(
  Type.String({ minLength: 1, maxLength: 100 }),
  Type.String({ maxLength: 1000 }),
);
/** Tags type. */
export type Tags = Static<typeof Tags>;

/** An empty JSON object, the answer of delete operations. */
export const Empty = Type.Object({});
