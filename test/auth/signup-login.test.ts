import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../helpers/tables.js';
import { ApiClient } from '../helpers/client.js';
import { activeCustomer, signInAdmin, signupBody } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const anon = () => new ApiClient(server.url);

describe('POST /api/auth/signup', () => {
  it('creates a pending customer with every sign-up field and normalised postcode and phone, without a session', async () => {
    const body = signupBody({ postcode: 'sw1a1aa', businessEmail: 'Mixed.Case@Example.co.uk' });
    const client = anon();
    const res = await client.post('/api/auth/signup', body);
    expect(res.status).toBe(201);
    const u = res.body.user;
    expect(u).toMatchObject({
      email: 'mixed.case@example.co.uk',
      businessEmail: 'mixed.case@example.co.uk',
      role: 'customer',
      accountStatus: 'pending_approval',
      businessName: 'Acme Plumbing',
      phoneNumber: '+447700900123',
      notificationNumber: null, // the typed phone waits for the code its approval texts (test/destinations/signup-phone.test.ts)
      industry: 'plumbing',
      weeklyCustomerCalls: '10-25',
      addressLine1: '1 High Street',
      addressLine2: null,
      city: 'Leeds',
      postcode: 'SW1A 1AA',
      country: 'United Kingdom',
      trialExpiresAt: null,
      voicePreference: 'female',
      smsEnabled: true,
      whatsappEnabled: false,
      aiMode: 'voicemail',
    });
    expect(client.cookie).toBeNull();
    expect((await client.get('/api/auth/me')).status).toBe(401);
  });

  it.each([
    ['password', 'short1!', 'Password must be at least 8 characters'],
    ['password', 'lowercase1!', 'Password must contain at least one uppercase letter'],
    ['password', 'UPPERCASE1!', 'Password must contain at least one lowercase letter'],
    ['password', 'NoDigits!!', 'Password must contain at least one number'],
    ['password', 'NoSpecial11', 'Password must contain at least one special character (!@#$%^&*)'],
    ['businessEmail', 'not-an-email', 'Please enter a valid email address'],
    ['industry', 'farming', 'Industry must be one of: plumbing, beauty, construction, electrical, hvac, landscaping, cleaning, legal, medical, real-estate, automotive, other'],
    ['weeklyCustomerCalls', '1000', 'Weekly customer calls must be one of: 0-10, 10-25, 25-50, 50-100, 100+'],
    ['postcode', '90210', 'Please enter a valid UK postcode, e.g. SW1A 1AA'],
    ['country', 'France', 'Currently accepting UK businesses only'],
    ['businessName', '   ', 'Business name is required'],
    ['city', '', 'City/Town is required'],
    ['businessPhone', 'call me', 'Please enter a valid phone number, e.g. 07700 900123 or +44 7700 900123'],
  ])('refuses a bad %s (%s) with "%s"', async (field, value, message) => {
    const res = await anon().post('/api/auth/signup', signupBody({ [field]: value }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors[field]).toBe(message);
  });

  it('refuses a missing field and unknown fields with a 400 message', async () => {
    const { city: _city, ...noCity } = signupBody();
    const missing = await anon().post('/api/auth/signup', noCity);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('city is required');
    const extra = await anon().post('/api/auth/signup', { ...signupBody(), role: 'admin' });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toBe('role is not an accepted field');
  });

  it('refuses a duplicate e-mail whatever its case, keeping the first account', async () => {
    const body = signupBody({ businessEmail: 'dupe@example.co.uk' });
    expect((await anon().post('/api/auth/signup', body)).status).toBe(201);
    const again = await anon().post('/api/auth/signup', { ...body, businessEmail: 'DUPE@example.co.uk', businessName: 'Other' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('An account with this email already exists. Please log in instead.');
    const admin = await signInAdmin(server);
    const pending = (await admin.get('/api/admin/approvals')).body.users.filter((u: any) => u.email === 'dupe@example.co.uk');
    expect(pending).toHaveLength(1);
    expect(pending[0].businessName).toBe('Acme Plumbing');
  });

  it('answers parallel sign-ups with one e-mail with one 201 and a 409 for each of the rest', async () => {
    // All pass the "already exists?" read before any inserts: the unique index decides, and its
    // refusal (wrapped by drizzle, the driver's error as its cause) is the same 409.
    const body = signupBody({ businessEmail: 'race@example.co.uk' });
    const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => anon().post('/api/auth/signup', { ...body, businessName: `Race ${i}` })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const r of answers.filter((a) => a.status === 409)) expect(r.body.message).toBe('An account with this email already exists. Please log in instead.');
    const admin = await signInAdmin(server);
    expect((await admin.get('/api/admin/approvals')).body.users.filter((u: any) => u.email === 'race@example.co.uk')).toHaveLength(1);
  });

  it('answers a body that is not JSON with a clear 400 or 415', async () => {
    const broken = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"businessName":',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as any).message).toBe('The request body must be valid JSON.');
    const form = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'businessName=x',
    });
    expect(form.status).toBe(415);
  });
});

