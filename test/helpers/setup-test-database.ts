// A vitest setup file: runs in every test file's own module graph, so the afterAll below stops
// the PostgreSQL server that file's test servers shared (TEST_DATABASE=postgres). Vitest ends
// its workers without the process 'exit' event postgres.ts also listens for, and a server
// per file would otherwise outlive the run. Imported only in such a run: a SQLite run pays
// nothing for it in files that never start a server.
import { afterAll } from 'vitest';

afterAll(async () => {
  if (process.env.TEST_DATABASE !== 'postgres') return;
  const { stopTestDatabase } = await import('./test-database.js');
  await stopTestDatabase();
});
