import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { projectRoot } from '../config/paths.js';
import * as schema from './schema.js';

export type Db = BetterSQLite3Database<typeof schema>;
// better-sqlite3 is synchronous on one connection, so inside db.transaction(() => …)
// plain `db` calls run in that transaction: repositories take `Db` and need no tx type.

export interface DatabaseHandle {
  db: Db;
  /** The raw connection, for pragmas, backups and the few hand-tuned SQL statements. */
  sqlite: Database.Database;
  close(): void;
}

/**
 * Opens the appliance database and brings its schema up to date.
 * WAL lets the console read while a call is being written; the busy timeout
 * rides out a backup or a second process holding the write lock.
 */
export function openDatabase(file: string): DatabaseHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: path.join(projectRoot(), 'drizzle') });
  return { db, sqlite, close: () => sqlite.close() };
}

/** True when the database answers a trivial query (readiness). */
export function databaseIsUsable(handle: DatabaseHandle): boolean {
  try {
    return handle.sqlite.prepare('select 1 as ok').get() !== undefined;
  } catch {
    return false;
  }
}
