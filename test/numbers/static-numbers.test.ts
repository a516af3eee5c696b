import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, callerTexts, calls, notifications, outboundCalls, phoneNumbers } from '../helpers/tables.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const DIDS = ['+447700900001', '+447700900002', '+447700900003'];
let server: TestServer;

async function start(env: Record<string, string> = {}) {
  server = await startTestServer({
    env: { NUMBER_PROVIDER: 'static', STATIC_NUMBERS: DIDS.join(','), NUMBER_MONTHLY_COST: '1.25', SUPPORT_NAME: 'Sam Support', SUPPORT_EMAIL: 'help@example.co.uk', ...env },
  });
}
afterEach(() => server?.close());

describe('static numbers: owner', () => {
  beforeEach(() => start());

  it('assigns the first free DID to the owner, lists it and records it for the PBX', async () => {
    const owner = await activeCustomer(server, { businessName: 'Acme Plumbing' });
    expect((await owner.client.get('/api/phone-numbers')).body).toEqual({ numbers: [] });

    const res = await owner.client.post('/api/phone-numbers/purchase');
    expect(res.status).toBe(201);
    expect(res.body.number).toEqual({ phoneNumber: '+447700900001', friendlyName: 'Acme Plumbing' });
    expect(res.body.message).toContain('+447700900001');

    expect((await owner.client.get('/api/phone-numbers')).body).toEqual({
      numbers: [{ phoneNumber: '+447700900001', friendlyName: 'Acme Plumbing' }],
    });
    const row = (await server.database.db.select().from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, '+447700900001')).limit(1))[0]!;
    expect(row).toMatchObject({ userId: owner.user.id, provider: 'static', providerSid: 'DID447700900001', monthlyCostPence: 125, releasedAt: null });
    expect(row.assignedAt).toBeInstanceOf(Date);
  });

  it('gives one number for a double click', async () => {
    const owner = await activeCustomer(server);
    const [a, b] = await Promise.all([owner.client.post('/api/phone-numbers/purchase'), owner.client.post('/api/phone-numbers/purchase')]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.number.phoneNumber).toBe(b.body.number.phoneNumber);
    const rows = await server.database.db.select().from(phoneNumbers).where(eq(phoneNumbers.userId, owner.user.id));
    expect(rows).toHaveLength(1);
  });

  it('gives different owners buying at the same moment different DIDs', async () => {
    const owners = await Promise.all([activeCustomer(server), activeCustomer(server), activeCustomer(server)]);
    const results = await Promise.all(owners.map((o) => o.client.post('/api/phone-numbers/purchase')));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(new Set(results.map((r) => r.body.number.phoneNumber))).toEqual(new Set(DIDS));
  });

  it('says in plain words when every DID is taken', async () => {
    const owners = [];
    for (let i = 0; i < 4; i++) owners.push(await activeCustomer(server));
    for (const o of owners.slice(0, 3)) expect((await o.client.post('/api/phone-numbers/purchase')).status).toBe(201);
    const res = await owners[3]!.client.post('/api/phone-numbers/purchase');
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'All of our UK numbers are in use at the moment, so we cannot give you one yet. Please contact Sam Support (help@example.co.uk) and we will add one for you.',
    );
    expect((await owners[3]!.client.get('/api/phone-numbers')).body.numbers).toEqual([]);
  });

  it('refuses an owner whose trial has ended, and an administrator', async () => {
    const owner = await activeCustomer(server);
    server.clock.offsetMs = 8 * 24 * 3600 * 1000;
    const res = await owner.client.post('/api/phone-numbers/purchase');
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/free trial has ended/);
    const admin = await signInAdmin(server);
    const byAdmin = await admin.post('/api/phone-numbers/purchase');
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.message).toMatch(/business owner/);
    expect(await server.database.db.select().from(phoneNumbers)).toHaveLength(0);
  });
});

describe('static numbers: no DIDs configured', () => {
  it('tells the owner none is available', async () => {
    await start({ STATIC_NUMBERS: '' });
    const owner = await activeCustomer(server);
    const res = await owner.client.post('/api/phone-numbers/purchase');
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/All of our UK numbers are in use/);
  });
});

