import type { Db } from './client.js';
import { pgPoolDbOr } from './pg/pg-session.js';
import { tablesOf, type Tables } from './schema.js';

interface Preparable {
  prepare(...name: string[]): unknown;
}

export type Prepared<Q extends Record<string, Preparable>> = { [K in keyof Q]: ReturnType<Q[K]['prepare']> };

/**
 * Statements compiled once per database and reused. drizzle builds the SQL and
 * better-sqlite3 compiles it again on every plain query (≈ 1 ms for a calls insert, measured
 * in bench/calls-100.ts); on the call path, where a burst of callers waits for their
 * answer, and on every signed-in request (the session lookup), each statement is prepared
 * once with placeholders instead.
 *
 * `build` returns the queries unprepared; each is prepared under the name `family.key`
 * (PostgreSQL keeps a named statement per pooled connection; SQLite needs no name). On
 * PostgreSQL they are built on the pool, not on whatever transaction the first caller is in,
 * so they never run inside a transaction: use them for single statements outside one.
 */
export function preparedPerDb<Q extends Record<string, Preparable>>(family: string, build: (db: Db, tables: Tables) => Q): (db: Db) => Prepared<Q> {
  const byDb = new WeakMap<Db, Prepared<Q>>();
  return (db) => {
    let statements = byDb.get(db);
    if (!statements) {
      const queries = build(pgPoolDbOr(db), tablesOf(db));
      statements = Object.fromEntries(Object.entries(queries).map(([key, q]) => [key, q.prepare(`${family}.${key}`)])) as Prepared<Q>;
      byDb.set(db, statements);
    }
    return statements;
  };
}
