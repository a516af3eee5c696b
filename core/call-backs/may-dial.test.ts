import { describe, expect, it } from 'vitest';
import { CALL_BACK_CAPS, type CallBackCaps } from './caps.js';
import { mayDial, type DialFacts, type TryOutcome } from './may-dial.js';
import type { BusinessHours } from './open-moment.js';

const weekday = () => [{ open: '09:00', close: '17:30' }];
const HOURS: BusinessHours = {
  hours: { mon: weekday(), tue: weekday(), wed: weekday(), thu: weekday(), fri: weekday(), sat: [], sun: [] },
  holidayNations: ['england-wales'],
};
const allDay = () => [{ open: '00:00', close: '23:59' }];
const ALWAYS: BusinessHours = {
  hours: { mon: allDay(), tue: allDay(), wed: allDay(), thu: allDay(), fri: allDay(), sat: allDay(), sun: allDay() },
  holidayNations: [],
};

const d = (iso: string) => new Date(iso);
const MOBILE = '+447400123456';

/** Thursday 3 December 2026, 10:00 GMT: due now, never tried, nothing against it. */
const facts = (over: Partial<DialFacts> = {}): DialFacts => ({
  now: d('2026-12-03T10:00:00Z'),
  dueAt: d('2026-12-03T10:00:00Z'),
  tries: 0,
  lastTry: null,
  number: MOBILE,
  allow: [],
  optedOut: false,
  markedSpam: false,
  ownerDealt: false,
  hours: HOURS,
  dials: { owner: [], box: [] },
  ...over,
});

describe('may the box dial a call-back now', () => {
  it('dials when due, open, untried and nothing stands against it', () => {
    expect(mayDial(facts())).toEqual({ dial: true });
    expect(mayDial(facts({ number: '+441134960000' }))).toEqual({ dial: true });
  });

  it('waits for the agreed time', () => {
    expect(mayDial(facts({ dueAt: d('2026-12-03T16:00:00Z') }))).toEqual({ wait: d('2026-12-03T16:00:00Z'), why: 'not-due' });
  });

  it('outside hours, waits for the exact next open moment', () => {
    expect(mayDial(facts({ now: d('2026-12-03T18:00:00Z'), dueAt: d('2026-12-03T17:45:00Z') }))).toEqual({ wait: d('2026-12-04T09:00:00Z'), why: 'closed' });
    // Due on Saturday: Monday's opening.
    expect(mayDial(facts({ dueAt: d('2026-12-05T11:00:00Z') }))).toEqual({ wait: d('2026-12-07T09:00:00Z'), why: 'not-due' });
  });
});

describe('tries', () => {
  const first = (outcome: TryOutcome, now = '2026-12-03T10:10:00Z') =>
    mayDial(facts({ now: d(now), tries: 1, lastTry: { at: d('2026-12-03T10:00:00Z'), outcome } }));

  it('a second try before 30 minutes waits until exactly 30 minutes after the first', () => {
    expect(first('no-answer')).toEqual({ wait: d('2026-12-03T10:30:00Z'), why: 'retry-gap' });
    expect(first('busy', '2026-12-03T10:29:59Z')).toEqual({ wait: d('2026-12-03T10:30:00Z'), why: 'retry-gap' });
    expect(first('no-answer', '2026-12-03T10:30:00Z')).toEqual({ dial: true });
    expect(first('failed', '2026-12-03T10:30:00Z')).toEqual({ dial: true });
  });

  it('a second try whose 30 minutes end after closing waits for the next opening', () => {
    const late = mayDial(facts({ now: d('2026-12-03T17:15:00Z'), tries: 1, lastTry: { at: d('2026-12-03T17:10:00Z'), outcome: 'busy' } }));
    expect(late).toEqual({ wait: d('2026-12-04T09:00:00Z'), why: 'retry-gap' });
  });

  it('never a third try', () => {
    expect(mayDial(facts({ now: d('2026-12-03T12:00:00Z'), tries: 2, lastTry: { at: d('2026-12-03T10:30:00Z'), outcome: 'no-answer' } }))).toEqual({ never: 'tries-used' });
  });

  it('no second try after the caller answered or a message was left', () => {
    expect(first('answered', '2026-12-03T11:00:00Z')).toEqual({ never: 'answered' });
    expect(first('machine', '2026-12-03T11:00:00Z')).toEqual({ never: 'message-left' });
  });

  it('never twice after "wrong number" or "not interested", however long after', () => {
    expect(first('wrong-number', '2026-12-03T11:00:00Z')).toEqual({ never: 'wrong-number' });
    expect(first('wrong-number', '2026-12-10T11:00:00Z')).toEqual({ never: 'wrong-number' });
    expect(first('not-interested', '2026-12-04T11:00:00Z')).toEqual({ never: 'not-interested' });
  });
});

