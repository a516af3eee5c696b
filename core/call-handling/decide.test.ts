import { describe, expect, it } from 'vitest';
import type { CallHandlingSettings } from '../../contract/call-handling.js';
import { decideHandling, takesMessageOnly } from './decide.js';
import { defaultCallHandling } from './defaults.js';

const MOBILE = '+447911123456';
const CALLER = '+447700900123';

/** Hours on, Mon–Fri 09:00–17:30 (the default week), England & Wales holidays. */
function settings(over: Partial<CallHandlingSettings> = {}): CallHandlingSettings {
  return { ...defaultCallHandling(), hoursEnabled: true, ...over };
}

const at = (iso: string) => new Date(iso);
const period = (s: CallHandlingSettings, iso: string) => {
  const d = decideHandling(s, 'voicemail', CALLER, at(iso));
  if (d.kind !== 'answer') throw new Error(`refused: ${d.reason}`);
  return d.period;
};

describe('block list', () => {
  it('refuses a blocked caller even when they are sent in another spelling and the owner would ring first', () => {
    const s = settings({ blockList: [CALLER], transferNumber: MOBILE, openRingFirst: true });
    expect(decideHandling(s, 'agent', '07700 900123', at('2026-11-23T10:00:00Z'))).toEqual({ kind: 'refuse', reason: 'blocked' });
  });

  it('refuses a blocked caller outside hours too', () => {
    const s = settings({ blockList: [CALLER], closedMode: 'agent' });
    expect(decideHandling(s, 'voicemail', CALLER, at('2026-11-22T03:00:00Z'))).toEqual({ kind: 'refuse', reason: 'blocked' });
  });

  it('answers a caller who is not on the list', () => {
    const s = settings({ blockList: ['+447700900999'] });
    expect(decideHandling(s, 'voicemail', CALLER, at('2026-11-23T10:00:00Z')).kind).toBe('answer');
  });
});

describe('withheld callers', () => {
  const withheldIds = [null, '', '  ', 'anonymous', 'Anonymous', 'withheld', 'unavailable', 'restricted', 'private'];

  it.each(withheldIds)('refuses caller id %j when the policy is refuse', (id) => {
    const s = settings({ withheld: 'refuse' });
    expect(decideHandling(s, 'agent', id, at('2026-11-23T10:00:00Z'))).toEqual({ kind: 'refuse', reason: 'withheld' });
  });

  it('takes a message only: voicemail in agent mode, and the owner is not rung first', () => {
    const s = settings({ withheld: 'message-only', transferNumber: MOBILE, openRingFirst: true });
    expect(decideHandling(s, 'agent', 'anonymous', at('2026-11-23T10:00:00Z'))).toEqual({
      kind: 'answer',
      mode: 'voicemail',
      period: 'open',
      ringFirst: false,
      vip: false,
      greeting: null,
    });
  });

  it('says which callers are messages only: withheld ones, when the owner chose so', () => {
    expect(takesMessageOnly({ withheld: 'message-only' }, 'anonymous')).toBe(true);
    expect(takesMessageOnly({ withheld: 'message-only' }, null)).toBe(true);
    expect(takesMessageOnly({ withheld: 'message-only' }, '+447700900555')).toBe(false);
    expect(takesMessageOnly({ withheld: 'normal' }, 'anonymous')).toBe(false);
  });

  it('message-only still plays the closed greeting out of hours', () => {
    const s = settings({ withheld: 'message-only', closedGreeting: 'We are closed.' });
    const d = decideHandling(s, 'agent', null, at('2026-11-23T20:00:00Z'));
    expect(d).toMatchObject({ kind: 'answer', mode: 'voicemail', period: 'closed', greeting: 'We are closed.' });
  });

  it('handles a withheld caller like anyone else when the policy is normal', () => {
    const s = settings({ withheld: 'normal', transferNumber: MOBILE, openRingFirst: true });
    expect(decideHandling(s, 'agent', 'anonymous', at('2026-11-23T10:00:00Z'))).toMatchObject({ mode: 'agent', ringFirst: true, vip: false });
  });

  it('does not treat a SIP user name as withheld', () => {
    const s = settings({ withheld: 'refuse' });
    expect(decideHandling(s, 'voicemail', 'alice', at('2026-11-23T10:00:00Z')).kind).toBe('answer');
  });
});

