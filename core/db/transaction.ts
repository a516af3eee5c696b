import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { backoffDelayMs, type BackoffPolicy } from '../time/backoff.js';
import { dialectOf, isDatabaseBusy, sqliteConnectionOf, type Db } from './client.js';
import { inPgTransaction, pgExecutor, pgTransaction } from './pg/pg-session.js';

/**
 * How often a PostgreSQL body refused as a serialization failure (or chosen as a deadlock's
 * victim) runs at most, and the pauses between: the project's one back-off, with jitter so
 * bodies that collided do not collide again in step (at most about 6.6 s of pauses in all). A refusal
 * means a body it overlapped commits instead, so each round of a burst finishes at least one:
 * twenty outlast every body two cores' pools (ten connections each) can run at once about one
 * thing. Ten did not: eight lock-less bodies all about one row, on two cores, took up to nine
 * refusals (test/db/serializable-bodies.test.ts; locked ones, such as the caller-texts road,
 * mostly one).
 */
const RETRY_ATTEMPTS = 20;
const RETRY_PAUSES: BackoffPolicy = { baseMs: 5, maxMs: 500, jitter: 0.5 };

/**
 * Runs `fn` atomically: committed when it resolves, rolled back when it throws. The only way
 * the appliance opens a transaction (test/db/async-layer.test.ts keeps it so).
 *
 * The guarantee, on both engines: the body runs as if no other body ran at the same time. A
 * body that reads, decides and writes (the repeat-caller claim, a number's assignment, a caller
 * text's caps, a booking's slot) cannot act on what another body is changing, whether or not
 * it locks anything. On SQLite bodies take turns (`BEGIN IMMEDIATE` behind the connection's
 * gate). On PostgreSQL, where a core's pool and every other core run bodies side by side, the
 * outermost transaction is SERIALIZABLE: PostgreSQL refuses (40001) a body whose outcome could
 * differ from some order of one body after another, and the whole body runs again after a
 * short pause, then reads what the other committed. A single statement outside transaction()
 * is not part of this (PostgreSQL runs it READ COMMITTED): it must decide on its own rows in
 * one conditional statement (the job claim, a code's counted attempt).
 *
 * lockOwner/lockNumber/lockKey below are not what makes a body correct. They make bodies about
 * the same thing queue instead of running side by side, which spares deadlocks between them and
 * keeps a burst's re-runs within RETRY_ATTEMPTS. A body that waited at one still read from
 * before the other's commit (PostgreSQL fixes a SERIALIZABLE body's view at its first
 * statement), so it is refused and re-run once the other commits, and the re-run reads it.
 *
 * So a body may run more than once (at most RETRY_ATTEMPTS times), and a refused run changed
 * nothing: a body does database work only, and side effects (messages, files, events,
 * in-memory state) belong after it returns. A transaction opened inside another is a savepoint
 * of it and is not retried alone: the outermost one is.
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

/** Holds a lock until the current transaction ends (PostgreSQL); on SQLite the transaction already excludes every other. */
async function lockRows(db: Db, query: ReturnType<typeof sql>): Promise<void> {
  if (dialectOf(db) !== 'pg') return;
  if (!inPgTransaction()) throw new Error('lockOwner/lockNumber/lockKey only mean something inside transaction()');
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

/**
 * Inside transaction(): makes bodies that take the same named lock run one after the other
 * until this one ends, on one core or several, where no one row stands for what they decide
 * about (every caller text's box-wide caps). A PostgreSQL advisory lock on the name's hash.
 */
export function lockKey(db: Db, name: string): Promise<void> {
  return lockRows(db, sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`);
}
