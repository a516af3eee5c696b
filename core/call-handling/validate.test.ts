import { describe, expect, it } from 'vitest';
import type { CallHandlingSettings } from '../../contract/call-handling.js';
import { defaultCallHandling } from './defaults.js';
import { MESSAGES, validateCallHandling, type CallHandlingInput, type TransferGuard } from './validate.js';

const guard: TransferGuard = { ownerPhone: '+441632960001', applianceNumbers: ['+447700900001', '+447700900002'], outboundAllow: ['+3531'] };

function ok(input: CallHandlingInput, current = defaultCallHandling()): CallHandlingSettings {
  const r = validateCallHandling(input, current, guard);
  if ('message' in r) throw new Error(`refused: ${r.message}`);
  return r;
}
const refused = (input: CallHandlingInput, current = defaultCallHandling()) => {
  const r = validateCallHandling(input, current, guard);
  if (!('message' in r)) throw new Error('accepted');
  return r.message;
};

describe('opening hours', () => {
  it('accepts spans in HH:MM and stores them sorted by opening time', () => {
    const s = ok({ hours: { sat: [{ open: '14:00', close: '16:00' }, { open: '09:00', close: '12:00' }] } });
    expect(s.hours.sat).toEqual([
      { open: '09:00', close: '12:00' },
      { open: '14:00', close: '16:00' },
    ]);
    expect(s.hours.mon).toEqual([{ open: '09:00', close: '17:30' }]); // days not sent keep theirs
  });

  it.each(['9:00', '24:00', '12:60', '0900', 'noon', ''])('refuses the time %j, naming it', (t) => {
    expect(refused({ hours: { mon: [{ open: t, close: '17:00' }] } })).toBe(`Monday: "${t}" is not a time; use 24-hour HH:MM, e.g. 09:00 or 17:30.`);
  });

  it('refuses a closing time that is not after the opening time', () => {
    expect(refused({ hours: { tue: [{ open: '17:00', close: '09:00' }] } })).toBe('Tuesday: closing time 09:00 must be after opening time 17:00.');
    expect(refused({ hours: { tue: [{ open: '09:00', close: '09:00' }] } })).toBe('Tuesday: closing time 09:00 must be after opening time 09:00.');
  });

  it('accepts 4 spans a day and refuses a 5th', () => {
    const four = ['08:00', '10:00', '12:00', '14:00'].map((o) => ({ open: o, close: `${String(Number(o.slice(0, 2)) + 1).padStart(2, '0')}:00` }));
    expect(ok({ hours: { wed: four } }).hours.wed).toHaveLength(4);
    expect(refused({ hours: { wed: [...four, { open: '20:00', close: '21:00' }] } })).toBe('Wednesday can have at most 4 opening times.');
  });

  it('refuses overlapping spans and accepts touching ones', () => {
    expect(refused({ hours: { fri: [{ open: '09:00', close: '13:00' }, { open: '12:30', close: '17:00' }] } })).toBe(
      'Friday: 09:00–13:00 and 12:30–17:00 overlap.',
    );
    expect(ok({ hours: { fri: [{ open: '09:00', close: '13:00' }, { open: '13:00', close: '17:00' }] } }).hours.fri).toHaveLength(2);
  });

  it('accepts a whole day, 00:00 to 23:59, and an empty day', () => {
    const s = ok({ hours: { sun: [{ open: '00:00', close: '23:59' }], mon: [] } });
    expect(s.hours.sun).toEqual([{ open: '00:00', close: '23:59' }]);
    expect(s.hours.mon).toEqual([]);
  });
});

describe('transfer ring time', () => {
  it('defaults to 20 seconds and keeps its value when not sent', () => {
    expect(ok({}).transferTimeoutSeconds).toBe(20);
    expect(ok({ openRingFirst: true }, { ...defaultCallHandling(), transferTimeoutSeconds: 45 }).transferTimeoutSeconds).toBe(45);
  });

  it('accepts 5 and 60 seconds', () => {
    expect(ok({ transferTimeoutSeconds: 5 }).transferTimeoutSeconds).toBe(5);
    expect(ok({ transferTimeoutSeconds: 60 }).transferTimeoutSeconds).toBe(60);
  });

  it.each([4, 61, 20.5, 0])('refuses %d seconds', (t) => {
    expect(refused({ transferTimeoutSeconds: t })).toBe(MESSAGES.timeout);
  });
});

