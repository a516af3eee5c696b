import type { Log } from '../../contract/log.js';
import type { DatabaseSetting } from '../config/config.js';
import { openDatabase, type DatabaseHandle, type Db } from './client.js';
import { openPostgres } from './pg/open-postgres.js';
import { postgresAppDb } from './pg/pg-session.js';
import { bindTables } from './schema.js';

/**
 * Opens the database the configuration names (DATABASE_URL: PostgreSQL; unset: the SQLite
 * file under DATA_DIR), brings its schema up to date and binds the tables to its dialect.
 * Everything after this is the same code on both.
 */
export async function openAppDatabase(setting: DatabaseSetting, log: Pick<Log, 'info' | 'warn'>): Promise<DatabaseHandle> {
  if (setting.kind === 'sqlite') return openDatabase(setting.file);
  const pg = await openPostgres(setting.url, log);
  bindTables('pg');
  // Typed as the SQLite Db: the same builders, tables and row types (the guard test keeps code off SQLite-only calls).
  const db = postgresAppDb(pg.db) as unknown as Db;
  return {
    dialect: 'pg',
    db,
    close: () => pg.close(),
  };
}