describe('open and closed modes', () => {
  it('answers in the owner\'s AI mode when open, ringing first when the open rule says so', () => {
    const s = settings({ transferNumber: MOBILE, openRingFirst: true, closedMode: 'voicemail', closedGreeting: 'Closed now.' });
    expect(decideHandling(s, 'agent', CALLER, at('2026-11-23T10:00:00Z'))).toEqual({
      kind: 'answer',
      mode: 'agent',
      period: 'open',
      ringFirst: true,
      vip: false,
      greeting: null,
    });
  });

  it('answers in the closed mode with the closed greeting and the closed ring-first rule when closed', () => {
    const s = settings({ transferNumber: MOBILE, openRingFirst: false, closedMode: 'agent', closedRingFirst: true, closedGreeting: 'Closed now.' });
    expect(decideHandling(s, 'voicemail', CALLER, at('2026-11-23T18:00:00Z'))).toEqual({
      kind: 'answer',
      mode: 'agent',
      period: 'closed',
      ringFirst: true,
      vip: false,
      greeting: 'Closed now.',
    });
  });

  it('never rings first without a transfer number', () => {
    const s = settings({ transferNumber: null, openRingFirst: true, closedRingFirst: true });
    expect(decideHandling(s, 'agent', CALLER, at('2026-11-23T10:00:00Z'))).toMatchObject({ ringFirst: false });
    expect(decideHandling(s, 'agent', CALLER, at('2026-11-23T20:00:00Z'))).toMatchObject({ ringFirst: false });
  });

  it('is always open when hours are off, even at 3 am on a Sunday and on Christmas Day', () => {
    const s = settings({ hoursEnabled: false, closedMode: 'agent', closedGreeting: 'Closed.' });
    expect(decideHandling(s, 'voicemail', CALLER, at('2026-11-22T03:00:00Z'))).toMatchObject({ period: 'open', mode: 'voicemail', greeting: null });
    expect(period(s, '2026-12-25T12:00:00Z')).toBe('open');
  });
});

describe('VIP callers', () => {
  it('rings the owner first for a VIP even when no rule says so, in any spelling', () => {
    const s = settings({ transferNumber: MOBILE, vipList: [CALLER] });
    expect(decideHandling(s, 'voicemail', '447700900123', at('2026-11-23T10:00:00Z'))).toMatchObject({ vip: true, ringFirst: true, period: 'open' });
  });

  it('rings the owner first for a VIP out of hours too, in the closed mode', () => {
    const s = settings({ transferNumber: MOBILE, vipList: [CALLER], closedMode: 'agent' });
    expect(decideHandling(s, 'voicemail', CALLER, at('2026-11-22T03:00:00Z'))).toMatchObject({ vip: true, ringFirst: true, period: 'closed', mode: 'agent' });
  });

  it('marks a VIP but rings nobody without a transfer number', () => {
    const s = settings({ transferNumber: null, vipList: [CALLER] });
    expect(decideHandling(s, 'voicemail', CALLER, at('2026-11-23T10:00:00Z'))).toMatchObject({ vip: true, ringFirst: false });
  });
});

