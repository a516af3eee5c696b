// A vitest setup file: runs in every test file's own module graph, so the afterAll below stops
// the PostgreSQL server that file's test servers shared (TEST_DATABASE=postgres). Vitest ends
// its workers without the process 'exit' event postgres.ts also listens for, and a server
// per file would otherwise outlive the run.
import { afterAll } from 'vitest';
import { stopTestDatabase } from './test-database.js';

afterAll(async () => {
  await stopTestDatabase();
});
