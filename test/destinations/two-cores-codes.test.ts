// Issue 39 M5: the five-wrong-codes limit on a confirmation code holds when the guesses arrive
// all at once, spread over two cores on one PostgreSQL database: each guess claims an attempt
// with one conditional update before it is judged, so no more than five are ever judged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { latestCode } from '../helpers/destinations.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { usePostgres } from '../helpers/use-postgres.js';

const postgres = usePostgres();
const servers: TestServer[] = [];
beforeAll(async () => {
  const url = await postgres().createDatabase({ migrated: true });
  for (let i = 0; i < 2; i++) servers.push(await startTestServer({ env: { DATABASE_URL: url } }));
});
afterAll(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const WRONG = "That code is not right. Check the latest code we sent and try again.";

describe('confirmation codes over two cores', () => {
  it('60 wrong codes and the right one at once: at most 5 are judged against the code', async () => {
    const [a, b] = [servers[0]!, servers[1]!];
    const { client: onA } = await activeCustomer(a);
    const onB = new ApiClient(b.url);
    onB.cookie = onA.cookie;
    const number = '+447700900456';
    expect((await onA.patch('/api/user/settings', { smsEnabled: true, notificationNumber: number })).status).toBe(200);
    const right = latestCode(a, 'sms', number);
    const wrong = Array.from({ length: 60 }, (_, i) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0'));

    const answers = await Promise.all(
      [...wrong, right].map((code, i) => (i % 2 ? onB : onA).post('/api/user/destinations/confirm', { kind: 'sms', code })),
    );
    const judged = answers.filter((r) => r.status === 200 || r.body.message === WRONG);
    expect(judged.length).toBeLessThanOrEqual(5);
    // The rest were told the attempts are used up (or, once confirmed, that nothing waits).
    expect(answers.filter((r) => r.status === 400 && r.body.message !== WRONG).length).toBe(answers.length - judged.length);
    // Nothing waits for a code any more, and the number is the owner's only if a code confirmed it.
    expect((await onA.get('/api/user/destinations')).body.pending).toEqual([]);
    const confirmed = answers.some((r) => r.status === 200);
    expect((await onA.get('/api/auth/me')).body.user.notificationNumber === number).toBe(confirmed);
  });
});
