import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../helpers/client.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

describe('login rate limiting', () => {
  it('answers 429 with a message after 5 failed logins for one account, even with the right password', async () => {
    const { email, password } = await activeCustomer(server);
    const client = new ApiClient(server.url);
    for (let i = 0; i < 5; i++) {
      expect((await client.post('/api/auth/login', { email, password: `wrong-${i}` })).status).toBe(401);
    }
    const blocked = await client.post('/api/auth/login', { email, password });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/);
  });

  it('claims each attempt before judging it: 12 wrong passwords sent at once have 5 judged, the rest refused', async () => {
    const { email, password } = await activeCustomer(server);
    const client = new ApiClient(server.url);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => client.post('/api/auth/login', { email, password: `wrong-${i}` })));
    expect(answers.map((r) => r.status).sort()).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    expect((await client.post('/api/auth/login', { email, password })).status).toBe(429);
  });

  it('a right password gives its claimed attempt back: five good sign-ins leave the sixth allowed', async () => {
    const { email, password } = await activeCustomer(server);
    for (let i = 0; i < 6; i++) expect((await new ApiClient(server.url).post('/api/auth/login', { email, password })).status).toBe(200);
    expect((await new ApiClient(server.url).post('/api/auth/login', { email, password: 'wrong' })).status).toBe(401);
  });

  it('limits one address trying many accounts', async () => {
    const client = new ApiClient(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      statuses.push((await client.post('/api/auth/login', { email: `user${i}@example.co.uk`, password: 'Wrong-pass1!' })).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
  });

  it('limits reset requests per address', async () => {
    const client = new ApiClient(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await client.post('/api/auth/forgot-password', { email: `x${i}@example.co.uk` })).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
