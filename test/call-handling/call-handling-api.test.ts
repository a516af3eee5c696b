import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiCallLogsResponse } from '../../contract/api.js';
import type { ApiCallHandlingResponse, CallHandlingSettings } from '../../contract/call-handling.js';
import { decideHandling, loadCallHandling } from '../../core/call-handling/index.js';
import { phoneNumbers } from '../helpers/tables.js';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { insertCalls } from '../calls/seed.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const DEFAULTS: CallHandlingSettings = {
  transferNumber: null,
  transferTimeoutSeconds: 20,
  hoursEnabled: false,
  hours: {
    mon: [{ open: '09:00', close: '17:30' }],
    tue: [{ open: '09:00', close: '17:30' }],
    wed: [{ open: '09:00', close: '17:30' }],
    thu: [{ open: '09:00', close: '17:30' }],
    fri: [{ open: '09:00', close: '17:30' }],
    sat: [],
    sun: [],
  },
  holidayNations: ['england-wales'],
  openRingFirst: false,
  closedMode: 'voicemail',
  closedRingFirst: false,
  closedGreeting: null,
  blockList: [],
  vipList: [],
  withheld: 'normal',
  callBacksBy: 'owner',
  callBackAfterMinutes: 15,
};

describe('GET and PUT /api/user/call-handling', () => {
  it('“Test transfer” says how to set it up when this appliance cannot call out', async () => {
    const owner = await activeCustomer(server);
    const res = await owner.client.post('/api/user/call-handling/test-transfer');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Putting calls through is not set up on this appliance: the operator sets OUTBOUND_ENDPOINT (see the README).');
  });

  it('asks a signed-out visitor to log in', async () => {
    const anon = new ApiClient(server.url);
    expect((await anon.get('/api/user/call-handling')).status).toBe(401);
    expect((await anon.request('PUT', '/api/user/call-handling', { hoursEnabled: true })).status).toBe(401);
    expect((await anon.post('/api/user/call-handling/block', { number: '07700 900123' })).status).toBe(401);
  });

  it('gives an owner who never saved any the defaults', async () => {
    const owner = await activeCustomer(server);
    const res = await owner.client.get<ApiCallHandlingResponse>('/api/user/call-handling');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ callHandling: DEFAULTS });
  });

  it('saves the whole settings, numbers in E.164, and the call side reads them back in one call', async () => {
    const owner = await activeCustomer(server);
    const put = await owner.client.request<ApiCallHandlingResponse>('PUT', '/api/user/call-handling', {
      transferNumber: '07400 123456',
      transferTimeoutSeconds: 30,
      hoursEnabled: true,
      hours: { sat: [{ open: '10:00', close: '13:00' }] },
      holidayNations: ['scotland'],
      openRingFirst: true,
      closedMode: 'agent',
      closedRingFirst: false,
      closedGreeting: ' We are closed. ',
      blockList: ['07700 900666', '+44 7700 900666'],
      vipList: ['447700900777'],
      withheld: 'message-only',
    });
    expect(put.status).toBe(200);
    const expected: CallHandlingSettings = {
      ...DEFAULTS,
      transferNumber: '+447400123456',
      transferTimeoutSeconds: 30,
      hoursEnabled: true,
      hours: { ...DEFAULTS.hours, sat: [{ open: '10:00', close: '13:00' }] },
      holidayNations: ['scotland'],
      openRingFirst: true,
      closedMode: 'agent',
      closedGreeting: 'We are closed.',
      blockList: ['+447700900666'],
      vipList: ['+447700900777'],
      withheld: 'message-only',
    };
    expect(put.body).toEqual({ callHandling: expected, message: 'Call handling saved' });
    expect((await owner.client.get('/api/user/call-handling')).body).toEqual({ callHandling: expected });

    const stored = await loadCallHandling(server.database.db, owner.user.id);
    expect(stored).toEqual(expected);
    // What the call side does with them: a VIP on a Saturday morning in Scotland rings the owner first.
    expect(decideHandling(stored, 'voicemail', '07700 900777', new Date('2026-11-21T11:00:00Z'))).toMatchObject({
      kind: 'answer',
      vip: true,
      ringFirst: true,
      period: 'open',
    });
    expect(decideHandling(stored, 'voicemail', '+447700900666', new Date('2026-11-21T11:00:00Z'))).toEqual({ kind: 'refuse', reason: 'blocked' });
  });

  it('changes only the fields sent', async () => {
    const owner = await activeCustomer(server);
    await owner.client.request('PUT', '/api/user/call-handling', { vipList: ['07700 900777'], transferNumber: '07400 123456' });
    const res = await owner.client.request<ApiCallHandlingResponse>('PUT', '/api/user/call-handling', { withheld: 'refuse' });
    expect(res.body.callHandling).toEqual({ ...DEFAULTS, vipList: ['+447700900777'], transferNumber: '+447400123456', withheld: 'refuse' });
  });

  it('keeps each owner to their own settings', async () => {
    const a = await activeCustomer(server);
    const b = await activeCustomer(server);
    await a.client.request('PUT', '/api/user/call-handling', { blockList: ['07700 900555'] });
    expect((await b.client.get<ApiCallHandlingResponse>('/api/user/call-handling')).body.callHandling.blockList).toEqual([]);
    await b.client.post('/api/user/call-handling/block', { number: '07700 900556' });
    expect((await a.client.get<ApiCallHandlingResponse>('/api/user/call-handling')).body.callHandling.blockList).toEqual(['+447700900555']);
  });
});

