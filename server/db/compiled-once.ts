import { CompiledQuery, type Compilable, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './schema';

/**
 * A query of fixed shape built and compiled by Kysely once per database, then run with new values
 * (issue 13, server throughput). Building a query allocates and freezes a tree of nodes and compiling it
 * walks that tree: on the queries every request runs (the session lookup, the account) that was a
 * measurable share of the server's CPU. The builder gets a stand-in for each value; Kysely makes each a
 * parameter (`$n`), and each run puts the real values in their places. Values only: a stand-in cannot
 * choose an identifier, a direction or the length of an `in` list (use `= any(${array})` for a list).
 */
class Slot {
  constructor(readonly name: string) {}
}

interface Compiled {
  sql: string;
  slots: readonly unknown[];
}

export type CompiledOnce<P, R> = (db: Kysely<Database>, values: P) => Promise<R[]>;

export function compiledOnce<P extends Record<string, unknown>, R>(build: (db: Kysely<Database>, values: P) => Compilable<R> | RawBuilder<R>): CompiledOnce<P, R> {
  const byDatabase = new WeakMap<Kysely<Database>, Compiled>();
  const stand = new Proxy({} as P, { get: (_target, name) => new Slot(String(name)) });
  return async (db, values) => {
    let compiled = byDatabase.get(db);
    if (!compiled) {
      // A query builder compiles itself; an sql`` template needs the database (the argument is ignored by the former).
      const { sql, parameters } = (build(db, stand) as RawBuilder<R>).compile(db);
      compiled = { sql, slots: parameters };
      byDatabase.set(db, compiled);
    }
    const parameters = compiled.slots.map((slot) => (slot instanceof Slot ? values[slot.name] : slot));
    const result = await db.executeQuery(CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>);
    return result.rows;
  };
}
