import type { Compilable, CompiledQuery, Kysely, QueryResult, SqliteStatement } from 'kysely';
import type { Database } from './schema.js';

/** A SQLite connection that fixed queries may run on directly: see {@link runFixedQueriesDirectly}. */
export interface DirectSqlite {
  /** The statement of a SQL text (the prepared-statement cache Kysely's dialect uses too). */
  prepare(sql: string): SqliteStatement;
  /** Whether a transaction is open on the connection. */
  readonly inTransaction: boolean;
}

/** Direct connections by the dialect adapter of their Kysely handle (shared with its transactions). */
const directConnections = new WeakMap<object, DirectSqlite>();

/**
 * Lets the fixed queries of `kysely` and of its transactions run on its one SQLite connection directly when
 * Kysely would run them at once anyway: on a transaction while it is open, on the handle itself while no
 * transaction is. The statement runs synchronously, as Kysely's SQLite driver runs it, and answers the same
 * result, without the executor's turns of the microtask queue around it (connection provider, mutex, result
 * transform). While a transaction holds the connection, a query on the handle itself takes Kysely's way and
 * waits for it.
 */
export function runFixedQueriesDirectly(kysely: Kysely<Database>, connection: DirectSqlite): void {
  directConnections.set(kysely.getExecutor().adapter, connection);
}

/** Runs a compiled query on a SQLite connection as Kysely's SQLite driver does, with the same result. */
function runDirectly<R>(
  connection: DirectSqlite,
  sql: string,
  parameters: readonly unknown[],
): QueryResult<R> {
  const statement = connection.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

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
    const { slots } = template;
    const parameters: unknown[] = new Array(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i] as number | { constant: unknown };
      if (typeof slot !== 'number') parameters[i] = slot.constant;
      else if (args[slot] === undefined)
        throw new Error(`fixedQuery: argument ${slot} is undefined (pass null)`);
      else parameters[i] = args[slot];
    }
    const direct = directConnections.get(executor.adapter);
    if (direct !== undefined && direct.inTransaction === db.isTransaction)
      return runDirectly<R>(direct, template.compiled.sql, parameters);
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
