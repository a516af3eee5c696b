import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTwilioClient, rewriteUri } from '../../../core/twilio/client.js';
import { startTwilioDouble, type TwilioDouble } from './server.js';

let double: TwilioDouble;
beforeEach(async () => {
  double = await startTwilioDouble({ invalidNumbers: ['+447700900999'], nonMobileNumbers: ['+442079460000'] });
});
afterEach(() => double.close());

const client = () => createTwilioClient({ accountSid: double.accountSid, authToken: double.authToken, apiBase: double.url });

describe('twilio client factory', () => {
  it('moves any Twilio host onto the api base, keeping path and query', () => {
    expect(rewriteUri('https://api.dublin.ie1.twilio.com/2010-04-01/Accounts/AC1/Messages.json?Page=1', 'http://127.0.0.1:9/base'))
      .toBe('http://127.0.0.1:9/base/2010-04-01/Accounts/AC1/Messages.json?Page=1');
  });

  it('gives up on a stalled Twilio after its timeout', async () => {
    double.failNext('Balance', { status: 0, hang: true });
    const impatient = createTwilioClient({ accountSid: double.accountSid, authToken: double.authToken, apiBase: double.url }, 300);
    await expect(impatient.balance.fetch()).rejects.toThrow(/timeout/i);
    expect(double.requestsTo('Balance')[0]!.status).toBe(-2);
  });

  it('refuses to build a client without credentials', () => {
    expect(() => createTwilioClient({})).toThrow(/TWILIO_ACCOUNT_SID/);
  });
});

describe('twilio double: Messages', () => {
  it('creates an SMS through the real SDK: form-encoded PascalCase in, snake_case JSON out', async () => {
    const msg = await client().messages.create({ to: '+447700900123', from: '+447700900001', body: 'New voicemail' });
    expect(msg.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(msg.status).toBe('queued');
    expect(msg.to).toBe('+447700900123');
    expect(msg.dateCreated).toBeInstanceOf(Date);
    const [req] = double.requestsTo('Messages');
    expect(req).toMatchObject({
      method: 'POST',
      path: `/2010-04-01/Accounts/${double.accountSid}/Messages.json`,
      authorized: true,
      form: { To: '+447700900123', From: '+447700900001', Body: 'New voicemail' },
    });
    expect(req!.contentType).toContain('application/x-www-form-urlencoded');
  });

  it('sends WhatsApp with whatsapp: prefixes on both ends', async () => {
    const msg = await client().messages.create({ to: 'whatsapp:+447700900123', from: 'whatsapp:+447700900001', body: 'Hi' });
    expect(msg.to).toBe('whatsapp:+447700900123');
    expect(double.messages[0]!.to).toBe('whatsapp:+447700900123');
  });

  it('answers 21211 for an invalid number and 21614 for a landline, as Twilio error JSON', async () => {
    await expect(client().messages.create({ to: '+447700900999', from: '+447700900001', body: 'x' })).rejects.toMatchObject({
      status: 400,
      code: 21211,
      moreInfo: 'https://www.twilio.com/docs/errors/21211',
    });
    await expect(client().messages.create({ to: '+442079460000', from: '+447700900001', body: 'x' })).rejects.toMatchObject({
      status: 400,
      code: 21614,
    });
    expect(double.messages).toHaveLength(0);
  });

  it('fails the next request as scripted, then recovers', async () => {
    double.failNext('Messages', { status: 500 });
    await expect(client().messages.create({ to: '+447700900123', from: '+447700900001', body: 'x' })).rejects.toMatchObject({
      status: 500,
      code: 20500,
    });
    const ok = await client().messages.create({ to: '+447700900123', from: '+447700900001', body: 'x' });
    expect(ok.status).toBe('queued');
  });

  it('rejects a wrong auth token with 401 / 20003', async () => {
    const bad = createTwilioClient({ accountSid: double.accountSid, authToken: 'wrong', apiBase: double.url });
    await expect(bad.messages.create({ to: '+447700900123', from: '+447700900001', body: 'x' })).rejects.toMatchObject({
      status: 401,
      code: 20003,
    });
    expect(double.requests[0]!.authorized).toBe(false);
  });

  it('posts a signed delivery status callback to StatusCallback', async () => {
    const http = await import('node:http');
    const twilio = (await import('twilio')).default;
    const got: Array<{ sig: string; body: string }> = [];
    const hook = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push({ sig: String(req.headers['x-twilio-signature']), body });
        res.end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const cb = `http://127.0.0.1:${(hook.address() as { port: number }).port}/status`;
    try {
      const msg = await client().messages.create({ to: '+447700900123', from: '+447700900001', body: 'x', statusCallback: cb });
      expect(await double.deliverStatus(msg.sid, 'delivered')).toBe(200);
      const params = Object.fromEntries(new URLSearchParams(got[0]!.body));
      expect(params).toMatchObject({ MessageSid: msg.sid, MessageStatus: 'delivered' });
      expect(twilio.validateRequest(double.authToken, got[0]!.sig, cb, params)).toBe(true);
    } finally {
      hook.close();
    }
  });
});
