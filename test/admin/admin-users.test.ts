import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const auditActions = async () =>
  (server.database.sqlite.prepare('select action, target_user_id as target from audit_log order by id').all() as { action: string; target: number }[]);

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
    const db = server.database.sqlite;
    db.prepare("insert into phone_numbers (phone_number, provider, provider_sid, user_id) values ('+447700900555', 'static', 'static-555', ?)").run(user.id);
    const call = db.prepare("insert into calls (user_id, from_number, to_number, status) values (?, '+447700900111', '+447700900555', 'voicemail')").run(user.id);
    db.prepare("insert into unanswered_questions (user_id, call_id, question) values (?, ?, 'Do you work Sundays?')").run(user.id, call.lastInsertRowid);
    const res = await admin.delete(`/api/admin/users/${user.id}`);
    expect(res.status).toBe(200);
    expect((await client.get('/api/auth/me')).status).toBe(401);
    const count = (sql: string) => (db.prepare(sql).get(user.id) as { n: number }).n;
    expect(count('select count(*) n from users where id = ?')).toBe(0);
    expect(count('select count(*) n from sessions where user_id = ?')).toBe(0);
    expect(count('select count(*) n from calls where user_id = ?')).toBe(0);
    expect(count('select count(*) n from unanswered_questions where user_id = ?')).toBe(0);
    expect(db.prepare("select user_id from phone_numbers where phone_number = '+447700900555'").get()).toEqual({ user_id: null });
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
