import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelayMs, type BackoffPolicy } from '../jobs/backoff.js';
import { dialectOf, isDatabaseBusy, sqliteConnectionOf, type Db } from './client.js';
import { inPgTransaction, pgTransaction } from './pg/pg-session.js';

/**
 * How often a PostgreSQL body refused by the serializable check runs again, and the pauses
 * between (the project's one back-off; jitter so two cores that collided do not collide again
 * in step). Each refusal means another transaction on the same rows committed first, so ten in
 * a row needs ten commits racing this one within about two seconds.
 */
export const SERIALIZATION_ATTEMPTS = 10;
const SERIALIZATION_PAUSES: BackoffPolicy = { baseMs: 5, maxMs: 500, jitter: 0.5 };

/**
 * Runs `fn` atomically: committed when it resolves, rolled back when it throws. The only way
 * the appliance opens a transaction (test/db/async-layer.test.ts keeps it so).
 *
 * One meaning on both engines: the body runs as if no other transaction ran at the same time,
 * so a body that reads, decides and writes (the repeat-caller claim, a number's assignment)
 * cannot act on what another body is about to change. On SQLite that is `BEGIN IMMEDIATE`
 * behind the connection's gate (bodies take turns). On PostgreSQL, where several connections
 * and several cores run bodies at once, it is SERIALIZABLE: PostgreSQL refuses (40001, or
 * 40P01 for a deadlock) a transaction whose result could differ from some serial order, and
 * the whole body runs again after a short pause, then sees what the other committed. This is
 * chosen over row locks in each body (SELECT … FOR UPDATE) because it protects every body,
 * including ones not yet written, without their authors knowing which rows to lock, and a
 * check over rows that do not exist yet (no second alert for this caller) has no row to lock.
 *
 * So the body must only do database work, and be safe to run more than once: side effects
 * (messages, files, events, in-memory state) belong after it returns. A transaction opened
 * inside another is a savepoint of it and is not retried alone: the outermost one is.
 *
 * `tx` is the database to query inside, and is `db` itself: on SQLite one connection gates
 * every other task until the transaction ends (SqliteConnection); on PostgreSQL `db` sends the
 * current task's statements to its transaction's connection (pg/pg-session.ts). So functions
 * that take `Db` may be called with either.
 */
export function transaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  switch (dialectOf(db)) {
    case 'sqlite':
      return sqliteConnectionOf(db).transaction(() => fn(db));
    case 'pg':
      // `db` itself routes to the transaction inside the body (pg-session.ts), so tx is db here too.
      if (inPgTransaction()) return pgTransaction(db, () => fn(db));
      return retrySerializationFailures(() => pgTransaction(db, () => fn(db)));
  }
}

/** Runs `attempt` again while PostgreSQL refuses it as a serialization failure or deadlock (isDatabaseBusy), a bounded number of times. */
async function retrySerializationFailures<T>(attempt: () => Promise<T>): Promise<T> {
  for (let failures = 0; ; ) {
    try {
      return await attempt();
    } catch (err) {
      if (!isDatabaseBusy(err) || ++failures >= SERIALIZATION_ATTEMPTS) throw err;
      await sleep(backoffDelayMs(failures, SERIALIZATION_PAUSES));
    }
  }
}
