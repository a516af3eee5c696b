// The dialect tsconfig.pg.json checks the app against: PostgreSQL's (see ./sqlite.ts). Types only.
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type * as schema from '../pg/schema.js';

export type CheckedSchema = typeof schema;
export type CheckedDb = NodePgDatabase<CheckedSchema>;
