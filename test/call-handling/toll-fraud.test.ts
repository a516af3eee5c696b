import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadCallHandling } from '../../core/call-handling/index.js';
import { createCallPath } from '../../core/calls/call-path.js';
import { outboundCalls, users } from '../helpers/tables.js';
import type { TestTransferResult } from '../../core/ports/test-transfer.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Toll fraud (issue 24): the operator's trunk pays for every number the appliance dials.

const refusal = (why: string) => `Calls are only put through to UK mobile and landline numbers: this is ${why}. Your operator can allow it.`;
const PREMIUM = refusal('a premium-rate number (09…, 087…)');
const INTERNATIONAL = refusal('an international number');

let server: TestServer;
/** Numbers the stand-in PBX was asked to ring for a Test transfer. */
let rung: number[] = [];
beforeAll(async () => {
  server = await startTestServer({
    env: { OUTBOUND_ALLOW: '+3531', OUTBOUND_DAILY_MINUTES: '10' },
    setup: (services) => ({
      testTransfer: async (userId: number): Promise<TestTransferResult> => {
        rung.push(userId);
        return { kind: 'rang', outcome: 'answered', number: (await loadCallHandling(services.database.db, userId)).transferNumber!, ringSeconds: 20 };
      },
    }),
  });
});
afterAll(() => server.close());
beforeEach(() => {
  rung = [];
});

const quiet = pino({ level: 'silent' });

async function ownerWithTransfer(number = '07400 123456') {
  const owner = await activeCustomer(server);
  const res = await owner.client.request('PUT', '/api/user/call-handling', { transferNumber: number });
  expect(res.status).toBe(200);
  return owner;
}

describe('the numbers an owner may have calls put through to', () => {
  it.each([
    ['0909 879 0000', PREMIUM],
    ['0871 234 5678', PREMIUM],
    ['070 1234 5678', refusal('a personal number (070…), which can be forwarded anywhere at the caller’s cost')],
    ['+882 1234 5678', INTERNATIONAL],
    ['+870 773 111 111', INTERNATIONAL],
    ['+239 222 1234', INTERNATIONAL],
    ['+1 900 555 0123', INTERNATIONAL],
  ])('refuses %s, saying why, and keeps the number saved before', async (number, message) => {
    const owner = await ownerWithTransfer();
    const res = await owner.client.request('PUT', '/api/user/call-handling', { transferNumber: number });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message, errors: { transferNumber: message } });
    expect((await loadCallHandling(server.database.db, owner.user.id)).transferNumber).toBe('+447400123456');
  });

  it.each([
    ['a UK mobile', '07400 123456', '+447400123456'],
    ['a London landline', '020 7946 0000', '+442079460000'],
    ['a Manchester landline', '0161 496 0000', '+441614960000'],
    ["an entry on the operator's allow-list", '+353 1 234 5678', '+35312345678'],
  ])('takes %s', async (_kind, number, stored) => {
    const owner = await activeCustomer(server);
    const res = await owner.client.request('PUT', '/api/user/call-handling', { transferNumber: number });
    expect(res.status).toBe(200);
    expect(res.body.callHandling.transferNumber).toBe(stored);
  });
});

describe('Test transfer', () => {
  it('rings an active owner’s phone', async () => {
    const owner = await ownerWithTransfer();
    const res = await owner.client.post('/api/user/call-handling/test-transfer');
    expect(res.status).toBe(200);
    expect(rung).toEqual([owner.user.id]);
  });

  it('is refused to an owner whose trial has ended, and rings nothing', async () => {
    const owner = await ownerWithTransfer();
    await server.database.db.update(users).set({ trialExpiresAt: new Date(Date.now() - 60_000) }).where(eq(users.id, owner.user.id));
    const res = await owner.client.post('/api/user/call-handling/test-transfer');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Putting calls through needs an active account. Please contact support to continue.');
    expect(rung).toEqual([]);
  });

  it('is refused once the owner’s calls placed today reach the daily cap, and rings nothing', async () => {
    const owner = await ownerWithTransfer();
    const db = server.database.db;
    await db.insert(outboundCalls).values({ userId: owner.user.id, startedAt: new Date(), seconds: 9 * 60 + 59 });
    expect((await owner.client.post('/api/user/call-handling/test-transfer')).status).toBe(200);
    await db.insert(outboundCalls).values({ userId: owner.user.id, startedAt: new Date(), seconds: 1 });
    const res = await owner.client.post('/api/user/call-handling/test-transfer');
    expect(res.status).toBe(429);
    expect(res.body.message).toBe("Today's 10 minutes of calls to your phone are used up: calls go to your messages until midnight. Ask your operator if you need more.");
    expect(rung).toEqual([owner.user.id]);
  });
});