describe('numbers and people never rung', () => {
  it.each([
    ['premium', '0909 879 0000', 'a premium-rate number (09…, 087…)'],
    ['foreign', '+33 1 23 45 67 89', 'an international number'],
    ['short code', '118118', 'not a UK number in service'],
    ['emergency', '999', 'not a UK number in service'],
  ])('refuses a %s number (%s)', (_kind, number, why) => {
    expect(mayDial(facts({ number }))).toEqual({
      never: 'not-dialable',
      message: `Calls are only put through to UK mobile and landline numbers: this is ${why}. Your operator can allow it.`,
    });
  });

  it("dials what the operator's allow-list names", () => {
    expect(mayDial(facts({ number: '+33123456789', allow: ['+331'] }))).toEqual({ dial: true });
  });

  it('never to a number that texted STOP, that the owner marked spam, or once the owner called back', () => {
    expect(mayDial(facts({ optedOut: true }))).toEqual({ never: 'opted-out' });
    expect(mayDial(facts({ markedSpam: true }))).toEqual({ never: 'marked-spam' });
    expect(mayDial(facts({ ownerDealt: true }))).toEqual({ never: 'owner-dealt' });
  });

  it('never when the business opens on none of the next two weeks', () => {
    const closed: BusinessHours = { hours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] }, holidayNations: [] };
    expect(mayDial(facts({ hours: closed }))).toEqual({ never: 'no-open-hours' });
  });
});

describe('caps', () => {
  const small: CallBackCaps = { perOwnerHour: 2, perOwnerDay: 5, perBoxHour: 3, perBoxDay: 10 };
  const at = (...times: string[]) => times.map((t) => d(`2026-12-03T${t}:00Z`));

  it("at the owner's hourly cap, waits until the oldest of the hour's dials is an hour old", () => {
    expect(mayDial(facts({ caps: small, dials: { owner: at('09:20', '09:40'), box: at('09:20', '09:40') } }))).toEqual({ wait: d('2026-12-03T10:20:00Z'), why: 'owner-hour-cap' });
    // A dial over an hour ago does not count.
    expect(mayDial(facts({ caps: small, dials: { owner: at('08:59', '09:40'), box: [] } }))).toEqual({ dial: true });
  });

  it("at the box's hourly cap, waits likewise", () => {
    expect(mayDial(facts({ caps: small, dials: { owner: [], box: at('09:10', '09:30', '09:50') } }))).toEqual({ wait: d('2026-12-03T10:10:00Z'), why: 'box-hour-cap' });
  });

  it("at the owner's daily cap, waits for the next day's opening", () => {
    const today = at('09:00', '10:00', '11:00', '12:00', '13:00');
    expect(mayDial(facts({ now: d('2026-12-03T16:00:00Z'), caps: small, dials: { owner: today, box: today } }))).toEqual({ wait: d('2026-12-04T09:00:00Z'), why: 'owner-day-cap' });
  });

  it('the default caps hold: ten dials this hour for one business make the eleventh wait', () => {
    const ten = Array.from({ length: CALL_BACK_CAPS.perOwnerHour }, (_, i) => d(`2026-12-03T09:${String(5 + i * 5).padStart(2, '0')}:00Z`));
    expect(mayDial(facts({ dials: { owner: ten, box: ten } }))).toEqual({ wait: d('2026-12-03T10:05:00Z'), why: 'owner-hour-cap' });
    expect(mayDial(facts({ dials: { owner: ten.slice(1), box: ten } }))).toEqual({ dial: true });
  });

  it('a cap that frees after closing waits for the next opening', () => {
    const now = d('2026-12-03T17:10:00Z');
    expect(mayDial(facts({ now, dueAt: now, caps: small, dials: { owner: at('16:40', '16:50'), box: [] } }))).toEqual({ wait: d('2026-12-04T09:00:00Z'), why: 'owner-hour-cap' });
  });
});

