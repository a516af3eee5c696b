import path from 'node:path';
import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { projectRoot } from '../../config/paths.js';
import * as schema from './schema.js';
import type { Log } from '../../../contract/log.js';

export type PgDb = NodePgDatabase<typeof schema>;

export interface PostgresHandle {
  db: PgDb;
  /** The connection pool, for the few statements drizzle does not build (locks, sequences). */
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * The advisory lock every core takes around its migrations (an arbitrary fixed 64-bit key,
 * "appliance migrations"): when several start at once on one database, one migrates and the
 * others wait, then find nothing left to do.
 */
const MIGRATION_LOCK_KEY = 7_461_302_519_884_001n;

/**
 * Counts and sums come back as int8/numeric, which node-postgres gives as strings to be safe
 * beyond 2^53. The appliance's counts (calls, pence, seconds) are far below that, and SQLite
 * returns them as numbers, so they are numbers here too: the same row objects on both. Set on
 * pg's shared parsers because drizzle's node-postgres session falls back to them for every
 * type it does not parse itself (it ignores a pool's own `types`).
 */
function countsAsNumbers(): void {
  pg.types.setTypeParser(pg.types.builtins.INT8, Number);
  pg.types.setTypeParser(pg.types.builtins.NUMERIC, Number);
}

export const pgMigrationsFolder = () => path.join(projectRoot(), 'drizzle-pg');

/** Applies drizzle-pg/'s migrations under the migration lock, on one connection of the pool. */
async function migratePostgres(pool: pg.Pool, log: Pick<Log, 'info'>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    try {
      await migrate(drizzle(client, { schema }), { migrationsFolder: pgMigrationsFolder() });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    }
    log.info({}, 'PostgreSQL schema is up to date');
  } finally {
    client.release();
  }
}

/**
 * Opens the appliance database on PostgreSQL (DATABASE_URL=postgres://…) and brings its
 * schema up to date. The same row objects as SQLite's openDatabase, through drizzle's
 * PostgreSQL dialect and core/db/pg/schema.ts.
 */
export async function openPostgres(url: string, log: Pick<Log, 'info' | 'warn'>, opts: { maxConnections?: number } = {}): Promise<PostgresHandle> {
  countsAsNumbers();
  const pool = new pg.Pool({ connectionString: url, max: opts.maxConnections ?? 10 });
  // An idle connection the server drops (restart, failover) must not crash the core: the pool
  // discards it and the next query opens a fresh one.
  pool.on('error', (err) => log.warn({ err: err.message }, 'PostgreSQL connection lost; the pool will reconnect'));
  try {
    await migratePostgres(pool, log);
  } catch (err) {
    await pool.end();
    throw err;
  }
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
