import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The side tables of tags `(owner, key, value)` and the column of each that names the owner. */
const OWNER_COLUMNS = { bot_tags: 'bot_id', file_tags: 'file_id' } as const;
/** A side table of tags. */
export type TagTable = keyof typeof OWNER_COLUMNS;

/**
 * Queries of the tags in one side table (of bots, of files). Kysely cannot type a query over a table picked by
 * a parameter, so these see its rows as columns of strings: the owner column, `key` and `value`.
 * @example tagRows(db, 'bot_tags').of([bot.id])
 */
export function tagRows(db: Kysely<Database>, table: TagTable) {
  const owner = OWNER_COLUMNS[table];
  const tags = db as unknown as Kysely<Record<TagTable, Record<string, string>>>;
  const add = async (id: string, values: Record<string, string>) => {
    const entries = Object.entries(values);
    if (entries.length > 0)
      await tags
        .insertInto(table)
        .values(entries.map(([key, value]) => ({ [owner]: id, key, value })))
        .execute();
  };
  return {
    /** Stores these tags of an owner that has none of these keys yet. */
    add,
    /** The tags of each owner (an empty object for an owner without tags or unknown), by key. */
    of: async (ids: string[]): Promise<Map<string, Record<string, string>>> => {
      const entries = new Map<string, Array<[string, string]>>(ids.map((id) => [id, []]));
      if (ids.length > 0) {
        const rows = await tags
          .selectFrom(table)
          .select((eb) => [eb.ref(owner).as('owner'), eb.ref('key').as('key'), eb.ref('value').as('value')])
          .where(owner, 'in', ids)
          .orderBy('key')
          .execute();
        for (const r of rows) entries.get(r.owner)?.push([r.key, r.value]);
      }
      // fromEntries defines each key as an own property: a stored key such as "__proto__" stays a plain key.
      return new Map([...entries].map(([id, list]) => [id, Object.fromEntries(list)]));
    },
    /** Sets tags (null removes one); tags not named stay. */
    set: async (id: string, values: Record<string, string | null>) => {
      for (const [key, value] of Object.entries(values)) {
        await tags.deleteFrom(table).where(owner, '=', id).where('key', '=', key).execute();
        if (value !== null) await add(id, { [key]: value });
      }
    },
    /** Replaces all the tags of an owner with these. */
    replace: async (id: string, values: Record<string, string>) => {
      await tags.deleteFrom(table).where(owner, '=', id).execute();
      await add(id, values);
    },
  };
}
