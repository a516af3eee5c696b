import type { Log } from '../../contract/log.js';
import type { DatabaseSetting } from './setting.js';
import { openDatabase, type DatabaseHandle, type Db } from './client.js';
import { registerTables } from './schema.js';

/**
 * Opens the database the configuration names (DATABASE_URL: PostgreSQL; unset: the SQLite
 * file under DATA_DIR), brings its schema up to date and registers its dialect's tables (tablesOf).
 * Everything after this is the same code on both.
 */
export async function openAppDatabase(setting: DatabaseSetting, log: Pick<Log, 'info' | 'warn'>): Promise<DatabaseHandle> {
  if (setting.kind === 'sqlite') return openDatabase(setting.file);
  // Loaded only here: PostgreSQL's driver and drizzle's pg-core cost ~0.2 s of CPU to import,
  // which a SQLite box (and each of the test suite's fresh module graphs) would pay for nothing.
  const [{ openPostgres }, { postgresAppDb }, pgTables] = await Promise.all([import('./pg/open-postgres.js'), import('./pg/pg-session.js'), import('./pg/schema.js')]);
  const pg = await openPostgres(setting.url, log);
  // Typed as the checked dialect's Db (the identity under PostgreSQL's check, tsconfig.pg.json).
  const db = postgresAppDb(pg.db) as unknown as Db;
  registerTables(db, pgTables);
  // And the pool's own database, on which statements prepared once are built (prepared.ts).
  registerTables(pg.db as unknown as Db, pgTables);
  return {
    dialect: 'pg',
    db,
    close: () => pg.close(),
  };
}