describe('static numbers: admin', () => {
  beforeEach(() => start());

  it('lists every DID with its owner facts (the status-badge inputs) and the stats', async () => {
    const owner = await activeCustomer(server, { businessName: 'Acme Plumbing' });
    await owner.client.post('/api/phone-numbers/purchase');
    const admin = await signInAdmin(server);
    const res = await admin.get('/api/admin/static-numbers');
    expect(res.status).toBe(200);
    expect(res.body.numbers).toHaveLength(3);
    const assigned = res.body.numbers.find((n: any) => n.phoneNumber === '+447700900001');
    expect(assigned).toMatchObject({
      staticSid: 'DID447700900001',
      monthlyCost: 1.25,
      assignedUser: { businessName: 'Acme Plumbing', businessEmail: owner.email, email: owner.email, accountStatus: 'active' },
    });
    expect(new Date(assigned.dateCreated).toISOString()).toBe(assigned.dateCreated);
    expect(Date.parse(assigned.assignedUser.trialExpiresAt)).toBeGreaterThan(Date.now());
    expect(res.body.numbers.filter((n: any) => n.assignedUser === null)).toHaveLength(2);
    expect(res.body.stats).toEqual({
      activeNumbers: 3,
      totalMonthlyCost: 3.75,
      monthlyUnitCost: 1.25,
      potentialSavings: 2.5,
      expiredNumbers: 0,
      unassignedNumbers: 2,
    });
    expect((await admin.get('/api/admin/twilio-numbers')).status).toBe(404);
    expect((await admin.get('/api/admin/twilio-usage')).status).toBe(404);
  });

  it('counts a number whose owner has expired as unused', async () => {
    const owner = await activeCustomer(server);
    await owner.client.post('/api/phone-numbers/purchase');
    const suspended = await activeCustomer(server);
    await suspended.client.post('/api/phone-numbers/purchase');
    const admin = await signInAdmin(server);
    expect((await admin.patch(`/api/admin/users/${owner.user.id}`, { accountStatus: 'expired' })).status).toBe(200);
    expect((await admin.patch(`/api/admin/users/${suspended.user.id}`, { accountStatus: 'suspended' })).status).toBe(200);
    const { body } = await admin.get('/api/admin/static-numbers');
    expect(body.numbers.find((n: any) => n.assignedUser?.email === owner.email).assignedUser.accountStatus).toBe('expired');
    expect(body.stats).toMatchObject({ activeNumbers: 3, expiredNumbers: 1, unassignedNumbers: 1, potentialSavings: 2.5 });
  });

  it('releases a number for good: unassigned, audited, never handed out again', async () => {
    const owner = await activeCustomer(server, { businessName: 'Acme Plumbing' });
    await owner.client.post('/api/phone-numbers/purchase');
    const admin = await signInAdmin(server);

    const mismatch = await admin.post('/api/admin/static-numbers/DID447700900001/release', { phoneNumber: '+447700900002' });
    expect(mismatch.status).toBe(400);
    expect((await owner.client.get('/api/phone-numbers')).body.numbers).toHaveLength(1);

    const res = await admin.post('/api/admin/static-numbers/DID447700900001/release', { phoneNumber: '+447700900001' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('+447700900001 has been released and disconnected from Acme Plumbing, saving £1.25/month.');

    expect((await owner.client.get('/api/phone-numbers')).body.numbers).toEqual([]);
    const row = (await server.database.db.select().from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, '+447700900001')).limit(1))[0]!;
    expect(row.userId).toBeNull();
    expect(row.releasedAt).toBeInstanceOf(Date);
    const trail = await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'number.release'));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ targetUserId: owner.user.id, details: { phoneNumber: '+447700900001', providerSid: 'DID447700900001' } });

    const list = await admin.get('/api/admin/static-numbers');
    expect(list.body.numbers.map((n: any) => n.phoneNumber)).toEqual(['+447700900002', '+447700900003']);
    expect((await admin.post('/api/admin/static-numbers/DID447700900001/release', { phoneNumber: '+447700900001' })).status).toBe(409);

    // The same owner, and anyone else, gets a different DID from now on.
    const again = await owner.client.post('/api/phone-numbers/purchase');
    expect(again.body.number.phoneNumber).toBe('+447700900002');
    expect((await admin.post('/api/admin/static-numbers/DID447700900999/release', { phoneNumber: '+447700900999' })).status).toBe(404);
  });

  it('releases a DID nobody holds, and drops it from the stats', async () => {
    const admin = await signInAdmin(server);
    const res = await admin.post('/api/admin/static-numbers/DID447700900003/release', { phoneNumber: '+447700900003' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('+447700900003 has been released, saving £1.25/month.');
    const { body } = await admin.get('/api/admin/static-numbers');
    expect(body.stats).toMatchObject({ activeNumbers: 2, unassignedNumbers: 2, totalMonthlyCost: 2.5 });
    expect((await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'number.release')).limit(1))[0]).toMatchObject({ targetUserId: null });
  });

  it('reports usage from the appliance’s own calls and SMS, cached for a minute', async () => {
    const owner = await activeCustomer(server);
    await owner.client.post('/api/phone-numbers/purchase');
    const db = server.database.db;
    const now = new Date();
    const lastYear = new Date(now.getTime() - 400 * 24 * 3600 * 1000);
    const [c1] = await db
      .insert(calls)
      .values([
        { userId: owner.user.id, fromNumber: '+447700900555', toNumber: '+447700900001', status: 'voicemail', recordingFile: 'a.wav', createdAt: now },
        { userId: owner.user.id, fromNumber: '+447700900556', toNumber: '+447700900001', status: 'missed', createdAt: now },
        { userId: owner.user.id, fromNumber: '+447700900557', toNumber: '+447700900001', status: 'voicemail', recordingFile: 'b.wav', createdAt: lastYear },
      ])
      .returning();
    await db.insert(notifications)
      .values([
        { callId: c1!.id, userId: owner.user.id, channel: 'sms', to: '+447700900123', body: 'x', status: 'sent', createdAt: now },
        { callId: c1!.id, userId: owner.user.id, channel: 'sms', to: '+447700900123', body: 'x', status: 'failed', createdAt: now },
      ]);
    // Calls placed to the owner's phone: two this month (61 s counts as 2 minutes), one last year.
    await db.insert(outboundCalls)
      .values([
        { userId: owner.user.id, startedAt: now, seconds: 61 },
        { userId: owner.user.id, startedAt: now, seconds: 20 },
        { userId: owner.user.id, startedAt: lastYear, seconds: 600 },
      ]);
    // Texts to callers this month are counted by the box with their SMS parts; a caller's own text is not.
    await db.insert(callerTexts).values([
      { userId: owner.user.id, callerNumber: '+447700900301', kind: 'text-back', status: 'sent', body: 'Sorry we missed you', segments: 1, key: 'usage-1' },
      { userId: owner.user.id, callerNumber: '+447700900301', kind: 'owner', status: 'delivered', body: 'x'.repeat(200), segments: 2, key: 'usage-2' },
      { userId: owner.user.id, callerNumber: '+447700900301', kind: 'caller', status: 'received', body: 'Thanks', segments: 1, key: 'usage-3' },
    ]);
    const admin = await signInAdmin(server);
    const res = await admin.get('/api/admin/static-usage');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      balance: { amount: 0, currency: 'GBP', available: false },
      totalCost: 3.75,
      period: { startDate: expect.stringMatching(/^\d{4}-\d{2}-01$/) },
      phoneNumbers: { count: 3, monthlyCost: 3.75 },
      calls: { inbound: { count: 2, price: 0 }, outbound: { count: 2, price: 0 } },
      sms: { inbound: { count: 0, price: 0 }, outbound: { count: 1, price: 0 } },
      recordings: { count: 1, price: 0 },
      ownerCalls: { attempts: 2, minutes: 2, dailyMinutesCap: 120, owners: [{ userId: owner.user.id, name: expect.any(String), attempts: 2, minutes: 2 }] },
      callerTexts: { texts: 2, segments: 3, dailyPerOwnerCap: 50, dailyBoxCap: 1000, owners: [{ userId: owner.user.id, name: expect.any(String), texts: 2, segments: 3 }] },
      textsSaved: 0,
    });

    await db.insert(calls).values({ userId: owner.user.id, fromNumber: '+447700900558', toNumber: '+447700900001', createdAt: now });
    expect((await admin.get('/api/admin/static-usage')).body.calls.inbound.count).toBe(2);
    server.clock.offsetMs = 61_000;
    expect((await admin.get('/api/admin/static-usage')).body.calls.inbound.count).toBe(3);
  });
});

