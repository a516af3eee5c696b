import type { Db } from './client.js';

/**
 * Statements compiled once per database and reused. drizzle builds the SQL and
 * better-sqlite3 compiles it again on every plain query (≈ 1 ms for a calls insert, measured
 * in bench/calls-100.ts); on the call path, where a burst of callers waits for their
 * answer, and on every signed-in request (the session lookup), each statement is prepared
 * once with placeholders instead.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let statements = byDb.get(db);
    if (!statements) byDb.set(db, (statements = build(db)));
    return statements;
  };
}
