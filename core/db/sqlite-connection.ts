import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import type { SQL } from 'drizzle-orm';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';

/** What the current async task carries: the transaction it is inside, and a cap on its busy wait. */
interface TaskScope {
  tx?: object;
  busyCapMs?: number;
}

const scope = new AsyncLocalStorage<TaskScope>();
const dialect = new SQLiteAsyncDialect();
const STATEMENT_CACHE = 500;

export type Method = 'run' | 'all' | 'values' | 'get';

/**
 * The one better-sqlite3 connection behind the async data-access layer. Every query, whether
 * built by drizzle (through the sqlite-proxy callback) or raw (queryRows/execute), runs here:
 * - statements are compiled once per SQL text and reused (drizzle's better-sqlite3 driver
 *   compiles again on every query: ≈1 ms for a calls insert, bench/calls-100.ts);
 * - transactions are serialised, and while one is open a query from any other async task waits
 *   for it to end. better-sqlite3 has one connection, so without this gate another request's
 *   write issued while a transaction awaits would join that transaction: rolled back with it,
 *   or reading its uncommitted rows. Membership is the AsyncLocalStorage scope transaction()
 *   opens, so the body may use `db` or `tx` and any function it calls;
 * - withBusyWaitAtMost caps the lock wait of the statements its task runs (retryWhileBusy).
 */
export class SqliteConnection {
  private readonly statements = new Map<string, Database.Statement>();
  private open: object | null = null;
  private openEnded: Promise<void> = Promise.resolve();
  private turn: Promise<void> = Promise.resolve();
  private savepoints = 0;
  private busyTimeout: Database.Statement | undefined;

  constructor(readonly raw: Database.Database) {}

  /** drizzle's sqlite-proxy callback: rows as arrays, as drizzle maps them onto its fields. */
  readonly proxy = async (text: string, params: unknown[], method: Method): Promise<{ rows: unknown }> => {
    if (this.open && scope.getStore()?.tx !== this.open) await this.waitForOpenTransaction();
    return this.now(() => {
      const stmt = this.statement(text);
      if (method === 'run') {
        const r = stmt.reader ? { changes: 0, lastInsertRowid: 0, rows: stmt.raw(false).all(...params) } : stmt.run(...params);
        return { rows: [], changes: r.changes, lastInsertRowid: r.lastInsertRowid };
      }
      stmt.raw(true);
      return { rows: method === 'get' ? stmt.get(...params) : stmt.all(...params) };
    });
  };

  /** Raw SQL returning rows as objects keyed by column name. */
  async queryRows<T>(query: SQL): Promise<T[]> {
    const { sql: text, params } = dialect.sqlToQuery(query);
    if (this.open && scope.getStore()?.tx !== this.open) await this.waitForOpenTransaction();
    return this.now(() => this.statement(text).raw(false).all(...params) as T[]);
  }

  /** Raw SQL that changes rows; returns how many. */
  async execute(query: SQL): Promise<{ rowsAffected: number }> {
    const { sql: text, params } = dialect.sqlToQuery(query);
    if (this.open && scope.getStore()?.tx !== this.open) await this.waitForOpenTransaction();
    return this.now(() => ({ rowsAffected: this.statement(text).run(...params).changes }));
  }

  /**
   * Runs `fn` atomically: BEGIN IMMEDIATE, COMMIT, ROLLBACK when it throws. Transactions on the
   * connection take turns; one opened inside another becomes a savepoint. The body must await
   * only database work: anything else it waits for holds every other query back.
   */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    const here = scope.getStore();
    if (this.open && here?.tx === this.open) return this.savepoint(fn);
    const before = this.turn;
    let next!: () => void;
    this.turn = new Promise<void>((r) => (next = r));
    try {
      await before;
      while (this.open) await this.openEnded; // a savepoint's owner is still finishing
      const token = {};
      this.now(() => this.raw.exec('begin immediate'));
      let ended!: () => void;
      this.open = token;
      this.openEnded = new Promise<void>((r) => (ended = r));
      try {
        const result = await scope.run({ ...here, tx: token }, fn);
        this.now(() => this.raw.exec('commit'));
        return result;
      } catch (err) {
        if (this.raw.inTransaction) this.raw.exec('rollback');
        throw err;
      } finally {
        this.open = null;
        ended();
      }
    } finally {
      next();
    }
  }

  private async savepoint<T>(fn: () => Promise<T>): Promise<T> {
    const name = `sp${++this.savepoints}`;
    this.now(() => this.raw.exec(`savepoint ${name}`));
    try {
      const result = await fn();
      this.raw.exec(`release ${name}`);
      return result;
    } catch (err) {
      this.raw.exec(`rollback to ${name}`);
      this.raw.exec(`release ${name}`);
      throw err;
    } finally {
      this.savepoints--;
    }
  }

  private async waitForOpenTransaction(): Promise<void> {
    const mine = scope.getStore()?.tx;
    while (this.open && this.open !== mine) await this.openEnded;
  }

  /**
   * Runs one synchronous statement, under the task's busy-wait cap if it has one. The pragmas
   * are statements compiled once: better-sqlite3's pragma() compiles its statement on every
   * call, and a capped task (the call path) ran three per statement (2.8 ms of the core's CPU
   * per call, issue 47). The timeout is read each time: an operator or a test may change it.
   */
  private now<T>(run: () => T): T {
    const cap = scope.getStore()?.busyCapMs;
    if (cap === undefined) return run();
    this.busyTimeout ??= this.raw.prepare('pragma busy_timeout').pluck();
    const was = this.busyTimeout.get() as number;
    if (was <= cap) return run();
    this.statement(`pragma busy_timeout = ${cap}`).get();
    try {
      return run();
    } finally {
      this.statement(`pragma busy_timeout = ${was}`).get();
    }
  }

  private statement(text: string): Database.Statement {
    let stmt = this.statements.get(text);
    if (!stmt) {
      stmt = this.raw.prepare(text);
      if (this.statements.size >= STATEMENT_CACHE) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(text, stmt);
    }
    return stmt;
  }
}

/** Runs `fn` with every statement its task issues waiting at most `ms` for another process's lock. */
export function withBusyCap<T>(ms: number, fn: () => T): T {
  return scope.run({ ...scope.getStore(), busyCapMs: ms }, fn);
}
