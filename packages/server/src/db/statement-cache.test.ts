import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedStatements } from './database.js';

interface Tables {
  items: { id: number; name: string };
}

const opened: SQLite.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

function open(size?: number) {
  const raw = new SQLite(':memory:');
  opened.push(raw);
  raw.exec('create table items (id integer primary key, name text not null)');
  const database = cachedStatements(raw, size);
  return { raw, database, kysely: new Kysely<Tables>({ dialect: new SqliteDialect({ database }) }) };
}

describe('cachedStatements (Kysely’s SQLite statements prepared once per SQL text)', () => {
  it('prepares a SQL text once, keeps the most recently used texts, and answers as before', async () => {
    const { raw, database, kysely } = open(2);
    const prepared: string[] = [];
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((text: string) => {
      prepared.push(text);
      return prepare(text);
    }) as typeof raw.prepare;
    for (let i = 1; i <= 3; i++)
      await kysely
        .insertInto('items')
        .values({ id: i, name: `n${i}` })
        .execute();
    const byId = (id: number) =>
      kysely.selectFrom('items').select('name').where('id', '=', id).executeTakeFirst();
    expect(await byId(2)).toEqual({ name: 'n2' });
    expect(await byId(3)).toEqual({ name: 'n3' });
    expect(prepared.filter((t) => t.startsWith('insert'))).toHaveLength(1);
    expect(prepared.filter((t) => t.startsWith('select'))).toHaveLength(1);
    // A third text pushes out the least recently used (the insert), which is prepared again next time.
    await sql`delete from items where id = ${3}`.execute(kysely);
    await kysely.insertInto('items').values({ id: 4, name: 'n4' }).execute();
    expect(prepared.filter((t) => t.startsWith('insert'))).toHaveLength(2);
    expect(database.prepare('select 1')).toBe(database.prepare('select 1'));
    expect(await kysely.selectFrom('items').select('id').orderBy('id').execute()).toEqual([
      { id: 1 },
      { id: 2 },
      { id: 4 },
    ]);
  });

  it('gives a statement still being iterated to no one else, and follows schema changes', async () => {
    const { database, kysely } = open();
    for (let i = 1; i <= 3; i++)
      await kysely
        .insertInto('items')
        .values({ id: i, name: `n${i}` })
        .execute();
    const text = 'select id from items order by id';
    const first = database.prepare(text) as unknown as SQLite.Statement<[]>;
    const rows = first.iterate();
    expect(rows.next().value).toEqual({ id: 1 });
    const second = database.prepare(text) as unknown as SQLite.Statement<[]>;
    expect(second).not.toBe(first);
    expect(second.all()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect([...rows]).toEqual([{ id: 2 }, { id: 3 }]);
    expect(database.prepare(text)).toBe(first); // free again: the cached one
    const star = 'select * from items where id = 1';
    expect(database.prepare(star).all([])).toEqual([{ id: 1, name: 'n1' }]);
    await sql`alter table items add column note text`.execute(kysely);
    expect(database.prepare(star).all([])).toEqual([{ id: 1, name: 'n1', note: null }]);
    await kysely.destroy();
  });
});
