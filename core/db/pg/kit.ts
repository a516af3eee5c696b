// PostgreSQL's meaning of the declaration's builders (core/db/declaration/tables.ts): what
// differs from SQLite (core/db/sqlite/kit.ts) is here and nowhere else, with the same values at
// the drizzle level (Date, boolean, parsed JSON, number), so code written against one runs on
// the other.
import { boolean, integer, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';

export { index, integer, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';

export const table = pgTable;

/** The row id: an identity column, generated unless the writer gives one (the move tool does). */
export const id = () => integer('id').primaryKey().generatedByDefaultAsIdentity();

/**
 * An instant: timestamptz to the millisecond, read and written as a Date, as SQLite's
 * integer epoch milliseconds are. Millisecond precision keeps a round trip exact.
 */
export const instant = <N extends string>(name: N) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

export const bool = <N extends string>(name: N) => boolean(name);

export const json = <N extends string>(name: N) => jsonb(name);

/** When the row was written, by the database's clock. */
export const createdAt = () => instant('created_at').notNull().defaultNow();
