// The screened-calls count (analytics, the digest, the admin's usage) must read the partial index
// of screened rows, never an owner's whole call history: with the index led by screened_by,
// SQLite's planner chose calls_user_created_idx for one owner's count and walked all their calls
// (bench/engines.ts: /api/analytics p50 406 ms at 100,000 calls against 3.5 ms before). SQLite's
// plan without statistics is fixed by the schema, so it can be asserted; PostgreSQL plans by row
// counts, which bench/engines.ts measures at 1M calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenedCallsQuery } from '../../core/screening/counts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sqliteOf } from '../../core/db/client.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('screened calls counted from the partial index', () => {
  for (const [name, opts] of [
    ['one owner, all time', { userId: 7 }],
    ['one owner, a period', { userId: 7, from: new Date('2027-01-01T00:00:00Z'), to: new Date('2027-02-01T00:00:00Z') }],
    ['the whole box, a month', { from: new Date('2027-01-01T00:00:00Z'), to: new Date('2027-02-01T00:00:00Z') }],
  ] as const) {
    it(name, async () => {
      const sqlite = sqliteOf(server.database);
      const q = screenedCallsQuery(server.database.db, opts).toSQL();
      const params = q.params.map((p) => (p instanceof Date ? p.getTime() : p)) as (string | number)[];
      const steps = (sqlite.prepare(`explain query plan ${q.sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
      expect(steps).toHaveLength(1);
      expect(steps[0]).toMatch(/^(SEARCH|SCAN) calls USING (COVERING )?INDEX calls_screened_idx\b/);
    });
  }
});
