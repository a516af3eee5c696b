import type { SQL } from 'drizzle-orm';
import { dialectOf, sqliteConnectionOf, type Db } from './client.js';
import { pgExecutor } from './pg/pg-session.js';

/**
 * Hand-written SQL (analytics, orphan recovery, the job queue's conditional updates) goes
 * through these two, built with drizzle's `sql` template, so each dialect runs it its own way.
 * A statement that uses a SQLite-only function says so in a comment naming the function;
 * PostgreSQL needs its own variant there.
 */

/** Rows as objects keyed by the column names the SQL gives them. */
export function queryRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  switch (dialectOf(db)) {
    case 'sqlite':
      return sqliteConnectionOf(db).queryRows<T>(query);
    case 'pg':
      return pgExecutor(db).execute(query).then((r) => r.rows as T[]);
  }
}

/** The first row, or undefined. */
export async function queryRow<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T | undefined> {
  return (await queryRows<T>(db, query))[0];
}

/** A statement that changes rows; how many it changed. */
export function execute(db: Db, query: SQL): Promise<{ rowsAffected: number }> {
  switch (dialectOf(db)) {
    case 'sqlite':
      return sqliteConnectionOf(db).execute(query);
    case 'pg':
      return pgExecutor(db).execute(query).then((r) => ({ rowsAffected: r.rowCount ?? 0 }));
  }
}

/** How many rows an awaited insert/update/delete without `.returning()` changed (SQLite: changes, PostgreSQL: rowCount). */
export function rowsAffected(result: unknown): number {
  const r = result as { changes?: number; rowCount?: number | null };
  return r.changes ?? r.rowCount ?? 0;
}
