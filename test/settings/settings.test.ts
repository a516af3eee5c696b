import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireTrials } from '../../core/accounts/users.js';
import { users as usersTable } from '../helpers/tables.js';
import { ApiClient } from '../helpers/client.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { confirmDestination } from '../helpers/destinations.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('PATCH /api/user/settings', () => {
  it('saves every field of §7 and /me returns them', async () => {
    const { client } = await activeCustomer(server);
    const oldNumber = (await client.get('/api/auth/me')).body.user.notificationNumber;
    const body = {
      businessName: 'Bright Smiles Dental',
      callGreeting: 'Thanks for calling Bright Smiles.',
      voicePreference: 'male',
      whatsappEnabled: true,
      smsEnabled: false,
      notificationNumber: '07700 900999',
      aiMode: 'agent',
      knowledgeBase: 'Q: Are you open Saturdays?\nA: Yes, 9 to 1.\n\nQ: Do you take NHS patients?\nA: Yes.',
    };
    const res = await client.patch('/api/user/settings', body);
    expect(res.status).toBe(200);
    // The new number takes effect once confirmed with the code texted to it (issue 24 item 4).
    expect((await client.get('/api/auth/me')).body.user).toMatchObject({ ...body, notificationNumber: oldNumber });
    await confirmDestination(server, client, 'sms', '+447700900999');
    const me = (await client.get('/api/auth/me')).body.user;
    expect(me).toMatchObject({ ...body, notificationNumber: '+447700900999' });
  });

  it('clears optional text with null or blanks', async () => {
    const { client } = await activeCustomer(server);
    await client.patch('/api/user/settings', { callGreeting: 'Hello', notificationNumber: '+447700900001' });
    const res = await client.patch('/api/user/settings', { callGreeting: '  ', notificationNumber: null, businessName: '' });
    expect(res.body.user).toMatchObject({ callGreeting: null, notificationNumber: null, businessName: null });
  });

  it.each([
    ['an unknown mode', { aiMode: 'robot' }, 'aiMode must be voicemail or agent'],
    ['an unknown voice', { voicePreference: 'scottish' }, 'voicePreference must be female or male'],
    ['a non-number', { notificationNumber: 'my mobile' }, 'Notification number must be a valid phone number with its country code, e.g. +447700900123'],
    ['a 1,001-character greeting', { callGreeting: 'x'.repeat(1001) }, 'Custom greeting must be at most 1,000 characters'],
    ['a 50,001-character knowledge base', { knowledgeBase: 'x'.repeat(50_001) }, 'Knowledge base must be at most 50,000 characters'],
    ['a non-boolean switch', { smsEnabled: 'yes please' }, 'smsEnabled must be boolean'],
    ['an e-mail change', { email: 'new@example.co.uk' }, 'email is not an accepted field'],
    ['a reminder after 0 hours', { callbackReminderHours: 0 }, 'callbackReminderHours must be a whole number of hours from 1 to 168, or null for off'],
    ['a reminder after 1.5 hours', { callbackReminderHours: 1.5 }, 'callbackReminderHours must be a whole number of hours from 1 to 168, or null for off'],
    ['a summary e-mail without a domain', { summaryEmail: 'office@' }, 'Summary e-mail must be a valid e-mail address, e.g. owner@example.co.uk'],
    ['a summary e-mail with a space', { summaryEmail: 'the office@example.co.uk' }, 'Summary e-mail must be a valid e-mail address, e.g. owner@example.co.uk'],
    ['a 255-character summary e-mail', { summaryEmail: `${'a'.repeat(243)}@example.com` }, 'Summary e-mail must be a valid e-mail address, e.g. owner@example.co.uk'],
    ['a non-boolean e-mail switch', { emailSummariesEnabled: 'on' }, 'emailSummariesEnabled must be boolean'],
    ['a non-boolean digest switch', { weeklyDigestEnabled: 1 }, 'weeklyDigestEnabled must be boolean'],
  ])('refuses %s with a clear message and keeps what was stored', async (_label, body, message) => {
    const { client } = await activeCustomer(server);
    const before = (await client.get('/api/auth/me')).body.user;
    const res = await client.patch('/api/user/settings', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await client.get('/api/auth/me')).body.user).toEqual(before);
  });

  it('needs a session', async () => {
    expect((await new ApiClient(server.url).patch('/api/user/settings', { businessName: 'x' })).status).toBe(401);
  });

  it('keeps call-back reminders off by default, and saves and clears the hours', async () => {
    const { client } = await activeCustomer(server);
    expect((await client.get('/api/auth/me')).body.user.callbackReminderHours).toBeNull();
    expect((await client.patch('/api/user/settings', { callbackReminderHours: 4 })).body.user.callbackReminderHours).toBe(4);
    expect((await client.get('/api/auth/me')).body.user.callbackReminderHours).toBe(4);
    expect((await client.patch('/api/user/settings', { callbackReminderHours: null })).body.user.callbackReminderHours).toBeNull();
  });
});

