import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './core/db/sqlite/schema.ts',
  out: './drizzle',
});