describe('the weekly schedule in Europe/London', () => {
  const s = settings();

  it('opens at 09:00 and closes at 17:30 exactly on a winter Monday (GMT)', () => {
    expect(period(s, '2026-11-23T08:59:00Z')).toBe('closed');
    expect(period(s, '2026-11-23T09:00:00Z')).toBe('open');
    expect(period(s, '2026-11-23T17:29:59Z')).toBe('open');
    expect(period(s, '2026-11-23T17:30:00Z')).toBe('closed');
  });

  it('opens at 09:00 London time in summer, which is 08:00 UTC', () => {
    expect(period(s, '2026-07-01T07:59:00Z')).toBe('closed');
    expect(period(s, '2026-07-01T08:00:00Z')).toBe('open');
    expect(period(s, '2026-07-01T16:29:00Z')).toBe('open');
    expect(period(s, '2026-07-01T16:30:00Z')).toBe('closed');
  });

  it('is closed all weekend with no weekend spans', () => {
    expect(period(s, '2026-11-21T12:00:00Z')).toBe('closed');
    expect(period(s, '2026-11-22T12:00:00Z')).toBe('closed');
  });

  it('keeps a span from 00:00 to 23:59 open for the whole day, and not a minute of the days either side', () => {
    const allSaturday = settings({ hours: { ...defaultCallHandling().hours, sat: [{ open: '00:00', close: '23:59' }] } });
    // Summer time: Saturday 13 June 2026 runs from 23:00 UTC on the 12th to 23:00 UTC on the 13th.
    expect(period(allSaturday, '2026-06-12T22:59:00Z')).toBe('closed'); // Friday 23:59
    expect(period(allSaturday, '2026-06-12T23:00:00Z')).toBe('open'); // Saturday 00:00
    expect(period(allSaturday, '2026-06-13T22:59:59Z')).toBe('open'); // Saturday 23:59:59
    expect(period(allSaturday, '2026-06-13T23:00:00Z')).toBe('closed'); // Sunday 00:00
  });

  it('treats touching spans as one open stretch and the gap between spans as closed', () => {
    const split = settings({
      hours: { ...defaultCallHandling().hours, mon: [{ open: '08:00', close: '12:00' }, { open: '12:00', close: '13:00' }, { open: '14:00', close: '18:00' }] },
    });
    expect(period(split, '2026-11-23T12:00:00Z')).toBe('open');
    expect(period(split, '2026-11-23T13:00:00Z')).toBe('closed');
    expect(period(split, '2026-11-23T13:59:00Z')).toBe('closed');
    expect(period(split, '2026-11-23T14:00:00Z')).toBe('open');
  });
});

describe('clock-change Sundays of 2026', () => {
  it('29 March: 00:59 GMT is still before a 02:00 opening, and the next minute is 02:00 BST', () => {
    const s = settings({ hours: { ...defaultCallHandling().hours, sun: [{ open: '02:00', close: '03:00' }] } });
    expect(period(s, '2026-03-29T00:59:00Z')).toBe('closed'); // 00:59 GMT
    expect(period(s, '2026-03-29T01:00:00Z')).toBe('open'); // 02:00 BST: 01:00–01:59 never happen
    expect(period(s, '2026-03-29T01:59:00Z')).toBe('open'); // 02:59 BST
    expect(period(s, '2026-03-29T02:00:00Z')).toBe('closed'); // 03:00 BST
  });

  it('29 March: a span from midnight to 01:30 is open until the clocks jump and closed after', () => {
    const s = settings({ hours: { ...defaultCallHandling().hours, sun: [{ open: '00:00', close: '01:30' }] } });
    expect(period(s, '2026-03-29T00:00:00Z')).toBe('open');
    expect(period(s, '2026-03-29T00:59:00Z')).toBe('open');
    expect(period(s, '2026-03-29T01:00:00Z')).toBe('closed'); // 02:00 BST
  });

  it('25 October: the hour from 01:00 to 02:00 happens twice and is open both times', () => {
    const s = settings({ hours: { ...defaultCallHandling().hours, sun: [{ open: '01:00', close: '02:00' }] } });
    expect(period(s, '2026-10-24T23:59:00Z')).toBe('closed'); // 00:59 BST
    expect(period(s, '2026-10-25T00:00:00Z')).toBe('open'); // 01:00 BST
    expect(period(s, '2026-10-25T00:59:00Z')).toBe('open'); // 01:59 BST
    expect(period(s, '2026-10-25T01:00:00Z')).toBe('open'); // 01:00 GMT, the second time
    expect(period(s, '2026-10-25T01:59:00Z')).toBe('open'); // 01:59 GMT
    expect(period(s, '2026-10-25T02:00:00Z')).toBe('closed'); // 02:00 GMT
  });

  it('the Monday after each change opens at 09:00 local in the new offset', () => {
    const s = settings();
    expect(period(s, '2026-03-30T07:59:00Z')).toBe('closed'); // 08:59 BST
    expect(period(s, '2026-03-30T08:00:00Z')).toBe('open'); // 09:00 BST
    expect(period(s, '2026-10-26T08:59:00Z')).toBe('closed'); // 08:59 GMT
    expect(period(s, '2026-10-26T09:00:00Z')).toBe('open'); // 09:00 GMT
  });
});

