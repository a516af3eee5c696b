import { afterEach, describe, expect, it } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { usePostgres } from '../helpers/use-postgres.js';

// Issue 26: two cores of a cluster on one PostgreSQL count against the same limits (their
// counters are in the database), so a client spreading its attempts over the cores gains
// nothing; each counter keeps its own counts.

const postgres = usePostgres();
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function twoCores(): Promise<[TestServer, TestServer]> {
  const url = await postgres().createDatabase({ migrated: true });
  for (let i = 0; i < 2; i++) servers.push(await startTestServer({ env: { DATABASE_URL: url } }));
  return [servers[0]!, servers[1]!];
}

describe('rate limits across the cores of a cluster', () => {
  it('counts wrong passwords on either core against one limit: the 6th attempt is refused on both', async () => {
    const [a, b] = await twoCores();
    const { email, password } = await activeCustomer(a);
    const [onA, onB] = [new ApiClient(a.url), new ApiClient(b.url)];
    for (let i = 0; i < 5; i++) expect((await (i % 2 ? onB : onA).post('/api/auth/login', { email, password: `wrong-${i}` })).status).toBe(401);
    for (const client of [onA, onB]) {
      const blocked = await client.post('/api/auth/login', { email, password });
      expect(blocked.status).toBe(429);
      expect(blocked.body.message).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/);
    }
  });

  it('claims each attempt before judging it: 20 wrong passwords at once over both cores have 5 judged, the rest refused', async () => {
    const [a, b] = await twoCores();
    const { email, password } = await activeCustomer(a);
    const [onA, onB] = [new ApiClient(a.url), new ApiClient(b.url)];
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? onB : onA).post('/api/auth/login', { email, password: `wrong-${i}` })));
    expect(answers.map((r) => r.status).sort()).toEqual([...Array(5).fill(401), ...Array(15).fill(429)]);
    expect((await onA.post('/api/auth/login', { email, password })).status).toBe(429);
  });

  it("counts a route's requests on either core against one limit, and keeps each route's and counter's counts apart", async () => {
    const [a, b] = await twoCores();
    const [onA, onB] = [new ApiClient(a.url), new ApiClient(b.url)];
    // Sign-in failures from this address (per-address counter, 20) do not use up its reset requests (10).
    for (let i = 0; i < 8; i++) expect((await onA.post('/api/auth/login', { email: `nobody${i}@example.co.uk`, password: 'Wrong-pass1!' })).status).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await (i % 2 ? onB : onA).post('/api/auth/forgot-password', { email: `x${i}@example.co.uk` })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429]);
  });
});