describe('e-mail summaries settings', () => {
  it('are off by default with no address, then saved, returned by /me and in the data export', async () => {
    const { client, email } = await activeCustomer(server);
    expect((await client.get('/api/auth/me')).body.user).toMatchObject({ emailSummariesEnabled: false, summaryEmail: null });
    const res = await client.patch('/api/user/settings', { emailSummariesEnabled: true, summaryEmail: '  Office@Example.co.uk ' });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ emailSummariesEnabled: true, summaryEmail: null });
    expect((await confirmDestination(server, client, 'email', 'office@example.co.uk')).body.user).toMatchObject({ emailSummariesEnabled: true, summaryEmail: 'office@example.co.uk' });
    expect((await client.get('/api/auth/me')).body.user).toMatchObject({ emailSummariesEnabled: true, summaryEmail: 'office@example.co.uk' });
    expect((await client.get('/api/user/export')).body.account).toMatchObject({ email, emailSummariesEnabled: true, summaryEmail: 'office@example.co.uk' });
  });

  it('have the weekly call-back digest on by default; turned off, it stays off and is in the data export', async () => {
    const { client } = await activeCustomer(server);
    expect((await client.get('/api/auth/me')).body.user).toMatchObject({ weeklyDigestEnabled: true });
    const res = await client.patch('/api/user/settings', { weeklyDigestEnabled: false });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ weeklyDigestEnabled: false });
    await client.patch('/api/user/settings', { smsEnabled: false });
    expect((await client.get('/api/auth/me')).body.user).toMatchObject({ weeklyDigestEnabled: false, smsEnabled: false });
    expect((await client.get('/api/user/export')).body.account).toMatchObject({ weeklyDigestEnabled: false });
  });

  it('go back to the account e-mail when the address is cleared', async () => {
    const { client } = await activeCustomer(server);
    await client.patch('/api/user/settings', { emailSummariesEnabled: true, summaryEmail: 'office@example.co.uk' });
    await confirmDestination(server, client, 'email', 'office@example.co.uk');
    expect((await client.patch('/api/user/settings', { summaryEmail: ' ' })).body.user).toMatchObject({ emailSummariesEnabled: true, summaryEmail: null });
  });
});

describe('tenant isolation', () => {
  it('a customer changes only their own settings', async () => {
    const a = await activeCustomer(server, { businessName: 'Alpha Plumbing' });
    const b = await activeCustomer(server, { businessName: 'Beta Electrical' });
    await a.client.patch('/api/user/settings', { businessName: 'Alpha Renamed', knowledgeBase: 'Q: a\nA: b' });
    const meB = (await b.client.get('/api/auth/me')).body.user;
    expect(meB.businessName).toBe('Beta Electrical');
    expect(meB.knowledgeBase).toBeNull();
  });
});

describe('trials', () => {
  it('a customer whose trial has passed reads as expired on their next request', async () => {
    const { client } = await activeCustomer(server);
    server.clock.offsetMs = 8 * 864e5;
    try {
      const me = await client.get('/api/auth/me');
      expect(me.status).toBe(200);
      expect(me.body.user.accountStatus).toBe('expired');
    } finally {
      server.clock.offsetMs = 0;
    }
  });

  it('the housekeeping sweep expires every passed trial and leaves admins and current trials alone', async () => {
    const old = await activeCustomer(server);
    const current = await activeCustomer(server);
    await server.database.db.update(usersTable).set({ trialExpiresAt: new Date(Date.now() - 1000) }).where(eq(usersTable.id, old.user.id));
    const changed = await expireTrials(server.database.db, new Date());
    expect(changed).toBeGreaterThanOrEqual(1);
    const admin = await signInAdmin(server);
    const users = (await admin.get('/api/admin/users')).body.users as any[];
    expect(users.find((u) => u.id === old.user.id).accountStatus).toBe('expired');
    expect(users.find((u) => u.id === current.user.id).accountStatus).toBe('active');
    expect(users.filter((u) => u.role === 'admin').every((u) => u.accountStatus === 'active')).toBe(true);
  });
});

describe('the owner\'s line type (issue 44)', () => {
  it('is saved with the owner, so a second sign-in (another device) sees it; a bad value is a 400 that changes nothing; null forgets it', async () => {
    const phone = await activeCustomer(server);
    expect((await phone.client.get('/api/auth/me')).body.user.lineType).toBeNull();
    const saved = await phone.client.patch('/api/user/settings', { lineType: 'mobile' });
    expect(saved.status).toBe(200);
    expect(saved.body.user.lineType).toBe('mobile');

    const laptop = new ApiClient(server.url);
    expect((await laptop.post('/api/auth/login', { email: phone.email, password: phone.password })).status).toBe(200);
    expect((await laptop.get('/api/auth/me')).body.user.lineType).toBe('mobile');

    for (const bad of ['bt', '', 3, ['mobile']]) {
      const res = await laptop.patch('/api/user/settings', { lineType: bad });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('lineType must be landline, virgin or mobile (or null to forget it)');
    }
    expect((await phone.client.get('/api/auth/me')).body.user.lineType).toBe('mobile');

    // Another section's save leaves it alone; null forgets it (the console shows a landline's codes again).
    await laptop.patch('/api/user/settings', { businessName: 'Still Mobile Ltd' });
    expect((await phone.client.get('/api/auth/me')).body.user.lineType).toBe('mobile');
    expect((await laptop.patch('/api/user/settings', { lineType: null })).body.user.lineType).toBeNull();
  });
});

describe('settingsChanged hook', () => {
  it('tells the PBX which owner saved settings, so their greeting is re-made before the next call', async () => {
    const seen: number[] = [];
    server.services.hooks.settingsChanged.push((id) => seen.push(id));
    const { client, user } = await activeCustomer(server);
    await client.patch('/api/user/settings', { callGreeting: 'New greeting' });
    expect(seen).toEqual([user.id]);
    await client.patch('/api/user/settings', { voicePreference: 'robot' });
    expect(seen).toEqual([user.id]); // a refused save changes nothing and re-makes nothing
  });
});