describe('POST /api/auth/login', () => {
  it('gives each account status its own outcome', async () => {
    const body = signupBody();
    const client = anon();
    const signup = await client.post('/api/auth/signup', body);
    const creds = { email: body.businessEmail, password: body.password };

    const pending = await client.post('/api/auth/login', creds);
    expect(pending.status).toBe(403);
    expect(pending.body.message).toMatch(/awaiting review.*24 hours/);
    expect(client.cookie).toBeNull();

    const admin = await signInAdmin(server);
    await admin.post(`/api/admin/approvals/${signup.body.user.id}/approve`);
    const ok = await client.post('/api/auth/login', creds);
    expect(ok.status).toBe(200);
    expect(ok.body.user.accountStatus).toBe('active');
    expect((await client.get('/api/auth/me')).body.user.email).toBe(body.businessEmail);

    await admin.patch(`/api/admin/users/${signup.body.user.id}`, { accountStatus: 'suspended' });
    expect((await client.get('/api/auth/me')).status).toBe(401); // suspension ends live sessions
    const suspended = await anon().post('/api/auth/login', creds);
    expect(suspended.status).toBe(403);
    expect(suspended.body.message).toMatch(/suspended/);

    await admin.patch(`/api/admin/users/${signup.body.user.id}`, { accountStatus: 'expired' });
    const expired = await anon().post('/api/auth/login', creds);
    expect(expired.status).toBe(200); // an expired trial may still see its data
    expect(expired.body.user.accountStatus).toBe('expired');
  });

  it('refuses a rejected sign-up with its own message', async () => {
    const body = signupBody();
    const signup = await anon().post('/api/auth/signup', body);
    const admin = await signInAdmin(server);
    await admin.post(`/api/admin/approvals/${signup.body.user.id}/reject`);
    const res = await anon().post('/api/auth/login', { email: body.businessEmail, password: body.password });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/not approved/);
  });

  it('says "Invalid email or password." alike for a wrong password and an unknown e-mail', async () => {
    const { email } = await activeCustomer(server);
    const wrong = await anon().post('/api/auth/login', { email, password: 'Wrong-pass1!' });
    const unknown = await anon().post('/api/auth/login', { email: 'nobody@example.co.uk', password: 'Wrong-pass1!' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid email or password.' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('requires both fields', async () => {
    const res = await anon().post('/api/auth/login', { email: '', password: '' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Email and password are required');
  });

  it('sets an httpOnly SameSite=Lax session cookie carrying 256 random bits, stored only hashed', async () => {
    const body = signupBody();
    const client = anon();
    const signup = await client.post('/api/auth/signup', body);
    await (await signInAdmin(server)).post(`/api/admin/approvals/${signup.body.user.id}/approve`);
    const res = await client.post('/api/auth/login', { email: body.businessEmail, password: body.password });
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const sid = client.cookie!.split('=')[1]!;
    expect(Buffer.from(sid, 'base64url')).toHaveLength(32);
    const stored = await server.database.db.select({ idHash: sessions.idHash }).from(sessions);
    expect(stored).not.toHaveLength(0);
    expect(stored.some((s) => s.idHash === sid)).toBe(false);
    expect(stored.every((s) => /^[0-9a-f]{64}$/.test(s.idHash))).toBe(true);
  });
});

describe('POST /api/auth/logout', () => {
  it('ends the session server-side', async () => {
    const { client } = await activeCustomer(server);
    const stolen = client.cookie!;
    expect((await client.post('/api/auth/logout', {})).status).toBe(200);
    expect((await client.get('/api/auth/me')).status).toBe(401);
    const replay = new ApiClient(server.url);
    replay.cookie = stolen;
    expect((await replay.get('/api/auth/me')).status).toBe(401);
  });
});

describe('responses never carry secrets', () => {
  it('has no password or token hash in any user payload', async () => {
    const { client } = await activeCustomer(server);
    const admin = await signInAdmin(server);
    const payloads = [
      (await client.get('/api/auth/me')).text,
      (await admin.get('/api/admin/users')).text,
      (await admin.get('/api/admin/approvals')).text,
      (await client.patch('/api/user/settings', { businessName: 'X' })).text,
    ];
    for (const text of payloads) {
      expect(text).not.toMatch(/argon2|passwordHash|password_hash|tokenHash|idHash/i);
    }
  });
});

describe('cross-site requests', () => {
  it('refuses a state change from another origin', async () => {
    const { client } = await activeCustomer(server);
    const res = await client.request('PATCH', '/api/user/settings', { businessName: 'Evil' }, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    const me = await client.get('/api/auth/me');
    expect(me.body.user.businessName).toBe('Acme Plumbing');
    const sameOrigin = await client.request('PATCH', '/api/user/settings', { businessName: 'Fine' }, { origin: server.url });
    expect(sameOrigin.status).toBe(200);
  });
});

describe('mail outbox', () => {
  it('writes the approval e-mail as an .eml file when no SMTP_URL is set', async () => {
    const body = signupBody({ businessName: 'Outbox Salon' });
    const signup = await anon().post('/api/auth/signup', body);
    await (await signInAdmin(server)).post(`/api/admin/approvals/${signup.body.user.id}/approve`);
    const dir = path.join(server.dataDir, 'outbox', 'mail');
    const mails = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
    const mail = mails.find((m) => m.includes(body.businessEmail));
    expect(mail).toBeDefined();
    expect(mail).toMatch(/Subject: Your CallKeeper account is approved/);
    expect(mail).toMatch(/Hello Outbox Salon/);
  });
});
