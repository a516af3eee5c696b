import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForwardingChecks } from '../../core/forwarding-check/index.js';
import { phoneNumbers, users } from '../helpers/tables.js';
import type { ForwardingCheckStartResult } from '../../core/ports/forwarding-check.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// "Check my forwarding" through the API with a stand-in PBX that opens the check's row as the
// real one does (the calls themselves: test/pbx-real/forwarding-check.test.ts).

let server: TestServer;
const placed: Array<{ userId: number; line: string }> = [];
let didSeq = 0;
beforeAll(async () => {
  server = await startTestServer({
    rateLimits: { forwardingChecksPerOwner: { max: 3, windowMs: 60 * 60_000 } },
    setup: (services) => {
      const checks = createForwardingChecks(services.database.db);
      return {
        forwardingCheck: async (userId: number, line: string): Promise<ForwardingCheckStartResult> => {
          placed.push({ userId, line });
          const at = services.now();
          return { kind: 'started', id: await checks.open({ userId, line, did: 'x', startedAt: at, endsAt: new Date(at.getTime() + 60_000) }) };
        },
      };
    },
  });
});
afterAll(() => server.close());

async function owner(businessPhone = '07400 123456', withNumber = true) {
  const o = await activeCustomer(server, { businessPhone });
  if (withNumber) {
    const did = `+4477009010${String(++didSeq).padStart(2, '0')}`;
    await server.database.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: o.user.id, assignedAt: new Date() });
  }
  return o;
}

describe('POST /api/forwarding-check', () => {
  it('calls the business line on the account and answers the check, which the owner reads while it calls', async () => {
    const o = await owner('0113 496 0000');
    const res = await o.client.post('/api/forwarding-check');
    expect(res.status).toBe(200);
    expect(placed.at(-1)).toEqual({ userId: o.user.id, line: '+441134960000' });
    expect((await o.client.get(`/api/forwarding-check/${res.body.id}`)).body).toEqual({ id: res.body.id, state: 'calling' });
    // One at a time.
    const again = await o.client.post('/api/forwarding-check');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('A forwarding check is already under way: wait for its result.');
  });

  it('another owner cannot read it', async () => {
    const a = await owner();
    const b = await owner();
    const { body } = await a.client.post('/api/forwarding-check');
    const res = await b.client.get(`/api/forwarding-check/${body.id}`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No such forwarding check.');
  });

  it('refuses a line the appliance may not dial, an owner with no appliance number, and an expired trial', async () => {
    const count = placed.length;
    const premium = await owner('0909 879 0000');
    const r1 = await premium.client.post('/api/forwarding-check');
    expect(r1.status).toBe(400);
    expect(r1.body.message).toBe('The check only calls UK mobile and landline numbers: this is a premium-rate number (09…, 087…). Your operator can allow it.');

    const noNumber = await owner('07400 123456', false);
    const r2 = await noNumber.client.post('/api/forwarding-check');
    expect(r2.status).toBe(400);
    expect(r2.body.message).toBe('Your account has no phone number yet: get one above, then forward your line to it.');

    const expired = await owner();
    await server.database.db.update(users).set({ trialExpiresAt: new Date(Date.now() - 1000) }).where(eq(users.id, expired.user.id));
    const r3 = await expired.client.post('/api/forwarding-check');
    expect(r3.status).toBe(403);
    expect(placed.length).toBe(count);
  });

  it('limits each owner to a few checks an hour, with a message saying when to try again', async () => {
    const o = await owner();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await o.client.post('/api/forwarding-check')).status);
    expect(statuses).toEqual([200, 409, 409]);
    const res = await o.client.post('/api/forwarding-check');
    expect(res.status).toBe(429);
    expect(res.body.message).toBe('You can check your forwarding 3 times an hour. Please wait 60 minutes and try again.');
    // Another owner is not held up.
    expect((await (await owner()).client.post('/api/forwarding-check')).status).toBe(200);
  });
});
