import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.js';

/** What stands for argument `i` while a fixed query is compiled: a string no caller ever binds. */
const placeholder = (i: number) => `\u0000fixed-query-argument-${i}\u0000`;

/** A fixed query compiled for one database: its SQL, and where each bound value comes from. */
interface Template {
  compiled: CompiledQuery;
  /** Per bound value: the index of the argument it is, or the constant the query itself binds. */
  slots: ReadonlyArray<number | { constant: unknown }>;
}

/**
 * A query whose shape never changes, built and compiled by Kysely once per database instead of on every call:
 * building a query and compiling it to SQL cost more CPU than SQLite running it (a chat message's POST runs
 * several). `build` makes the query from its arguments, which it must pass straight into the query as values
 * (in `where`, `set`, `values`), doing nothing else with them: it is called once, with placeholders, and the
 * arguments of each call are bound where the placeholders went. An argument may not be `undefined` (Kysely
 * leaves such a column out, which a compiled shape cannot): pass null.
 *
 * Templates are kept per dialect adapter, which a database handle shares with its transactions; a handle
 * with Kysely plugins (none in Parley) compiles on every call, as the plugins may rewrite each query.
 */
export function fixedQuery<A extends unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>, ...args: A) => Promise<QueryResult<R>> {
  const templates = new WeakMap<object, Template>();
  return async (db, ...args) => {
    const executor = db.getExecutor();
    if (executor.plugins.length > 0) return db.executeQuery(build(db, ...args).compile());
    let template = templates.get(executor.adapter);
    if (!template) {
      template = compileTemplate(db, arity, build);
      templates.set(executor.adapter, template);
    }
    const parameters = template.slots.map((slot) => {
      if (typeof slot !== 'number') return slot.constant;
      const value = args[slot];
      if (value === undefined) throw new Error(`fixedQuery: argument ${slot} is undefined (pass null)`);
      return value;
    });
    return db.executeQuery<R>({ ...template.compiled, parameters } as CompiledQuery<R>);
  };
}

function compileTemplate<A extends unknown[], R>(
  db: Kysely<Database>,
  arity: number,
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): Template {
  const names = Array.from({ length: arity }, (_, i) => placeholder(i));
  const compiled = build(db, ...(names as A)).compile();
  const slots = compiled.parameters.map((value) => {
    const index = typeof value === 'string' ? names.indexOf(value) : -1;
    return index >= 0 ? index : { constant: value };
  });
  for (let i = 0; i < arity; i++) {
    if (!slots.includes(i)) throw new Error(`fixedQuery: argument ${i} is not bound by the query it builds`);
  }
  return { compiled, slots };
}
