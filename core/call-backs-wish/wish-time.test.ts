import { describe, expect, it } from 'vitest';
import type { BusinessHours } from '../call-backs/open-moment.js';
import { wishTime, type WishTimeQuery } from './wish-time.js';

const weekday = () => [{ open: '09:00', close: '17:30' }];
const HOURS: BusinessHours = {
  hours: { mon: weekday(), tue: weekday(), wed: weekday(), thu: weekday(), fri: weekday(), sat: [], sun: [] },
  holidayNations: ['england-wales'],
};

const time = (words: string, nowIso: string, over: Partial<WishTimeQuery> = {}) => {
  const r = wishTime({ by: 'agent-at-time', afterMinutes: 15, words, now: new Date(nowIso), hours: HOURS, ...over });
  return { at: r.at?.toISOString() ?? null, said: r.said };
};

// Thursday 3 December 2026, GMT.
describe('the time the agent rings a caller back, by the owner setting', () => {
  it("'agent-at-time' keeps the caller's time to the minute, even inside the owner's window", () => {
    expect(time('could you ring me back after four', '2026-12-03T15:55:00Z')).toEqual({ at: '2026-12-03T16:00:00.000Z', said: "I'll ring you back at 4pm today from this number." });
  });

  it("'agent-after' moves a time inside the owner's window to its end, and says the moved time", () => {
    expect(time('could you ring me back after four', '2026-12-03T15:55:00Z', { by: 'agent-after', afterMinutes: 30 })).toEqual({
      at: '2026-12-03T16:25:00.000Z',
      said: "I'll ring you back at 4:25pm today from this number.",
    });
  });

  it("'agent-after' keeps a time past the owner's window", () => {
    expect(time('ring me back after four', '2026-12-03T10:00:00Z', { by: 'agent-after', afterMinutes: 30 }).at).toBe('2026-12-03T16:00:00.000Z');
  });

  it('no time named (a CALL reply) is the owner window, then the next open moment', () => {
    expect(time('', '2026-12-03T10:00:00Z', { afterMinutes: 20 }).at).toBe('2026-12-03T10:20:00.000Z');
    expect(time('', '2026-12-03T17:20:00Z', { by: 'agent-after', afterMinutes: 20 }).at).toBe('2026-12-04T09:00:00.000Z');
  });

  it('a business closed for weeks agrees no time and says the owner will ring', () => {
    const closed: BusinessHours = { hours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] }, holidayNations: [] };
    expect(time('after four', '2026-12-03T10:00:00Z', { hours: closed, by: 'agent-after' })).toEqual({ at: null, said: "I'll pass on that you'd like a call back, and they'll ring you as soon as they can." });
  });
});
