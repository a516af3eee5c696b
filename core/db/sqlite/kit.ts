// SQLite's meaning of the declaration's builders (core/db/declaration/tables.ts): what differs
// from PostgreSQL (core/db/pg/kit.ts) is here and nowhere else. Each gives the app the same
// value as its PostgreSQL twin: an instant is a Date (integer epoch milliseconds), a boolean a
// boolean (0/1), JSON parsed (text).
import { sql } from 'drizzle-orm';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export { index, integer, primaryKey, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const table = sqliteTable;

/** The row id: SQLite's AUTOINCREMENT, so an id is never reused after a delete. */
export const id = () => integer('id').primaryKey({ autoIncrement: true });

export const instant = <N extends string>(name: N) => integer(name, { mode: 'timestamp_ms' });

export const bool = <N extends string>(name: N) => integer(name, { mode: 'boolean' });

export const json = <N extends string>(name: N) => text(name, { mode: 'json' });

/** When the row was written, by the database's clock to the millisecond. */
export const createdAt = () =>
  instant('created_at')
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);