describe('numbers: access', () => {
  beforeEach(() => start());

  it('refuses customers on the admin routes (403) and the signed-out everywhere (401)', async () => {
    const owner = await activeCustomer(server);
    for (const [method, path] of [
      ['GET', '/api/admin/static-numbers'],
      ['GET', '/api/admin/static-usage'],
      ['POST', '/api/admin/static-numbers/DID447700900001/release'],
    ] as const) {
      const res = await owner.client.request(method, path, method === 'POST' ? { phoneNumber: '+447700900001' } : undefined);
      expect(res.status, path).toBe(403);
    }
    const anonymous = new (owner.client.constructor as any)(server.url);
    for (const [method, path] of [
      ['GET', '/api/phone-numbers'],
      ['POST', '/api/phone-numbers/purchase'],
      ['GET', '/api/admin/static-numbers'],
      ['GET', '/api/admin/static-usage'],
    ] as const) {
      expect((await anonymous.request(method, path)).status, path).toBe(401);
    }
    expect(await server.database.db.select().from(phoneNumbers)).toHaveLength(0);
  });

  it('shows an owner only their own numbers', async () => {
    const a = await activeCustomer(server);
    const b = await activeCustomer(server);
    await a.client.post('/api/phone-numbers/purchase');
    await b.client.post('/api/phone-numbers/purchase');
    const mine = (await a.client.get('/api/phone-numbers')).body.numbers;
    expect(mine).toEqual([{ phoneNumber: '+447700900001', friendlyName: expect.any(String) }]);
  });
});

describe('static numbers: balance from the SMS gateway account', () => {
  it('reads the Twilio balance when Twilio carries the summaries', async () => {
    const { startTwilioDouble } = await import('../doubles/twilio/server.js');
    const double = await startTwilioDouble({ balance: '8.40' });
    try {
      await start({ TWILIO_ACCOUNT_SID: double.accountSid, TWILIO_AUTH_TOKEN: double.authToken, TWILIO_API_BASE: double.url });
      const admin = await signInAdmin(server);
      const res = await admin.get('/api/admin/static-usage');
      expect(res.body.balance).toEqual({ amount: 8.4, currency: 'GBP', available: true });
      expect(double.requestsTo('Balance')).toHaveLength(1);
      expect(double.requestsTo('IncomingPhoneNumbers')).toEqual([]);
    } finally {
      await double.close();
    }
  });
});
