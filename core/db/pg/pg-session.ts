import { AsyncLocalStorage } from 'node:async_hooks';
import type { PgDb } from './open-postgres.js';

// The appliance's Db on PostgreSQL. Code everywhere queries `db` (it never knows the dialect);
// inside transaction() that must mean the transaction's connection, or a write made "inside"
// it would run on another pooled connection: outside the transaction, and waiting on its row
// locks. So the Db handed out is a proxy that sends every call to the transaction the current
// async task is in (AsyncLocalStorage), and to the pool otherwise: the same rule as SQLite's
// one connection, where the body may use `db` or `tx` alike.

type PgTx = Parameters<Parameters<PgDb['transaction']>[0]>[0];

const current = new AsyncLocalStorage<PgTx>();
const pools = new WeakMap<object, PgDb>();

/** The Db the app uses on PostgreSQL: the pool's drizzle database, routed to the open transaction. */
export function postgresAppDb(pool: PgDb): PgDb {
  const routed = new Proxy(pool, {
    get(target, prop) {
      const to = (current.getStore() ?? target) as PgDb;
      const value: unknown = Reflect.get(to, prop);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(to) : value;
    },
  });
  pools.set(routed, pool);
  return routed;
}

/** The PostgreSQL pool's own database under an app Db (never a transaction's), or the Db itself on SQLite. */
export function pgPoolDbOr<D extends object>(db: D): D {
  return (pools.get(db) as D | undefined) ?? db;
}

export function isPostgresDb(db: object): boolean {
  return pools.has(db);
}

/** Where a statement of the current task runs: its transaction, or the pool. */
export function pgExecutor(db: object): PgDb {
  const pool = pools.get(db);
  if (!pool) throw new Error('This Db was not opened on PostgreSQL (core/db/open.ts).');
  return (current.getStore() as PgDb | undefined) ?? pool;
}

/** True while the current async task is inside a transaction (so a new one would be a savepoint). */
export function inPgTransaction(): boolean {
  return current.getStore() !== undefined;
}

/**
 * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. The
 * outermost one is SERIALIZABLE (transaction.ts says why, and runs it again when refused); one
 * opened inside another is a savepoint of that one (drizzle's nested transaction), which has
 * no level of its own.
 */
export function pgTransaction<T>(db: object, fn: () => Promise<T>): Promise<T> {
  const open = current.getStore();
  if (open) return open.transaction((tx) => current.run(tx, fn));
  return pgExecutor(db).transaction((tx) => current.run(tx, fn), { isolationLevel: 'serializable' });
}
