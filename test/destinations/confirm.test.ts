import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { latestCode, mailsTo, textsTo } from '../helpers/destinations.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 24 item 4: a notification number or summary e-mail takes effect only once the owner
// confirms it with the code sent there; until then it receives that code and nothing else.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: { destinationCodesPerOwner: { max: 3, windowMs: 60 * 60_000 } } });
});
afterAll(() => server.close());

const me = async (client: ApiClient) => (await client.get('/api/auth/me')).body.user;

describe('confirmed notification destinations', () => {
  it('keeps the old number until the code texted to the new one comes back; the new one receives only the code', async () => {
    const { client } = await activeCustomer(server);
    const old = (await me(client)).notificationNumber;
    expect(old).not.toBe('+447700900456');
    const saved = await client.patch('/api/user/settings', { smsEnabled: true, notificationNumber: '07700 900456' });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('Settings saved. Enter the code we sent to +447700900456 to start using it.');
    expect(saved.body.user.notificationNumber).toBe(old);
    expect((await client.get('/api/user/destinations')).body.pending).toEqual([{ kind: 'sms', destination: '+447700900456', expiresAt: expect.any(String) }]);
    const texts = textsTo(server, '+447700900456');
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body).toMatch(/^Your call-answering confirmation code is \d{6}\. Enter it under Notification Settings/);

    // Saving the form again (the console sends every field) sends no second code.
    expect((await client.patch('/api/user/settings', { smsEnabled: true, notificationNumber: '+447700900456', aiMode: 'voicemail' })).status).toBe(200);
    expect(textsTo(server, '+447700900456')).toHaveLength(1);

    const wrong = await client.post('/api/user/destinations/confirm', { kind: 'sms', code: '000000' === latestCode(server, 'sms', '+447700900456') ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('That code is not right. Check the latest code we sent and try again.');
    expect((await me(client)).notificationNumber).toBe(old);

    const ok = await client.post('/api/user/destinations/confirm', { kind: 'sms', code: latestCode(server, 'sms', '+447700900456') });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Notification number confirmed: call notifications now go to +447700900456.');
    expect((await me(client)).notificationNumber).toBe('+447700900456');
    expect((await client.get('/api/user/destinations')).body.pending).toEqual([]);
    // Used once: the same code does not confirm again.
    expect((await client.post('/api/user/destinations/confirm', { kind: 'sms', code: latestCode(server, 'sms', '+447700900456') })).status).toBe(400);
  });

  it('confirms a summary e-mail the same way, by a code mailed to it', async () => {
    const { client } = await activeCustomer(server);
    await client.patch('/api/user/settings', { emailSummariesEnabled: true, summaryEmail: 'Front.Desk@Example.co.uk' });
    expect((await me(client)).summaryEmail).toBeNull();
    expect(mailsTo(server, 'front.desk@example.co.uk')).toHaveLength(1);
    const ok = await client.post('/api/user/destinations/confirm', { kind: 'email', code: latestCode(server, 'email', 'front.desk@example.co.uk') });
    expect(ok.body.message).toBe('Summary e-mail confirmed: call summaries now go to front.desk@example.co.uk.');
    expect((await me(client)).summaryEmail).toBe('front.desk@example.co.uk');
  });

  it('drops the pending change after five wrong codes, and refuses an expired code', async () => {
    const { client } = await activeCustomer(server);
    await client.patch('/api/user/settings', { notificationNumber: '+447700900457' });
    const right = latestCode(server, 'sms', '+447700900457');
    const wrongCode = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) expect((await client.post('/api/user/destinations/confirm', { kind: 'sms', code: wrongCode })).status).toBe(400);
    const late = await client.post('/api/user/destinations/confirm', { kind: 'sms', code: right });
    expect(late.status).toBe(400);
    expect(late.body.message).toBe('There is no new number waiting to be confirmed. Save it under Notification Settings first.');

    const other = await activeCustomer(server);
    const old = (await me(other.client)).notificationNumber;
    await other.client.patch('/api/user/settings', { notificationNumber: '+447700900458' });
    server.clock.offsetMs += 31 * 60_000;
    try {
      const expired = await other.client.post('/api/user/destinations/confirm', { kind: 'sms', code: latestCode(server, 'sms', '+447700900458') });
      expect(expired.status).toBe(400);
      expect(expired.body.message).toBe('That code has expired. Save the number again to get a new code.');
      expect((await me(other.client)).notificationNumber).toBe(old);
    } finally {
      server.clock.offsetMs -= 31 * 60_000;
    }
  });

  it('texts no code to a satellite, premium or foreign number: 400, nothing sent, nothing saved', async () => {
    const { client } = await activeCustomer(server);
    const before = await me(client);
    const refused = {
      '+882 16 1234 5678': ['+8821612345678', 'an international number'],
      '+239 222 1234': ['+2392221234', 'an international number'],
      '+1 900 555 0199': ['+19005550199', 'an international number'],
      '0909 879 0000': ['+449098790000', 'a premium-rate number (09…, 087…)'],
    };
    for (const [typed, [e164, what]] of Object.entries(refused)) {
      const res = await client.patch('/api/user/settings', { smsEnabled: true, notificationNumber: typed, businessName: 'Not saved Ltd' });
      const message = `Codes are only texted to UK mobile numbers: this is ${what}. Your operator can allow it.`;
      expect([typed, res.status, res.body.message, res.body.errors]).toEqual([typed, 400, message, { notificationNumber: message }]);
      expect(textsTo(server, e164!)).toEqual([]);
    }
    expect(await me(client)).toEqual(before);
    expect((await client.get('/api/user/destinations')).body.pending).toEqual([]);
    // A UK mobile gets its code (these refusals used none of the owner's three).
    expect((await client.patch('/api/user/settings', { notificationNumber: '07700 900480' })).status).toBe(200);
    expect(textsTo(server, '+447700900480')).toHaveLength(1);
  });

  it('texts no code to a landline, saying why and asking for a mobile: 400, nothing sent, nothing saved (issue 57 item 6)', async () => {
    const { client } = await activeCustomer(server);
    const before = await me(client);
    const res = await client.patch('/api/user/settings', { notificationNumber: '020 7946 0000', businessName: 'Not saved Ltd' });
    const message = 'Call texts go to a mobile: 020 7946 0000 is a landline, and landlines cannot receive texts. Enter the mobile you want call texts on.';
    expect([res.status, res.body.message, res.body.errors]).toEqual([400, message, { notificationNumber: message }]);
    expect(textsTo(server, '+442079460000')).toEqual([]);
    expect(await me(client)).toEqual(before);
    expect((await client.get('/api/user/destinations')).body.pending).toEqual([]);
  });

  it("texts a code abroad when the operator's allow-list names the prefix", async () => {
    const abroad = await startTestServer({ env: { OUTBOUND_ALLOW: '+3531' } });
    try {
      const { client } = await activeCustomer(abroad);
      const res = await client.patch('/api/user/settings', { notificationNumber: '+353 1 234 5678' });
      expect(res.status).toBe(200);
      expect(textsTo(abroad, '+35312345678')).toHaveLength(1);
    } finally {
      await abroad.close();
    }
  });

  it('limits the codes an owner can have sent, with a clear 429 and nothing saved', async () => {
    const { client } = await activeCustomer(server);
    for (const n of ['+447700900461', '+447700900462', '+447700900463']) expect((await client.patch('/api/user/settings', { notificationNumber: n })).status).toBe(200);
    const before = await me(client);
    const refused = await client.patch('/api/user/settings', { notificationNumber: '+447700900464', businessName: 'Not saved Ltd' });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many confirmation codes sent\. Nothing was saved: please wait \d+ minutes? and save again\.$/);
    expect(textsTo(server, '+447700900464')).toEqual([]);
    expect(await me(client)).toEqual(before);
  });

  it('clears a destination at once, with no code, and drops what was waiting', async () => {
    const { client } = await activeCustomer(server);
    await client.patch('/api/user/settings', { notificationNumber: '+447700900470' });
    const cleared = await client.patch('/api/user/settings', { notificationNumber: null });
    expect(cleared.body.message).toBe('Settings saved');
    expect((await client.get('/api/user/destinations')).body.pending).toEqual([]);
  });

  it('needs a session, and checks the body', async () => {
    expect((await new ApiClient(server.url).post('/api/user/destinations/confirm', { kind: 'sms', code: '123456' })).status).toBe(401);
    const { client } = await activeCustomer(server);
    expect((await client.post('/api/user/destinations/confirm', { kind: 'fax', code: '123456' })).status).toBe(400);
  });
});