describe('at put-through time', () => {
  it('a caller is not put through once the cap is reached or the trial has ended; yesterday’s calls do not count', async () => {
    const owner = await ownerWithTransfer();
    const db = server.database.db;
    const path = createCallPath(db, quiet, server.services.config.outbound);
    const now = new Date();
    const plan = () => path.handlingPlan(owner.user.id, 'voicemail', '+447700900111', now);
    expect((await plan()).transferNumber).toBe('+447400123456');

    await db.insert(outboundCalls).values({ userId: owner.user.id, startedAt: new Date(now.getTime() - 2 * 24 * 3600_000), seconds: 3600 });
    expect((await plan()).transferNumber).toBe('+447400123456');
    expect(await path.outboundRefusal(owner.user.id, '+447400123456', now)).toBeNull();

    await path.recordOutboundCall({ userId: owner.user.id, startedAt: now, seconds: 600 });
    expect((await plan()).transferNumber).toBeNull();
    expect((await path.outboundRefusal(owner.user.id, '+447400123456', now))?.kind).toBe('daily-cap');
    // Another owner's minutes are their own.
    const other = await ownerWithTransfer();
    expect(await path.outboundRefusal(other.user.id, '+447400123456', now)).toBeNull();

    await db.update(users).set({ trialExpiresAt: new Date(now.getTime() - 1000) }).where(eq(users.id, other.user.id));
    expect((await path.outboundRefusal(other.user.id, '+447400123456', now))?.kind).toBe('inactive');
  });

  it('a call in progress counts as the longest it may last until it ends, so a put-through or check starting meanwhile sees it (issue 39)', async () => {
    const owner = await ownerWithTransfer();
    const path = createCallPath(server.database.db, quiet, server.services.config.outbound);
    const now = new Date();
    const number = '+447400123456';
    // 10 minutes a day: the first put-through may last all of them once answered.
    expect(await path.outboundPermit(owner.user.id, number, now)).toEqual({ refusal: null, answeredSeconds: 600 });
    // It is placed (20 s of ringing, then its 600 s): counted at once, before it ends.
    const first = await path.recordOutboundCall({ userId: owner.user.id, startedAt: now, seconds: 20 + 600 });
    expect((await path.outboundPermit(owner.user.id, number, now)).refusal?.kind).toBe('daily-cap');
    expect((await path.outboundRefusal(owner.user.id, number, now))?.kind).toBe('daily-cap');
    // It ended after 2 minutes: what it took replaces the bound, and the rest of the day is free again.
    await path.settleOutboundCall(first, 120);
    expect(await path.outboundPermit(owner.user.id, number, now)).toEqual({ refusal: null, answeredSeconds: 480 });
    const rows = await server.database.db.select().from(outboundCalls).where(eq(outboundCalls.userId, owner.user.id));
    expect(rows.map((r) => r.seconds)).toEqual([120]);
  });

  it('a number saved before the dialling rules is not dialled', async () => {
    const owner = await ownerWithTransfer();
    const path = createCallPath(server.database.db, quiet, server.services.config.outbound);
    expect(await path.outboundRefusal(owner.user.id, '+449098790000', new Date())).toEqual({ kind: 'not-dialable', message: PREMIUM });
  });
});
