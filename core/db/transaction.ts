import { dialectOf, sqliteConnectionOf, type Db } from './client.js';
import { pgTransaction } from './pg/pg-session.js';

/**
 * Runs `fn` atomically: committed when it resolves, rolled back when it throws. The only way
 * the appliance opens a transaction (test/db/async-layer.test.ts keeps it so).
 *
 * `tx` is the database to query inside, and is `db` itself: on SQLite one connection gates
 * every other task until the transaction ends (SqliteConnection); on PostgreSQL `db` sends the
 * current task's statements to its transaction's connection (pg/pg-session.ts). So functions
 * that take `Db` may be called with either. The body must only do database work:
 * side effects (messages, files, events) belong after it returns.
 */
export function transaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  switch (dialectOf(db)) {
    case 'sqlite':
      return sqliteConnectionOf(db).transaction(() => fn(db));
    case 'pg':
      // `db` itself routes to the transaction inside the body (pg-session.ts), so tx is db here too.
      return pgTransaction(db, () => fn(db));
  }
}