describe('across the clock changes and bank holidays', () => {
  it('spring: due on the Saturday before, waits for Monday 9 a.m. summer time, 08:00 UTC', () => {
    expect(mayDial(facts({ now: d('2026-03-28T12:00:00Z'), dueAt: d('2026-03-28T12:00:00Z') }))).toEqual({ wait: d('2026-03-30T08:00:00Z'), why: 'closed' });
  });

  it('autumn: due after closing on the Friday before (17:45 summer time), waits for Monday 9 a.m. GMT, 09:00 UTC', () => {
    expect(mayDial(facts({ now: d('2026-10-23T16:45:00Z'), dueAt: d('2026-10-23T16:45:00Z') }))).toEqual({ wait: d('2026-10-26T09:00:00Z'), why: 'closed' });
  });

  it('the 30 minutes between tries are real minutes across the changes', () => {
    // 00:50 GMT on the spring Sunday; 30 minutes later the clocks read 02:20 BST.
    const spring = mayDial(facts({ hours: ALWAYS, now: d('2026-03-29T00:55:00Z'), dueAt: d('2026-03-29T00:40:00Z'), tries: 1, lastTry: { at: d('2026-03-29T00:50:00Z'), outcome: 'no-answer' } }));
    expect(spring).toEqual({ wait: d('2026-03-29T01:20:00Z'), why: 'retry-gap' });
    // 01:45 BST on the autumn Sunday; 30 minutes later the clocks read 01:15 GMT, the hour again.
    const autumn = mayDial(facts({ hours: ALWAYS, now: d('2026-10-25T00:50:00Z'), dueAt: d('2026-10-25T00:40:00Z'), tries: 1, lastTry: { at: d('2026-10-25T00:45:00Z'), outcome: 'busy' } }));
    expect(autumn).toEqual({ wait: d('2026-10-25T01:15:00Z'), why: 'retry-gap' });
  });

  it('on Good Friday, waits past the Easter weekend and Easter Monday to Tuesday 9 a.m. summer time', () => {
    expect(mayDial(facts({ now: d('2026-04-03T10:00:00Z'), dueAt: d('2026-04-03T10:00:00Z') }))).toEqual({ wait: d('2026-04-07T08:00:00Z'), why: 'closed' });
  });

  it('on Boxing Day (a Friday in 2025), waits for Monday', () => {
    expect(mayDial(facts({ now: d('2025-12-26T10:00:00Z'), dueAt: d('2025-12-26T10:00:00Z') }))).toEqual({ wait: d('2025-12-29T09:00:00Z'), why: 'closed' });
  });

  it('bank holidays close only for the nations the owner chose', () => {
    const scotland: BusinessHours = { ...HOURS, holidayNations: ['scotland'] };
    // 2 January 2026 is a Friday: a bank holiday in Scotland, not in England and Wales.
    const due = { now: d('2026-01-02T10:00:00Z'), dueAt: d('2026-01-02T10:00:00Z') };
    expect(mayDial(facts({ ...due, hours: scotland }))).toEqual({ wait: d('2026-01-05T09:00:00Z'), why: 'closed' });
    expect(mayDial(facts(due))).toEqual({ dial: true });
  });
});
