import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle as drizzleSync } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle, type AsyncRemoteCallback, type SqliteRemoteDatabase } from 'drizzle-orm/sqlite-proxy';
import type { CheckedDb } from '@appliance/checked-dialect';
import { sql } from 'drizzle-orm';
import { storedNumber } from '../../contract/phone.js';
import { projectRoot } from '../config/paths.js';
import { backoffDelayMs, type BackoffPolicy } from '../time/backoff.js';
import * as schema from './sqlite/schema.js';
import { SqliteConnection, withBusyCap } from './sqlite-connection.js';
import { registerTables } from './schema.js';
import { isPostgresDb, pgExecutor } from './pg/pg-session.js';
import type { Log } from '../../contract/log.js';
import { errorMessage } from '../logging/safe-errors.js';

/**
 * The appliance's data-access layer: every query is awaited (`await db.select()…`), whatever
 * the database. On SQLite it is drizzle's sqlite-proxy dialect over one better-sqlite3
 * connection (SqliteConnection: statement cache, transaction gate, busy-wait cap); on
 * PostgreSQL drizzle's node-postgres one (pg/pg-session.ts). At run time a Db is either; its
 * type is the dialect being checked (core/db/checked/), and npm run typecheck checks the app
 * against each in turn, so a query compiles only if both engines have what it uses.
 */
export type Db = CheckedDb;

/** Which engine a handle runs on: core/db's own modules (transaction, queryRows, execute) branch on it, nothing else does. */
export type Dialect = 'sqlite' | 'pg';

interface HandleBase {
  db: Db;
  close(): Promise<void>;
}

/** A SQLite database: the raw connection is there for pragmas and backups only. */
export interface SqliteHandle extends HandleBase {
  dialect: 'sqlite';
  sqlite: Database.Database;
}

/** A PostgreSQL database: no raw SQLite connection, so code that needs one does not compile without asking (sqliteOf). */
interface PostgresAppHandle extends HandleBase {
  dialect: 'pg';
}

/** An opened appliance database. The two kinds are typed apart: only the SQLite one has a file connection. */
export type DatabaseHandle = SqliteHandle | PostgresAppHandle;

/** The SQLite connection of a handle that must be SQLite (tests, SQLite-only tools); says what to do on PostgreSQL. */
export function sqliteOf(handle: DatabaseHandle): Database.Database {
  if (handle.dialect !== 'sqlite') throw new Error('This appliance runs on PostgreSQL: there is no SQLite file (back up with pg_dump, docs/postgres.md).');
  return handle.sqlite;
}

/** A SQLite handle's Db typed as SQLite's own, whichever dialect is being checked: for tools and tests that read a SQLite file beside another engine (the move tool's test). */
export function sqliteDbOf(handle: SqliteHandle): SqliteRemoteDatabase<typeof schema> {
  return handle.db as unknown as SqliteRemoteDatabase<typeof schema>;
}

const connections = new WeakMap<object, SqliteConnection>();

/** The SQLite connection behind a Db (only core/db uses this). */
export function sqliteConnectionOf(db: Db): SqliteConnection {
  const conn = connections.get(db);
  if (!conn) throw new Error('This Db was not opened by openDatabase (core/db/client.ts).');
  return conn;
}

/** The dialect a Db runs on. */
export function dialectOf(db: Db): Dialect {
  if (connections.has(db)) return 'sqlite';
  if (isPostgresDb(db)) return 'pg';
  throw new Error('This Db was not opened by openDatabase or openAppDatabase (core/db).');
}

/**
 * storedNumber for SQL. Parsing costs ~80 µs, and an upgraded table repeats the same few
 * numbers (the business's DIDs, regular callers), so answers are remembered (bounded).
 */
function storedNumberMemo(): (v: unknown) => unknown {
  const memo = new Map<string, string>();
  return (v) => {
    if (typeof v !== 'string') return v;
    let e164 = memo.get(v);
    if (e164 === undefined) {
      if (memo.size >= 50_000) memo.clear();
      e164 = storedNumber(v);
      memo.set(v, e164);
    }
    return e164;
  };
}

/**
 * Opens the appliance database and brings its schema up to date.
 * WAL lets the console read while a call is being written; the busy timeout
 * rides out a backup or a second process holding the write lock.
 */
