import { defineConfig } from 'drizzle-kit';

// The PostgreSQL schema (DATABASE_URL=postgres://…): core/db/pg/schema.ts, the twin of
// core/db/schema.ts, with its own migrations in drizzle-pg/ (docs/postgres.md).
export default defineConfig({
  dialect: 'postgresql',
  schema: './core/db/pg/schema.ts',
  out: './drizzle-pg',
});