describe('clear 400s, nothing stored', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['a bad time', { hours: { mon: [{ open: '9am', close: '17:00' }] } }, 'Monday: "9am" is not a time; use 24-hour HH:MM, e.g. 09:00 or 17:30.'],
    ['closing before opening', { hours: { sun: [{ open: '12:00', close: '11:00' }] } }, 'Sunday: closing time 11:00 must be after opening time 12:00.'],
    ['overlapping spans', { hours: { thu: [{ open: '09:00', close: '12:00' }, { open: '11:00', close: '14:00' }] } }, 'Thursday: 09:00–12:00 and 11:00–14:00 overlap.'],
    ['a ring time of 3 s', { transferTimeoutSeconds: 3 }, 'Ring time must be a whole number of seconds from 5 to 60.'],
    ['a ring time that is not a number', { transferTimeoutSeconds: 'twenty' }, 'Ring time must be a whole number of seconds from 5 to 60.'],
    ['a bad block-list entry', { blockList: ['07700 900123', 'the plumber'] }, '"the plumber" in the block list is not a phone number.'],
    ['an unknown withheld policy', { withheld: 'ignore' }, 'Withheld numbers must be handled as normal, message-only or refuse.'],
    ['an unknown nation', { holidayNations: ['wales'] }, 'Bank holidays must be chosen from england-wales, scotland and northern-ireland.'],
    ['an unknown closed mode', { closedMode: 'hang-up' }, 'Closed-hours mode must be voicemail or agent.'],
    ['an unknown field', { ringMe: true }, 'ringMe is not an accepted field'],
    ['a number on both lists', { blockList: ['07700 900123'], vipList: ['+447700900123'] }, '+447700900123 is on both the block list and the VIP list: take it off one of them.'],
  ];

  it.each(cases)('refuses %s', async (_name, body, message) => {
    const owner = await activeCustomer(server);
    const res = await owner.client.request('PUT', '/api/user/call-handling', { openRingFirst: true, ...body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await loadCallHandling(server.database.db, owner.user.id)).toEqual(DEFAULTS);
  });

  it('refuses the business phone that forwards to us as the transfer number', async () => {
    const owner = await activeCustomer(server, { businessPhone: '01632 960123' });
    const res = await owner.client.request('PUT', '/api/user/call-handling', { transferNumber: '+441632960123' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: 'This is the number that forwards to us: put calls through to a different phone.',
      errors: { transferNumber: 'This is the number that forwards to us: put calls through to a different phone.' },
    });
  });

  it("refuses any of the appliance's numbers as the transfer number, even another owner's", async () => {
    const owner = await activeCustomer(server);
    const other = await activeCustomer(server);
    await server.database.db
      .insert(phoneNumbers)
      .values({ phoneNumber: '+447700900444', provider: 'static', providerSid: 'did-444', userId: other.user.id });
    const res = await owner.client.request('PUT', '/api/user/call-handling', { transferNumber: '07700 900444' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("This is one of this appliance's own numbers: it would ring itself.");
  });
});

describe('one number on or off a list', () => {
  it('blocks and unblocks one number in any spelling', async () => {
    const owner = await activeCustomer(server);
    const add = await owner.client.post<ApiCallHandlingResponse>('/api/user/call-handling/block', { number: '07700 900888' });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ callHandling: { ...DEFAULTS, blockList: ['+447700900888'] }, message: '+447700900888 is on your block list.' });
    // Again: still once.
    const again = await owner.client.post<ApiCallHandlingResponse>('/api/user/call-handling/block', { number: '+447700900888' });
    expect(again.body.callHandling.blockList).toEqual(['+447700900888']);

    const off = await owner.client.request<ApiCallHandlingResponse>('DELETE', '/api/user/call-handling/block', { number: '447700900888' });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ callHandling: DEFAULTS, message: '+447700900888 is off your block list.' });
  });

  it('adds a VIP, and refuses to block them until they are off the VIP list', async () => {
    const owner = await activeCustomer(server);
    expect((await owner.client.post('/api/user/call-handling/vip', { number: '07700 900999' })).status).toBe(200);
    const block = await owner.client.post('/api/user/call-handling/block', { number: '07700 900999' });
    expect(block.status).toBe(400);
    expect(block.body.message).toBe('+447700900999 is on both the block list and the VIP list: take it off one of them.');
    expect((await loadCallHandling(server.database.db, owner.user.id)).blockList).toEqual([]);
  });

  it('refuses an entry that is not a number, naming it', async () => {
    const owner = await activeCustomer(server);
    const res = await owner.client.post('/api/user/call-handling/vip', { number: 'mum' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('"mum" is not a phone number.');
  });

  it('refuses a 201st number on a list', async () => {
    const owner = await activeCustomer(server);
    const full = Array.from({ length: 200 }, (_, i) => `+4477009${String(i).padStart(5, '0')}`);
    expect((await owner.client.request('PUT', '/api/user/call-handling', { blockList: full })).status).toBe(200);
    const res = await owner.client.post('/api/user/call-handling/block', { number: '+447700900500' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The block list can hold at most 200 numbers.');
  });
});

describe('a list too long for the cap', () => {
  it('is refused by its length before any entry is read as a number, and nothing is stored', async () => {
    const owner = await activeCustomer(server);
    // 999 good numbers and a bad one last: a parser that read them all would name the bad one.
    const long = [...Array.from({ length: 999 }, (_, i) => `+4477009${String(i).padStart(5, '0')}`), 'not a number'];
    for (const field of ['blockList', 'vipList'] as const) {
      const res = await owner.client.request('PUT', '/api/user/call-handling', { [field]: long });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`The ${field === 'blockList' ? 'block list' : 'VIP list'} can hold at most 200 numbers.`);
    }
    const stored = await loadCallHandling(server.database.db, owner.user.id);
    expect([stored.blockList, stored.vipList]).toEqual([[], []]);
  });
});

describe('call log and data export', () => {
  it('shows the call-handling fields on each call', async () => {
    const owner = await activeCustomer(server);
    const [blocked, transferred] = await insertCalls(server, [
      { userId: owner.user.id, createdAt: new Date('2026-11-20T10:00:00Z'), callerTag: 'blocked', period: 'open' },
      {
        userId: owner.user.id,
        createdAt: new Date('2026-11-20T11:00:00Z'),
        status: 'answered',
        callerTag: 'vip',
        transferOutcome: 'connected',
        transferTalkSeconds: 95,
        period: 'closed',
      },
    ]);
    const res = await owner.client.get<ApiCallLogsResponse>('/api/call-logs');
    const byId = new Map(res.body.callLogs.map((c) => [c.id, c]));
    expect(byId.get(blocked!.id)).toMatchObject({ callerTag: 'blocked', transferOutcome: null, transferTalkSeconds: null, period: 'open' });
    expect(byId.get(transferred!.id)).toMatchObject({ callerTag: 'vip', transferOutcome: 'connected', transferTalkSeconds: 95, period: 'closed' });
  });

  it("puts the owner's call handling and each call's tags in their data export", async () => {
    const owner = await activeCustomer(server);
    await owner.client.request('PUT', '/api/user/call-handling', { blockList: ['07700 900321'], vipList: ['07700 900322'], transferNumber: '07400 123456' });
    await insertCalls(server, [{ userId: owner.user.id, callerTag: 'withheld-refused', transferOutcome: 'no-answer', period: 'closed', fromNumber: 'anonymous' }]);
    const res = await owner.client.get('/api/user/export');
    expect(res.status).toBe(200);
    expect(res.body.callHandling).toMatchObject({ blockList: ['+447700900321'], vipList: ['+447700900322'], transferNumber: '+447400123456' });
    expect(res.body.calls[0]).toMatchObject({ callerTag: 'withheld-refused', transferOutcome: 'no-answer', transferTalkSeconds: null, period: 'closed' });
  });
});
