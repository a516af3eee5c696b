import { eq, sql } from 'drizzle-orm';
import { dialectOf } from '../../core/db/client.js';
import { execute } from '../../core/db/raw.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, phoneNumbers } from '../helpers/tables.js';
import { createTwilioClient } from '../../core/twilio/client.js';
import { startTwilioDouble, type TwilioDouble } from '../doubles/twilio/server.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Makes every insert into phone_numbers fail, as a full disk would, on either engine. */
async function refuseNumberRows(server: TestServer): Promise<void> {
  const { db } = server.database;
  if (dialectOf(db) === 'sqlite') {
    await execute(db, sql.raw(`create trigger refuse_numbers before insert on phone_numbers begin select raise(abort, 'disk full'); end`));
  } else {
    await execute(db, sql.raw(`create function refuse_numbers() returns trigger language plpgsql as $$ begin raise exception 'disk full'; end $$`));
    await execute(db, sql.raw(`create trigger refuse_numbers before insert on phone_numbers for each row execute function refuse_numbers()`));
  }
}

const BUNDLE = 'BU' + 'b'.repeat(32);
const ADDRESS = 'AD' + 'a'.repeat(32);
const TRUNK = 'TK' + 'c'.repeat(32);
let server: TestServer;
let double: TwilioDouble;

beforeEach(async () => {
  double = await startTwilioDouble({ availableNumbers: ['+447700900101', '+447700900102', '+447700900103'], balance: '42.50' });
  server = await startTestServer({
    env: {
      NUMBER_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: double.accountSid,
      TWILIO_AUTH_TOKEN: double.authToken,
      TWILIO_API_BASE: double.url,
      TWILIO_BUNDLE_SID: BUNDLE,
      TWILIO_ADDRESS_SID: ADDRESS,
      TWILIO_TRUNK_SID: TRUNK,
      NUMBER_MONTHLY_COST: '1.15',
    },
  });
});
afterEach(async () => {
  await server.close();
  await double.close();
});

const rows = async () => await server.database.db.select().from(phoneNumbers);

describe('twilio numbers: purchase through the real SDK', () => {
  it('finds a GB mobile number, buys it with the bundle and address, and routes it to the SIP trunk', async () => {
    const owner = await activeCustomer(server, { businessName: 'Acme Plumbing' });
    const res = await owner.client.post('/api/phone-numbers/purchase');
    expect(res.status).toBe(201);
    expect(res.body.number).toEqual({ phoneNumber: '+447700900101', friendlyName: 'Acme Plumbing' });

    const [search] = double.requestsTo('AvailablePhoneNumbers');
    expect(search).toMatchObject({ method: 'GET', path: `/2010-04-01/Accounts/${double.accountSid}/AvailablePhoneNumbers/GB/Mobile.json`, authorized: true });
    expect(search!.query.VoiceEnabled).toBe('true');
    const [buy] = double.requestsTo('IncomingPhoneNumbers');
    expect(buy).toMatchObject({
      method: 'POST',
      path: `/2010-04-01/Accounts/${double.accountSid}/IncomingPhoneNumbers.json`,
      form: { PhoneNumber: '+447700900101', BundleSid: BUNDLE, AddressSid: ADDRESS, TrunkSid: TRUNK, FriendlyName: 'Acme Plumbing' },
    });
    expect(double.numbers).toHaveLength(1);
    expect(await rows()).toEqual([
      expect.objectContaining({ phoneNumber: '+447700900101', provider: 'twilio', providerSid: double.numbers[0]!.sid, userId: owner.user.id, monthlyCostPence: 115 }),
    ]);
    expect((await owner.client.get('/api/phone-numbers')).body.numbers).toEqual([{ phoneNumber: '+447700900101', friendlyName: 'Acme Plumbing' }]);
  });

  it('buys once for a double click', async () => {
    const owner = await activeCustomer(server);
    const [a, b] = await Promise.all([owner.client.post('/api/phone-numbers/purchase'), owner.client.post('/api/phone-numbers/purchase')]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.number.phoneNumber).toBe(b.body.number.phoneNumber);
    expect(double.requestsTo('IncomingPhoneNumbers').filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(double.numbers).toHaveLength(1);
  });

  it('leaves nothing assigned when Twilio refuses the purchase, and succeeds on the next try', async () => {
    const owner = await activeCustomer(server);
    double.failNext('IncomingPhoneNumbers', { status: 500 });
    const res = await owner.client.post('/api/phone-numbers/purchase');
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/Nothing was assigned; please try again/);
    expect(await rows()).toEqual([]);
    expect(double.numbers).toEqual([]);
    expect((await owner.client.get('/api/phone-numbers')).body.numbers).toEqual([]);

    expect((await owner.client.post('/api/phone-numbers/purchase')).status).toBe(201);
    expect(await rows()).toHaveLength(1);
  });

  it('gives the number back to Twilio when it cannot be recorded', async () => {
    const owner = await activeCustomer(server);
    await refuseNumberRows(server);
    const res = await owner.client.post('/api/phone-numbers/purchase');
    expect(res.status).toBe(500);
    const calls = double.requestsTo('IncomingPhoneNumbers').map((r) => r.method);
    expect(calls).toEqual(['POST', 'DELETE']);
    expect(double.numbers).toEqual([]);
    expect(await rows()).toEqual([]);
  });

  it('leaves nothing assigned when the search fails on the network', async () => {
    const owner = await activeCustomer(server);
    double.failNext('AvailablePhoneNumbers', { status: 0, drop: true });
    expect((await owner.client.post('/api/phone-numbers/purchase')).status).toBe(502);
    expect(await rows()).toEqual([]);
    expect(double.requestsTo('IncomingPhoneNumbers')).toEqual([]);
  });

  it('tries the next offer when the first was bought by someone else (21422)', async () => {
    const owner = await activeCustomer(server);
    double.failNext('IncomingPhoneNumbers', { status: 400, code: 21422, message: 'PhoneNumber Requested is not available' });
    const res = await owner.client.post('/api/phone-numbers/purchase');
    expect(res.status).toBe(201);
    expect(res.body.number.phoneNumber).toBe('+447700900102');
  });

  it('says so when Twilio has no UK mobile number on offer', async () => {
    double.setAvailableNumbers([]);
    const owner = await activeCustomer(server);
    const res = await owner.client.post('/api/phone-numbers/purchase');
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/No UK mobile numbers are available/);
  });
});

