import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../helpers/tables.js';
import { RATE_LIMITS } from '../../core/http/rate-limits.js';
import { issueResetToken } from '../../core/auth/reset-tokens.js';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { activeCustomer, signupBody } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sqliteOf } from '../../core/db/client.js';

// Issue 13 item 3: what had no limit gets one from @fastify/rate-limit, and a bogus reset
// token no longer costs an argon2 run.

// Counts argon2 hashes while keeping the real ones.
const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../core/auth/passwords.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../core/auth/passwords.js')>();
  return {
    ...real,
    hashPassword: (p: string) => {
      hashes.count++;
      return real.hashPassword(p);
    },
  };
});

let server: TestServer;
let ollama: OllamaDouble;
beforeAll(async () => {
  ollama = await startOllamaDouble();
  server = await startTestServer({
    env: { OLLAMA_URL: ollama.url, TTS_ENGINE: 'espeak-ng' },
  });
});
afterAll(async () => {
  await server?.close();
  await ollama?.close();
});
afterEach(() => {
  ollama.always = null;
  ollama.script.length = 0;
});

const TOO_MANY = /^Too many attempts\. Please wait \d+ minutes? and try again\.$/;
describe('rate limits', () => {
  it('sign-up: the eleventh request from one address in an hour is refused and creates no account', async () => {
    // Its own server with the real sign-up limit (test servers get an endless one for their fixtures).
    const own = await startTestServer({ rateLimits: { signupsPerIp: RATE_LIMITS.signupsPerIp } });
    try {
      await signUpElevenTimes(own);
    } finally {
      await own.close();
    }
  });

  async function signUpElevenTimes(server: TestServer) {
    const userCount = async () => sqliteOf(server.database).prepare('select count(*) n from users').get() as { n: number };
    const anon = new ApiClient(server.url);
    // A mistake corrected does not use up the allowance.
    expect((await anon.post('/api/auth/signup', signupBody({ city: '' }))).status).toBe(400);
    for (let i = 0; i < RATE_LIMITS.signupsPerIp.max; i++) expect((await anon.post('/api/auth/signup', signupBody())).status).toBe(201);
    const before = (await userCount()).n;
    const refused = await anon.post('/api/auth/signup', signupBody({ businessEmail: 'eleventh@example.co.uk' }));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(TOO_MANY);
    expect((await userCount()).n).toBe(before);
  }

  it('change-password: after five wrong current passwords even the right one is refused, and the password is unchanged', async () => {
    const { client, email, password } = await activeCustomer(server);
    for (let i = 0; i < 5; i++) {
      const wrong = await client.post('/api/auth/change-password', { currentPassword: `guess-${i}`, newPassword: 'hijacked1' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe('Current password is incorrect');
    }
    const sixth = await client.post('/api/auth/change-password', { currentPassword: password, newPassword: 'hijacked1' });
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toMatch(TOO_MANY);
    expect((await new ApiClient(server.url).post('/api/auth/login', { email, password })).status).toBe(200);
    expect((await new ApiClient(server.url).post('/api/auth/login', { email, password: 'hijacked1' })).status).toBe(401);
  });

  it('reset-password: a bogus token is refused without hashing the new password, and ten of them block the address', async () => {
    const anon = new ApiClient(server.url);
    // The count is real: a genuine token hashes the new password once.
    const { user } = await activeCustomer(server);
    const token = await issueResetToken(server.database.db, user.id, new Date());
    let before = hashes.count;
    expect((await anon.post('/api/auth/reset-password', { token, newPassword: 'newpass1', confirmPassword: 'newpass1' })).status).toBe(200);
    expect(hashes.count).toBe(before + 1);

    before = hashes.count;
    for (let i = 0; i < RATE_LIMITS.resetFailuresPerIp.max; i++) {
      const res = await anon.post('/api/auth/reset-password', { token: `bogus-${i}`, newPassword: 'newpass1', confirmPassword: 'newpass1' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('This reset link is invalid or has expired. Please request a new password reset.');
    }
    expect(hashes.count).toBe(before);
    const blocked = await anon.post('/api/auth/reset-password', { token: 'bogus-x', newPassword: 'newpass1', confirmPassword: 'newpass1' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(TOO_MANY);
    expect(hashes.count).toBe(before);
  });
});

describe('agent preview', () => {
  const ask = (c: ApiClient, question = 'Hours?') => c.post('/api/agent/preview', { question, knowledgeBase: 'Q: Hours?\nA: 9 to 5.' });

  it('answers an owner ten times a minute and refuses the eleventh', async () => {
    const { client } = await activeCustomer(server);
    ollama.always = { reply: '{"intent":"question","answered":true,"answer":"Nine to five."}' };
    for (let i = 0; i < RATE_LIMITS.previewsPerOwner.max; i++) expect((await ask(client)).status).toBe(200);
    const eleventh = await ask(client);
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.message).toMatch(TOO_MANY);
    const chats = ollama.requests.length;
    expect((await ask(client)).status).toBe(429);
    expect(ollama.requests.length).toBe(chats); // a refused preview never reaches the model
  });

  it('runs at most two previews at once across owners: a third owner is told to try again', async () => {
    const owners = [await activeCustomer(server), await activeCustomer(server), await activeCustomer(server)];
    let answer!: () => void;
    // Both previews stay with the model until the third owner has had an answer, however slow the machine.
    ollama.always = { reply: '{"intent":"question","answered":true,"answer":"Nine to five."}', until: new Promise<void>((r) => (answer = r)) };
    const seen = ollama.requests.length;
    const running = [ask(owners[0]!.client), ask(owners[1]!.client)];
    await vi.waitFor(() => expect(ollama.requests.length).toBe(seen + 2), { timeout: 30_000 });
    const third = await ask(owners[2]!.client);
    expect(third.status).toBe(503);
    expect(third.body.message).toBe('The AI agent is busy with other previews right now. Please try again in a moment.');
    expect(ollama.requests.length).toBe(seen + 2);
    answer();
    expect((await Promise.all(running)).map((r) => r.status)).toEqual([200, 200]);
  });

  it('refuses an owner whose trial has expired, without calling the model', async () => {
    const { client, user } = await activeCustomer(server);
    await server.database.db.update(users).set({ accountStatus: 'expired' }).where(eq(users.id, user.id));
    const seen = ollama.requests.length;
    const res = await ask(client);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Trying the AI agent needs an active account. Please contact support to continue.');
    expect(ollama.requests.length).toBe(seen);
  });
});
