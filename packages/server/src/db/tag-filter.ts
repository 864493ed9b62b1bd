import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';

/** One tag's condition: any of these values, none of these values, present or absent. */
export interface TagCondition {
  anyOf?: string[];
  noneOf?: string[];
  exists?: boolean;
}
/** Conditions on tags, AND-ed across keys (parsed from query strings by http/tag-filter.ts). */
export type TagFilter = Record<string, TagCondition>;

/**
 * SQL conditions for a tag filter on a table whose tags live in a side table `(owner, key, value)`.
 * Keys are AND-ed; each key's conditions are AND-ed too.
 */
export function tagConditions<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  filter: TagFilter,
  tagsTable: string,
  ownerColumn: string,
  ownerRef: string,
): Expression<SqlBool>[] {
  const conds: Expression<SqlBool>[] = [];
  const t = sql.table(tagsTable);
  const owner = sql.ref(`${tagsTable}.${ownerColumn}`);
  const outer = sql.ref(ownerRef);
  for (const [key, cond] of Object.entries(filter)) {
    if (cond.anyOf && cond.anyOf.length > 0) {
      conds.push(
        eb.exists(
          sql`(select 1 from ${t} where ${owner} = ${outer} and ${sql.ref(`${tagsTable}.key`)} = ${key} and ${sql.ref(`${tagsTable}.value`)} in (${sql.join(cond.anyOf)}))`,
        ),
      );
    }
    if (cond.noneOf && cond.noneOf.length > 0) {
      conds.push(
        eb.not(
          eb.exists(
            sql`(select 1 from ${t} where ${owner} = ${outer} and ${sql.ref(`${tagsTable}.key`)} = ${key} and ${sql.ref(`${tagsTable}.value`)} in (${sql.join(cond.noneOf)}))`,
          ),
        ),
      );
    }
    if (cond.exists !== undefined) {
      const e = eb.exists(
        sql`(select 1 from ${t} where ${owner} = ${outer} and ${sql.ref(`${tagsTable}.key`)} = ${key})`,
      );
      conds.push(cond.exists ? e : eb.not(e));
    }
  }
  return conds;
}
