import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type PostgresOptions, type PostgresServer } from './postgres.js';

/**
 * One server for the calling test file: started before its tests, stopped after them.
 * Returns a getter, since the server exists only once beforeAll has run.
 */
export function usePostgres(opts: PostgresOptions = {}): () => PostgresServer {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres(opts);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('usePostgres(): the server starts in beforeAll; call the getter inside a test');
    return server;
  };
}
