import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, calls, phoneNumbers, sessions, unansweredQuestions, users } from '../helpers/tables.js';
import { ApiClient } from '../helpers/client.js';
import { activeCustomer, ADMIN, signInAdmin, signupBody } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
});
afterAll(() => server.close());

const auditActions = async () => server.database.db.select({ action: auditLog.action, target: auditLog.targetUserId }).from(auditLog).orderBy(auditLog.id);

async function pendingSignup(overrides: Record<string, string> = {}) {
  const body = signupBody(overrides);
  const res = await new ApiClient(server.url).post('/api/auth/signup', body);
  return { id: res.body.user.id as number, body };
}

describe('approvals', () => {
  it('lists pending sign-ups with every sign-up field, oldest first', async () => {
    const a = await pendingSignup({ businessName: 'First Salon', industry: 'beauty', addressLine2: 'Unit 4' });
    const b = await pendingSignup({ businessName: 'Second Sparks', industry: 'electrical' });
    const res = await admin.get('/api/admin/approvals');
    expect(res.status).toBe(200);
    const ids = res.body.users.map((u: any) => u.id);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
    const first = res.body.users.find((u: any) => u.id === a.id);
    expect(first).toMatchObject({
      businessName: 'First Salon',
      industry: 'beauty',
      weeklyCustomerCalls: '10-25',
      businessEmail: a.body.businessEmail,
      addressLine1: '1 High Street',
      addressLine2: 'Unit 4',
      city: 'Leeds',
      postcode: 'LS1 1AA',
      country: 'United Kingdom',
      accountStatus: 'pending_approval',
    });
  });

  it('approves: active, a 7-day trial from now, an approval e-mail, an audit entry; only once', async () => {
    const { id } = await pendingSignup();
    const before = Date.now();
    const res = await admin.post(`/api/admin/approvals/${id}/approve`);
    expect(res.status).toBe(200);
    expect(res.body.user.accountStatus).toBe('active');
    const trial = new Date(res.body.user.trialExpiresAt).getTime();
    expect(trial).toBeGreaterThanOrEqual(before + 7 * 864e5 - 1000);
    expect(trial).toBeLessThanOrEqual(Date.now() + 7 * 864e5 + 1000);
    expect(await auditActions()).toContainEqual({ action: 'user.approve', target: id });
    const again = await admin.post(`/api/admin/approvals/${id}/approve`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This sign-up request has already been handled.');
    expect((await admin.get('/api/admin/approvals')).body.users.some((u: any) => u.id === id)).toBe(false);
  });

  it('rejects: status rejected, audit entry', async () => {
    const { id } = await pendingSignup();
    const res = await admin.post(`/api/admin/approvals/${id}/reject`);
    expect(res.status).toBe(200);
    expect(res.body.user.accountStatus).toBe('rejected');
    expect(await auditActions()).toContainEqual({ action: 'user.reject', target: id });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await admin.post('/api/admin/approvals/999999/approve')).status).toBe(404);
    expect((await admin.post('/api/admin/approvals/abc/approve')).status).toBe(400);
  });
});

describe('user management', () => {
  it('lists all users, admins included', async () => {
    const res = await admin.get('/api/admin/users');
    expect(res.status).toBe(200);
    expect(res.body.users.some((u: any) => u.role === 'admin' && u.email === ADMIN.email)).toBe(true);
  });

  it('sets a status among active, suspended and expired, and refuses others', async () => {
    const { user } = await activeCustomer(server);
    for (const s of ['suspended', 'expired', 'active']) {
      const res = await admin.patch(`/api/admin/users/${user.id}`, { accountStatus: s });
      expect(res.status).toBe(200);
      expect(res.body.user.accountStatus).toBe(s);
    }
    const bad = await admin.patch(`/api/admin/users/${user.id}`, { accountStatus: 'rejected' });
    expect(bad.status).toBe(400);
    const empty = await admin.patch(`/api/admin/users/${user.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/accountStatus/);
    expect((await auditActions()).filter((a) => a.action === 'user.status' && a.target === user.id)).toHaveLength(3);
  });

  it('sets trialExpiresAt from an ISO date and reactivates an expired trial moved into the future', async () => {
    const { user } = await activeCustomer(server);
    await admin.patch(`/api/admin/users/${user.id}`, { accountStatus: 'expired' });
    const until = new Date(Date.now() + 7 * 864e5).toISOString();
    const res = await admin.patch(`/api/admin/users/${user.id}`, { trialExpiresAt: until });
    expect(res.status).toBe(200);
    expect(res.body.user.trialExpiresAt).toBe(until);
    expect(res.body.user.accountStatus).toBe('active');
    const bad = await admin.patch(`/api/admin/users/${user.id}`, { trialExpiresAt: 'next tuesday' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/ISO date/);
  });

  it('deletes a customer with their sessions, calls and questions, and frees their numbers', async () => {
    const { user, client } = await activeCustomer(server);
    const { db } = server.database;
    await db.insert(phoneNumbers).values({ phoneNumber: '+447700900555', provider: 'static', providerSid: 'static-555', userId: user.id });
    const [call] = await db.insert(calls).values({ userId: user.id, fromNumber: '+447700900111', toNumber: '+447700900555', status: 'voicemail' }).returning();
    await db.insert(unansweredQuestions).values({ userId: user.id, callId: call!.id, question: 'Do you work Sundays?' });
    const res = await admin.delete(`/api/admin/users/${user.id}`);
    expect(res.status).toBe(200);
    expect((await client.get('/api/auth/me')).status).toBe(401);
    expect(await db.$count(users, eq(users.id, user.id))).toBe(0);
    expect(await db.$count(sessions, eq(sessions.userId, user.id))).toBe(0);
    expect(await db.$count(calls, eq(calls.userId, user.id))).toBe(0);
    expect(await db.$count(unansweredQuestions, eq(unansweredQuestions.userId, user.id))).toBe(0);
    expect(await db.select({ userId: phoneNumbers.userId }).from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, '+447700900555'))).toEqual([{ userId: null }]);
    expect(await auditActions()).toContainEqual({ action: 'user.delete', target: user.id });
  });

  it('never changes or deletes an admin account', async () => {
    const adminId = (await admin.get('/api/auth/me')).body.user.id;
    const patch = await admin.patch(`/api/admin/users/${adminId}`, { accountStatus: 'suspended' });
    expect(patch.status).toBe(403);
    const del = await admin.delete(`/api/admin/users/${adminId}`);
    expect(del.status).toBe(403);
    expect((await admin.get('/api/auth/me')).body.user.accountStatus).toBe('active');
  });
});

describe('admin routes are the admins’ only', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/admin/users'],
    ['PATCH', '/api/admin/users/1', { accountStatus: 'active' }],
    ['DELETE', '/api/admin/users/1'],
    ['GET', '/api/admin/approvals'],
    ['POST', '/api/admin/approvals/1/approve'],
    ['POST', '/api/admin/approvals/1/reject'],
  ];

  it('answers 403 to a customer and 401 to a visitor, changing nothing', async () => {
    const { client } = await activeCustomer(server);
    const before = (await admin.get('/api/admin/users')).text;
    for (const [method, path, body] of routes) {
      expect((await client.request(method, path, body)).status, `${method} ${path}`).toBe(403);
      expect((await new ApiClient(server.url).request(method, path, body)).status, `${method} ${path}`).toBe(401);
    }
    expect((await admin.get('/api/admin/users')).text).toBe(before);
  });
});
