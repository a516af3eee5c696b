// The dialect the ordinary type check (tsconfig.json) checks the app against: SQLite's. The
// second check (tsconfig.pg.json) maps '@appliance/checked-dialect' to ./pg.ts instead, so
// every query is compiled once per engine and code using what only one engine has fails one
// of the two (npm run typecheck runs both). Types only: nothing here exists at run time.
import type { SqliteRemoteDatabase } from 'drizzle-orm/sqlite-proxy';
import type * as schema from '../sqlite/schema.js';

export type CheckedSchema = typeof schema;
export type CheckedDb = SqliteRemoteDatabase<CheckedSchema>;