describe('UK bank holidays', () => {
  const s = settings();
  const scotland = settings({ holidayNations: ['scotland'] });

  it('closes Christmas Day 2026 (a Friday) all day in England and Wales', () => {
    expect(period(s, '2026-12-24T12:00:00Z')).toBe('open');
    expect(period(s, '2026-12-25T09:00:00Z')).toBe('closed');
    expect(period(s, '2026-12-25T12:00:00Z')).toBe('closed');
  });

  it('closes Monday 28 December 2026, the Boxing Day substitute, and opens again on the 29th', () => {
    expect(period(s, '2026-12-28T12:00:00Z')).toBe('closed');
    expect(period(s, '2026-12-29T12:00:00Z')).toBe('open');
  });

  it('closes both substitute days of Christmas 2027 (Monday 27 and Tuesday 28 December)', () => {
    expect(period(s, '2027-12-27T12:00:00Z')).toBe('closed');
    expect(period(s, '2027-12-28T12:00:00Z')).toBe('closed');
    expect(period(s, '2027-12-29T12:00:00Z')).toBe('open');
  });

  it('closes 2 January 2026 in Scotland only', () => {
    expect(period(scotland, '2026-01-02T12:00:00Z')).toBe('closed');
    expect(period(s, '2026-01-02T12:00:00Z')).toBe('open');
  });

  it("closes Monday 1 December 2025, St Andrew's Day substitute, in Scotland only", () => {
    expect(period(scotland, '2025-12-01T12:00:00Z')).toBe('closed');
    expect(period(s, '2025-12-01T12:00:00Z')).toBe('open');
  });

  it('closes Monday 4 January 2027, the 2 January substitute, in Scotland only', () => {
    expect(period(scotland, '2027-01-04T12:00:00Z')).toBe('closed');
    expect(period(s, '2027-01-04T12:00:00Z')).toBe('open');
  });

  it("closes St Patrick's Day 2026 for Northern Ireland and not for England and Wales", () => {
    expect(period(settings({ holidayNations: ['northern-ireland'] }), '2026-03-17T12:00:00Z')).toBe('closed');
    expect(period(s, '2026-03-17T12:00:00Z')).toBe('open');
  });

  it('closes a holiday of any chosen nation', () => {
    expect(period(settings({ holidayNations: ['england-wales', 'scotland'] }), '2026-01-02T12:00:00Z')).toBe('closed');
  });

  it('judges a summer bank holiday by the London date, not the UTC one', () => {
    // Monday 31 August 2026 (summer bank holiday) runs from 23:00 UTC on the 30th to 23:00 UTC on the 31st.
    const allDay = [{ open: '00:00', close: '23:59' }];
    const everyDay = settings({ hours: { ...defaultCallHandling().hours, sun: allDay, mon: allDay, tue: allDay } });
    expect(period(everyDay, '2026-08-30T22:30:00Z')).toBe('open'); // Sunday 23:30
    expect(period(everyDay, '2026-08-30T23:30:00Z')).toBe('closed'); // Monday 00:30, though still Sunday in UTC
    expect(period(everyDay, '2026-08-31T22:30:00Z')).toBe('closed'); // Monday 23:30
    expect(period(everyDay, '2026-08-31T23:30:00Z')).toBe('open'); // Tuesday 00:30, though still Monday in UTC
  });

  it('ignores holidays when no nation is chosen', () => {
    expect(period(settings({ holidayNations: [] }), '2026-12-25T12:00:00Z')).toBe('open');
  });

  it('answers a holiday in the closed mode with the closed greeting', () => {
    const h = settings({ closedMode: 'agent', closedGreeting: 'Merry Christmas, we are closed.' });
    expect(decideHandling(h, 'voicemail', CALLER, at('2026-12-25T12:00:00Z'))).toMatchObject({
      period: 'closed',
      mode: 'agent',
      greeting: 'Merry Christmas, we are closed.',
    });
  });
});