export function openDatabase(file: string): SqliteHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // 64 MiB of page cache instead of SQLite's 2 MB: a business's newest 200 calls and the
  // analytics counters stay in memory, where the call-logs page reads them (bench/http-load.ts).
  sqlite.pragma('cache_size = -65536');
  // Migration 0005 turns stored numbers into E.164 with the same rule the app writes them by.
  sqlite.function('phone_e164', { deterministic: true }, storedNumberMemo());
  migrate(drizzleSync(sqlite, { schema }), { migrationsFolder: path.join(projectRoot(), 'drizzle') });
  const connection = new SqliteConnection(sqlite);
  // 'get' answers one row where drizzle's callback type says rows: sqlite-proxy reads it so.
  // Typed as the checked dialect's Db (the identity under SQLite's check).
  const db = drizzle(connection.proxy as AsyncRemoteCallback, { schema }) as unknown as Db;
  registerTables(db, schema);
  connections.set(db, connection);
  connections.set(sqlite, connection);
  return {
    dialect: 'sqlite',
    db,
    sqlite,
    close: async () => {
      sqlite.close();
    },
  };
}

/** True when the database answers a trivial query (readiness). */
export async function databaseIsUsable(handle: DatabaseHandle): Promise<boolean> {
  try {
    if (handle.dialect === 'pg') return (await pgExecutor(handle.db).execute(sql`select 1 as ok`)).rows.length === 1;
    return (await sqliteConnectionOf(handle.db).queryRows(sql`select 1 as ok`)).length === 1;
  } catch {
    return false;
  }
}

/**
 * True for SQLite's "another connection holds the lock" errors (a backup, the sqlite3 shell,
 * a second process) that outlasted the busy timeout: the write did not happen and can be
 * tried again once the lock is gone. Anything else (constraint, corrupt file) is not this.
 */
export function isDatabaseBusy(err: unknown): boolean {
  const code = databaseErrorCode(err);
  // PostgreSQL: a serialization failure or a deadlock victim; the statement changed nothing and can run again.
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || code === '40001' || code === '40P01');
}

/** The driver's error code, also when drizzle wrapped the driver's error (DrizzleQueryError.cause). */
function databaseErrorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** True when a write broke a unique constraint. */
export function isUniqueViolation(err: unknown): boolean {
  const code = databaseErrorCode(err);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

/** The raw connection under a Db. */
function connectionOf(db: Db | Database.Database): Database.Database {
  return connections.get(db)?.raw ?? (db as Database.Database);
}

const refusals = new WeakMap<Database.Database, number>();

/** How many writes on this connection were refused as busy and retried (diagnostics, tests). */
export function busyRefusals(db: Db | Database.Database): number {
  return refusals.get(connectionOf(db)) ?? 0;
}

/**
 * Runs `fn` with the connection's busy wait capped at `ms` (then restored). better-sqlite3
 * waits for a lock by sleeping on the one thread the whole core runs on, so a background
 * write that waited out the full busy timeout under a backup's lock would freeze every call
 * in progress (prompts, RTP, ARI events) for that long; capped, it gives the thread back and
 * its caller retries asynchronously (retryWhileBusy).
 */
export function withBusyWaitAtMost<T>(_db: Db | Database.Database, ms: number, fn: () => T | Promise<T>): Promise<T> {
  // The cap travels with the task (AsyncLocalStorage), so another task's statements that run
  // while this one awaits keep the full busy timeout.
  return withBusyCap(ms, async () => fn());
}

export interface BusyRetryOptions {
  /** Gives up (rethrows) after waiting this long in all; default ten minutes. */
  maxWaitMs?: number;
  /** First pause between attempts, doubling to 2 s. */
  firstPauseMs?: number;
  /** How long one attempt may block the thread waiting for the lock (default 25 ms). */
  blockMs?: number;
  log?: Pick<Log, 'warn'>;
  /** Checked before each retry: true gives up at once (the process is stopping). */
  giveUp?: () => boolean;
}

/**
 * Runs a write, and while the database answers "busy" (another process holds
 * the lock) runs it again after a pause. Each attempt blocks the thread only briefly
 * (withBusyWaitAtMost); the waiting happens between attempts, off the event loop. A backup or an operator's sqlite3 session can then hold the file for
 * minutes without a finished call or a completed job being dropped. The write must be
 * safe to repeat (a refused write changed nothing).
 */
export async function retryWhileBusy<T>(db: Db | Database.Database, what: string, write: () => T | Promise<T>, opts: BusyRetryOptions = {}): Promise<T> {
  const key = connectionOf(db);
  const deadline = Date.now() + (opts.maxWaitMs ?? 10 * 60_000);
  const pauses: BackoffPolicy = { baseMs: opts.firstPauseMs ?? 50, maxMs: 2_000 };
  for (let attempt = 1; ; attempt++) {
    try {
      return await withBusyWaitAtMost(key, opts.blockMs ?? 25, write);
    } catch (err) {
      if (!isDatabaseBusy(err) || Date.now() >= deadline || opts.giveUp?.()) throw err;
      refusals.set(key, (refusals.get(key) ?? 0) + 1);
      if (attempt === 1) opts.log?.warn({ what, err: errorMessage(err) }, 'database locked by another process; retrying the write');
      await new Promise((r) => setTimeout(r, backoffDelayMs(attempt, pauses)));
    }
  }
}
