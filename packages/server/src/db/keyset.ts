import { type Expression, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';

/**
 * The keyset condition of a cursor page: rows after `(value, id)` in the list's order, i.e.
 * `key > value or (key = value and id > lastId)` for an ascending list (`<` for a descending one).
 * The list must be ordered by `key` then `idColumn`, both in `direction`.
 * @example query.where(afterCursor('created_at', 'id', 'desc', String(after.value), after.id))
 */
export function afterCursor(
  key: string | Expression<unknown>,
  idColumn: string,
  direction: 'asc' | 'desc',
  value: string | number,
  id: string,
): RawBuilder<boolean> {
  const k = typeof key === 'string' ? sql.ref(key) : key;
  const op = sql.raw(direction === 'asc' ? '>' : '<');
  return sql<boolean>`(${k} ${op} ${value} or (${k} = ${value} and ${sql.ref(idColumn)} ${op} ${id}))`;
}

/** How a keyset page is ordered: by `key` then `id` (by `id` alone without a key), both in `direction`. */
export interface KeysetOrder {
  key?: string | Expression<unknown>;
  id: string;
  direction: 'asc' | 'desc';
}

/**
 * One keyset page of a query: `limit + 1` rows after the cursor `after` (its `value` and `id`), in `order`,
 * so that the caller can tell whether another page follows.
 * @example keysetPage(db.selectFrom('bots').selectAll(), { key: 'name', id: 'id', direction: 'asc' }, q)
 */
export function keysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  order: KeysetOrder,
  page: { limit: number; after?: { value: string | number; id: string } | undefined },
): Promise<O[]> {
  const { key, id, direction } = order;
  const after = page.after;
  let q = query;
  if (key === undefined) {
    if (after)
      q = q.where(sql<boolean>`${sql.ref(id)} ${sql.raw(direction === 'asc' ? '>' : '<')} ${after.id}`);
  } else {
    const k = typeof key === 'string' ? sql.ref(key) : key;
    if (after) q = q.where(afterCursor(k, id, direction, after.value, after.id));
    q = q.orderBy(k, direction);
  }
  return q
    .orderBy(sql.ref(id), direction)
    .limit(page.limit + 1)
    .execute();
}
