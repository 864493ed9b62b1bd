import { type Expression, type RawBuilder, sql } from 'kysely';

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