describe('transfer number', () => {
  it('stores any UK spelling as E.164, and blank as none', () => {
    expect(ok({ transferNumber: '07400 123456' }).transferNumber).toBe('+447400123456');
    expect(ok({ transferNumber: '  ' }, { ...defaultCallHandling(), transferNumber: '+447911123456' }).transferNumber).toBeNull();
    expect(ok({ transferNumber: null }, { ...defaultCallHandling(), transferNumber: '+447911123456' }).transferNumber).toBeNull();
  });

  it('refuses text that is not a phone number', () => {
    expect(refused({ transferNumber: 'my mobile' })).toBe(MESSAGES.transferNumber);
  });

  it('refuses the business line that forwards to us, in any spelling', () => {
    expect(refused({ transferNumber: '01632 960001' })).toBe('This is the number that forwards to us: put calls through to a different phone.');
  });

  it("refuses one of the appliance's own numbers, whoever owns it", () => {
    expect(refused({ transferNumber: '07700 900002' })).toBe("This is one of this appliance's own numbers: it would ring itself.");
  });

  it('refuses a number the trunk would charge as premium, and takes one on the operator allow-list', () => {
    expect(refused({ transferNumber: '0909 879 0000' })).toBe('Calls are only put through to UK mobile and landline numbers: this is a premium-rate number (09…, 087…). Your operator can allow it.');
    expect(ok({ transferNumber: '+353 1 234 5678' }).transferNumber).toBe('+35312345678');
  });
});

describe('block and VIP lists', () => {
  it('stores entries in any UK spelling as E.164, each once', () => {
    const s = ok({ blockList: ['07700 900123', '+44 (0)7700 900123', '447700900123', '0044 7700 900124'] });
    expect(s.blockList).toEqual(['+447700900123', '+447700900124']);
  });

  it('names the bad entry and its list', () => {
    expect(refused({ blockList: ['07700 900123', 'Dave'] })).toBe('"Dave" in the block list is not a phone number.');
    expect(refused({ vipList: ['123'] })).toBe('"123" in the VIP list is not a phone number.');
  });

  it('holds 200 numbers and refuses 201', () => {
    const numbers = (n: number) => Array.from({ length: n }, (_, i) => `+4477009${String(i).padStart(5, '0')}`);
    expect(ok({ vipList: numbers(200) }).vipList).toHaveLength(200);
    expect(refused({ vipList: numbers(201) })).toBe('The VIP list can hold at most 200 numbers.');
  });

  it('refuses a number on both lists, including against the stored list', () => {
    expect(refused({ blockList: ['07700 900123'], vipList: ['+447700900123'] })).toBe(
      '+447700900123 is on both the block list and the VIP list: take it off one of them.',
    );
    expect(refused({ vipList: ['07700900123'] }, { ...defaultCallHandling(), blockList: ['+447700900123'] })).toContain('is on both');
  });
});

describe('the rest', () => {
  it('trims the closed greeting, stores blank as none and refuses more than 1,000 characters', () => {
    expect(ok({ closedGreeting: '  Closed for now.  ' }).closedGreeting).toBe('Closed for now.');
    expect(ok({ closedGreeting: ' ' }).closedGreeting).toBeNull();
    expect(refused({ closedGreeting: 'x'.repeat(1001) })).toBe('Closed-hours greeting must be at most 1,000 characters.');
  });

  it('keeps each nation once', () => {
    expect(ok({ holidayNations: ['scotland', 'scotland', 'england-wales'] }).holidayNations).toEqual(['scotland', 'england-wales']);
  });

  it('changes only what was sent', () => {
    const current: CallHandlingSettings = { ...defaultCallHandling(), vipList: ['+447700900123'], withheld: 'refuse' };
    expect(ok({ closedMode: 'agent' }, current)).toEqual({ ...current, closedMode: 'agent' });
  });
});

describe('who rings callers back (issue 56)', () => {
  it('keeps the owner as the default and saves the agent choices with their wait', () => {
    expect(defaultCallHandling()).toMatchObject({ callBacksBy: 'owner', callBackAfterMinutes: 15 });
    expect(ok({ callBacksBy: 'agent-after', callBackAfterMinutes: 30 })).toMatchObject({ callBacksBy: 'agent-after', callBackAfterMinutes: 30 });
    expect(ok({ callBacksBy: 'agent-at-time' })).toMatchObject({ callBacksBy: 'agent-at-time', callBackAfterMinutes: 15 });
  });

  it.each([5, 240])('accepts a wait of %i minutes', (m) => {
    expect(ok({ callBackAfterMinutes: m }).callBackAfterMinutes).toBe(m);
  });

  it.each([4, 241, 0, -15, 7.5, Number.NaN])('refuses a wait of %d minutes in words', (m) => {
    expect(refused({ callBackAfterMinutes: m })).toBe(MESSAGES.callBackAfterMinutes);
    expect(MESSAGES.callBackAfterMinutes).toBe("The assistant's wait before it rings back must be a whole number of minutes from 5 to 240.");
  });
});
