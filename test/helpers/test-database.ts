import type { PostgresServer } from './postgres.js';

let postgres: Promise<PostgresServer> | undefined;

/**
 * TEST_DATABASE=postgres runs the suites on PostgreSQL: one server per test file (started on
 * first use, stopped after the file by setup-test-database.ts) and a fresh migrated database
 * per test server, given to the core as DATABASE_URL exactly as an operator would. Unset: a
 * SQLite file in the data dir.
 */
export async function testDatabaseEnv(): Promise<Record<string, string>> {
  if (process.env.TEST_DATABASE !== 'postgres') return {};
  // Imported here, not at the top: every test file loads this module (setup-test-database.ts),
  // and the driver with drizzle's pg-core is ~0.2 s of CPU a SQLite run would import for nothing.
  postgres ??= import('./postgres.js').then((m) => m.startPostgres());
  return { DATABASE_URL: await (await postgres).createDatabase({ migrated: true }) };
}

/** Stops this file's server, if it started one. */
export async function stopTestDatabase(): Promise<void> {
  const started = postgres;
  postgres = undefined;
  if (started) await (await started).stop();
}