describe('twilio numbers: admin', () => {
  it('lists the account’s numbers with twilioSid, owners and stats, including ones bought outside the appliance', async () => {
    const owner = await activeCustomer(server, { businessName: 'Acme Plumbing' });
    await owner.client.post('/api/phone-numbers/purchase');
    // Bought straight on the account (e.g. in Twilio's console): shows up unassigned.
    const direct = await createTwilioClient({ accountSid: double.accountSid, authToken: double.authToken, apiBase: double.url }).incomingPhoneNumbers.create({
      phoneNumber: '+447700900103',
      bundleSid: BUNDLE,
      addressSid: ADDRESS,
    });
    const admin = await signInAdmin(server);
    const res = await admin.get('/api/admin/twilio-numbers');
    expect(res.status).toBe(200);
    expect(res.body.numbers).toEqual([
      {
        twilioSid: double.numbers[0]!.sid,
        phoneNumber: '+447700900101',
        monthlyCost: 1.15,
        dateCreated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        assignedUser: { businessName: 'Acme Plumbing', businessEmail: owner.email, email: owner.email, accountStatus: 'active', trialExpiresAt: expect.any(String) },
      },
      { twilioSid: direct.sid, phoneNumber: '+447700900103', monthlyCost: 1.15, dateCreated: expect.any(String), assignedUser: null },
    ]);
    expect(res.body.stats).toEqual({ activeNumbers: 2, totalMonthlyCost: 2.3, monthlyUnitCost: 1.15, potentialSavings: 1.15, expiredNumbers: 0, unassignedNumbers: 1 });
    expect((await admin.get('/api/admin/static-numbers')).status).toBe(404);
  });

  it('releases at Twilio (DELETE), then unassigns and audits; a Twilio failure changes nothing', async () => {
    const owner = await activeCustomer(server, { businessName: 'Acme Plumbing' });
    await owner.client.post('/api/phone-numbers/purchase');
    const sid = double.numbers[0]!.sid;
    const admin = await signInAdmin(server);

    double.failNext('IncomingPhoneNumbers', { status: 503 });
    const failed = await admin.post(`/api/admin/twilio-numbers/${sid}/release`, { phoneNumber: '+447700900101' });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toMatch(/could not release \+447700900101/);
    expect((await rows())[0]).toMatchObject({ userId: owner.user.id, releasedAt: null });
    expect(double.numbers).toHaveLength(1);

    const res = await admin.post(`/api/admin/twilio-numbers/${sid}/release`, { phoneNumber: '+447700900101' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('+447700900101 has been released and disconnected from Acme Plumbing, saving £1.15/month.');
    const deletes = double.requestsTo('IncomingPhoneNumbers').filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => [r.path, r.status])).toEqual([
      [`/2010-04-01/Accounts/${double.accountSid}/IncomingPhoneNumbers/${sid}.json`, 503],
      [`/2010-04-01/Accounts/${double.accountSid}/IncomingPhoneNumbers/${sid}.json`, 204],
    ]);
    expect(double.numbers).toEqual([]);
    expect((await rows())[0]).toMatchObject({ userId: null, releasedAt: expect.any(Date) });
    expect(await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'number.release'))).toHaveLength(1);
    expect((await owner.client.get('/api/phone-numbers')).body.numbers).toEqual([]);
    expect((await admin.get('/api/admin/twilio-numbers')).body.numbers).toEqual([]);

    // Even if Twilio offers the same number again, the appliance never takes it back.
    double.setAvailableNumbers(['+447700900101', '+447700900102']);
    const again = await owner.client.post('/api/phone-numbers/purchase');
    expect(again.body.number.phoneNumber).toBe('+447700900102');
  });

  it('reads this month’s usage records and the balance in GBP, cached for a minute', async () => {
    double.setUsage('calls-inbound', { count: 12, usage: 30, price: 0.42 });
    double.setUsage('calls-outbound', { count: 1, price: 0.1 });
    double.setUsage('sms-outbound', { count: 9, price: 0.36 });
    double.setUsage('sms-inbound', { count: 2, price: 0 });
    double.setUsage('recordings', { count: 11, price: 0.05 });
    double.setUsage('phonenumbers', { count: 2, price: 2.3 });
    double.setUsage('totalprice', { count: 0, price: 3.23 });
    const admin = await signInAdmin(server);
    const res = await admin.get('/api/admin/twilio-usage');
    expect(res.status).toBe(200);
    const now = new Date();
    expect(res.body).toEqual({
      balance: { amount: 42.5, currency: 'GBP', available: true },
      totalCost: 3.23,
      period: { startDate: `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01` },
      phoneNumbers: { count: 2, monthlyCost: 2.3 },
      calls: { inbound: { count: 12, price: 0.42 }, outbound: { count: 1, price: 0.1 } },
      sms: { inbound: { count: 2, price: 0 }, outbound: { count: 9, price: 0.36 } },
      recordings: { count: 11, price: 0.05 },
      ownerCalls: { attempts: 0, minutes: 0, dailyMinutesCap: 120, owners: [] },
      callerTexts: { texts: 0, segments: 0, dailyPerOwnerCap: 50, dailyBoxCap: 1000, owners: [] },
      textsSaved: 0,
    });
    const categories = double.requestsTo('Usage').map((r) => r.query.Category).sort();
    expect(categories).toEqual(['calls-inbound', 'calls-outbound', 'phonenumbers', 'recordings', 'sms-inbound', 'sms-outbound', 'totalprice']);
    expect(double.requestsTo('Balance')).toHaveLength(1);

    double.setBalance('5.00');
    expect((await admin.get('/api/admin/twilio-usage')).body.balance.amount).toBe(42.5);
    expect(double.requestsTo('Balance')).toHaveLength(1);
    server.clock.offsetMs = 61_000;
    expect((await admin.get('/api/admin/twilio-usage')).body.balance.amount).toBe(5);
  });

  it('reports a usage failure with the provider’s words and recovers on retry', async () => {
    const admin = await signInAdmin(server);
    double.failNext('Balance', { status: 500 });
    const res = await admin.get('/api/admin/twilio-usage');
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/^Failed to fetch twilio usage statistics/);
    expect((await admin.get('/api/admin/twilio-usage')).status).toBe(200);
  });

  it('explains a listing failure and changes nothing', async () => {
    const admin = await signInAdmin(server);
    double.failNext('IncomingPhoneNumbers', { status: 500 });
    const res = await admin.get('/api/admin/twilio-numbers');
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/^twilio did not answer while listing numbers: .*Twilio error 20500.*Try Refresh/);
    expect(await rows()).toEqual([]);
  });

  it('refuses customers (403)', async () => {
    const owner = await activeCustomer(server);
    expect((await owner.client.get('/api/admin/twilio-numbers')).status).toBe(403);
    expect((await owner.client.get('/api/admin/twilio-usage')).status).toBe(403);
    expect((await owner.client.post(`/api/admin/twilio-numbers/PN${'0'.repeat(32)}/release`, { phoneNumber: '+447700900101' })).status).toBe(403);
    expect(double.requests).toEqual([]);
  });
});
