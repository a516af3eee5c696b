import { dialectOf, sqliteConnectionOf, type Db } from './client.js';

/**
 * Runs `fn` atomically: committed when it resolves, rolled back when it throws. The only way
 * the appliance opens a transaction (test/db/async-layer.test.ts keeps it so).
 *
 * `tx` is the database to query inside; on SQLite it is `db` itself (one connection, and the
 * connection gates every other task until the transaction ends, see SqliteConnection), so
 * functions that take `Db` may be called with either. The body must only do database work:
 * side effects (messages, files, events) belong after it returns.
 */
export function transaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  switch (dialectOf(db)) {
    case 'sqlite':
      return sqliteConnectionOf(db).transaction(() => fn(db));
    // PostgreSQL (issue 25): drizzle's db.transaction(async (tx) => fn(tx)).
  }
}
