import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { backoffDelayMs, type BackoffPolicy } from '../time/backoff.js';
import { dialectOf, isDatabaseBusy, sqliteConnectionOf, type Db } from './client.js';
import { inPgTransaction, pgExecutor, pgTransaction } from './pg/pg-session.js';

/**
 * How often a PostgreSQL body chosen as a deadlock's victim (or refused as a serialization
 * failure) runs again, and the pauses between: the project's one back-off, with jitter so two
 * cores that collided do not collide again in step.
 */
const RETRY_ATTEMPTS = 10;
const RETRY_PAUSES: BackoffPolicy = { baseMs: 5, maxMs: 500, jitter: 0.5 };

/**
 * Runs `fn` atomically: committed when it resolves, rolled back when it throws. The only way
 * the appliance opens a transaction (test/db/async-layer.test.ts keeps it so).
 *
 * What a body that reads, decides and writes (the repeat-caller claim, a number's assignment,
 * an owner's settings) can rely on, on both engines: it locks what its decision is about
 * first, with lockOwner()/lockNumber() below, and from then on no other transaction that locks
 * the same changes it until this one ends. On SQLite bodies take turns anyway (`BEGIN
 * IMMEDIATE` behind the connection's gate), so the locks cost nothing there. On PostgreSQL
 * (READ COMMITTED: each statement sees what was committed before it began) the lock is
 * `SELECT … FOR UPDATE`: a second core's body waits at the lock, then reads what the first
 * committed. docs/postgres.md says why this was chosen over SERIALIZABLE.
 *
 * A PostgreSQL body chosen as a deadlock's victim (40P01) or refused as a serialization
 * failure (40001) changed nothing, and runs again after a short pause (at most RETRY_ATTEMPTS
 * times). So a body does database work only, and is safe to run more than once: side effects
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
      return retryRefused(() => pgTransaction(db, () => fn(db)));
  }
}

/** Runs `attempt` again while PostgreSQL refuses it as a deadlock victim or serialization failure (isDatabaseBusy), a bounded number of times. */
async function retryRefused<T>(attempt: () => Promise<T>): Promise<T> {
  for (let failures = 0; ; ) {
    try {
      return await attempt();
    } catch (err) {
      if (!isDatabaseBusy(err) || ++failures >= RETRY_ATTEMPTS) throw err;
      await sleep(backoffDelayMs(failures, RETRY_PAUSES));
    }
  }
}

/** Holds rows until the current transaction ends (PostgreSQL); on SQLite the transaction already excludes every other. */
async function lockRows(db: Db, query: ReturnType<typeof sql>): Promise<void> {
  if (dialectOf(db) !== 'pg') return;
  if (!inPgTransaction()) throw new Error('lockOwner/lockNumber only mean something inside transaction()');
  await pgExecutor(db).execute(query);
}

/**
 * Inside transaction(): makes this body the only one deciding about this owner's rows until it
 * ends (their calls' alerts, their number, their settings, their knowledge base). Bodies that
 * lock the same owner run one after the other, on one core or several.
 */
export function lockOwner(db: Db, userId: number): Promise<void> {
  return lockRows(db, sql`select id from users where id = ${userId} for update`);
}

/** Inside transaction(): holds a number's row (when it has one yet) until the body ends, so two owners' purchases of it take turns. */
export function lockNumber(db: Db, phoneNumber: string): Promise<void> {
  return lockRows(db, sql`select id from phone_numbers where phone_number = ${phoneNumber} for update`);
}
