import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTwilioClient } from '../../../core/twilio/client.js';
import { startTwilioDouble, type TwilioDouble } from './server.js';

const BUNDLE = 'BU' + '1'.repeat(32);
const ADDRESS = 'AD' + '2'.repeat(32);
let double: TwilioDouble;
beforeEach(async () => {
  double = await startTwilioDouble({ availableNumbers: ['+447700900101', '+447700900102', '+447700900103', '+447700900104', '+447700900105'] });
});
afterEach(() => double.close());

const sdk = () => createTwilioClient({ accountSid: double.accountSid, authToken: double.authToken, apiBase: double.url });
/** Raw HTTP, to assert the wire shapes themselves rather than the SDK's reading of them. */
async function raw(method: string, path: string, form?: Record<string, string>) {
  const res = await fetch(`${double.url}/2010-04-01/Accounts/${double.accountSid}${path}`, {
    method,
    headers: {
      authorization: 'Basic ' + Buffer.from(`${double.accountSid}:${double.authToken}`).toString('base64'),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

describe('twilio double: AvailablePhoneNumbers', () => {
  it('offers GB mobile numbers under available_phone_numbers with snake_case fields', async () => {
    const res = await raw('GET', '/AvailablePhoneNumbers/GB/Mobile.json?PageSize=2');
    expect(res.status).toBe(200);
    expect(res.body.available_phone_numbers).toHaveLength(2);
    expect(res.body.available_phone_numbers[0]).toMatchObject({
      phone_number: '+447700900101',
      friendly_name: '07700 900101',
      iso_country: 'GB',
      address_requirements: 'any',
      capabilities: { voice: true, SMS: true, MMS: false },
    });
    expect((await raw('GET', '/AvailablePhoneNumbers/GB/Local.json')).body.available_phone_numbers).toEqual([]);
  });

  it('is read by the SDK', async () => {
    const offers = await sdk().availablePhoneNumbers('GB').mobile.list({ limit: 3 });
    expect(offers.map((o) => o.phoneNumber)).toEqual(['+447700900101', '+447700900102', '+447700900103']);
  });
});

describe('twilio double: IncomingPhoneNumbers', () => {
  it('buys (201) with the bundle and address a UK number needs, refusing without them (21631, 21649)', async () => {
    const noAddress = await raw('POST', '/IncomingPhoneNumbers.json', { PhoneNumber: '+447700900101', BundleSid: BUNDLE });
    expect(noAddress).toMatchObject({
      status: 400,
      body: { code: 21631, message: 'Phone Number Requires an Address', more_info: 'https://www.twilio.com/docs/errors/21631', status: 400 },
    });
    const noBundle = await raw('POST', '/IncomingPhoneNumbers.json', { PhoneNumber: '+447700900101', AddressSid: ADDRESS });
    expect(noBundle.body.code).toBe(21649);
    const ok = await raw('POST', '/IncomingPhoneNumbers.json', { PhoneNumber: '+447700900101', BundleSid: BUNDLE, AddressSid: ADDRESS, VoiceUrl: 'https://example.co.uk/voice' });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      account_sid: double.accountSid,
      phone_number: '+447700900101',
      friendly_name: '07700 900101',
      bundle_sid: BUNDLE,
      address_sid: ADDRESS,
      voice_url: 'https://example.co.uk/voice',
      trunk_sid: null,
      capabilities: { voice: true, sms: true, mms: false, fax: false },
      uri: `/2010-04-01/Accounts/${double.accountSid}/IncomingPhoneNumbers/${ok.body.sid}.json`,
    });
    expect(ok.body.sid).toMatch(/^PN[0-9a-f]{32}$/);
    expect(ok.body.date_created).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
    // No longer on offer, and a second buy of it is refused as Twilio does (21422).
    expect((await raw('POST', '/IncomingPhoneNumbers.json', { PhoneNumber: '+447700900101', BundleSid: BUNDLE, AddressSid: ADDRESS })).body.code).toBe(21422);
  });

  it('lists in pages that the SDK follows through next_page_uri, and deletes with 204', async () => {
    const client = sdk();
    for (const n of ['+447700900101', '+447700900102', '+447700900103']) {
      await client.incomingPhoneNumbers.create({ phoneNumber: n, bundleSid: BUNDLE, addressSid: ADDRESS, trunkSid: 'TK' + '3'.repeat(32) });
    }
    const page = await raw('GET', '/IncomingPhoneNumbers.json?PageSize=2');
    expect(page.body).toMatchObject({ page: 0, page_size: 2, start: 0, end: 1, previous_page_uri: null });
    expect(page.body.incoming_phone_numbers).toHaveLength(2);
    expect(page.body.next_page_uri).toBe(`/2010-04-01/Accounts/${double.accountSid}/IncomingPhoneNumbers.json?PageSize=2&Page=1`);

    const all = await client.incomingPhoneNumbers.list({ pageSize: 2 });
    expect(all.map((n) => n.phoneNumber)).toEqual(['+447700900101', '+447700900102', '+447700900103']);
    expect(all[0]!.trunkSid).toBe('TK' + '3'.repeat(32));
    expect(all[0]!.dateCreated).toBeInstanceOf(Date);

    const del = await raw('DELETE', `/IncomingPhoneNumbers/${all[0]!.sid}.json`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const again = await raw('DELETE', `/IncomingPhoneNumbers/${all[0]!.sid}.json`);
    expect(again.body).toMatchObject({ code: 20404, status: 404 });
    await expect(client.incomingPhoneNumbers(all[1]!.sid).remove()).resolves.toBe(true);
    expect(double.numbers.map((n) => n.phoneNumber)).toEqual(['+447700900103']);
  });
});

describe('twilio double: Usage records and Balance', () => {
  it('answers ThisMonth per category with strings for count, usage and price', async () => {
    double.setUsage('calls-inbound', { count: 3, usage: 7, price: 0.126 });
    const res = await raw('GET', '/Usage/Records/ThisMonth.json?Category=calls-inbound');
    expect(res.body.usage_records).toHaveLength(1);
    const now = new Date();
    expect(res.body.usage_records[0]).toMatchObject({
      category: 'calls-inbound',
      count: '3',
      count_unit: 'calls',
      usage: '7',
      usage_unit: 'minutes',
      price: '0.13',
      price_unit: 'gbp',
      start_date: `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`,
      end_date: now.toISOString().slice(0, 10),
    });
    const all = await raw('GET', '/Usage/Records/ThisMonth.json');
    expect(all.body.usage_records.map((r: { category: string }) => r.category)).toEqual([
      'calls-inbound',
      'calls-outbound',
      'sms-inbound',
      'sms-outbound',
      'phonenumbers',
      'recordings',
      'totalprice',
    ]);
  });

  it('derives phonenumbers from the numbers held and totalprice from the rest unless scripted', async () => {
    await sdk().incomingPhoneNumbers.create({ phoneNumber: '+447700900101', bundleSid: BUNDLE, addressSid: ADDRESS });
    double.setUsage('sms-outbound', { count: 10, price: 0.4 });
    const [numbers] = await sdk().usage.records.thisMonth.list({ category: 'phonenumbers' });
    expect(numbers).toMatchObject({ category: 'phonenumbers', count: '1', price: '1.15' });
    const [total] = await sdk().usage.records.thisMonth.list({ category: 'totalprice' });
    expect(Number(total!.price)).toBeCloseTo(1.55, 5);
  });

  it('returns the balance as a string with its currency', async () => {
    double.setBalance('7.25', 'GBP');
    expect((await raw('GET', '/Balance.json')).body).toEqual({ account_sid: double.accountSid, balance: '7.25', currency: 'GBP' });
    const b = await sdk().balance.fetch();
    expect([b.balance, b.currency]).toEqual(['7.25', 'GBP']);
  });

  it('answers another account’s path with 404 / 20404, and a bad token with 401 / 20003', async () => {
    const other = await fetch(`${double.url}/2010-04-01/Accounts/AC${'9'.repeat(32)}/Balance.json`, {
      headers: { authorization: 'Basic ' + Buffer.from(`${double.accountSid}:${double.authToken}`).toString('base64') },
    });
    expect(other.status).toBe(404);
    expect(((await other.json()) as { code: number }).code).toBe(20404);
    const unauth = await fetch(`${double.url}/2010-04-01/Accounts/${double.accountSid}/Balance.json`);
    expect(unauth.status).toBe(401);
    expect(await unauth.json()).toMatchObject({ code: 20003, status: 401, more_info: 'https://www.twilio.com/docs/errors/20003' });
  });
});
