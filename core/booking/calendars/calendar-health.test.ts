import { describe, expect, it } from 'vitest';
import { CalendarHealth, watchedReader } from './calendar-health.js';
import { CalendarUnavailable, type CalendarReader } from './calendar-gate.js';

const T0 = new Date('2026-12-01T09:00:00Z');
const T1 = new Date('2026-12-01T09:05:00Z');

function reader(outcome: () => Promise<never> | Promise<[]>): CalendarReader {
  return { busy: () => outcome() };
}

describe('the calendar watched for the Calendar tab', () => {
  it('keeps when the calendar first failed and the latest reason, until it answers again', async () => {
    const health = new CalendarHealth();
    let at = T0;
    let fail = true;
    const watched = watchedReader(reader(() => (fail ? Promise.reject(new Error('the calendar answered HTTP 500')) : Promise.resolve([]))), health, () => at);
    await expect(watched.busy(7, 0, 1, { boundMs: 1000 })).rejects.toThrow('HTTP 500');
    at = T1;
    await expect(watched.busy(7, 0, 1, { boundMs: 1000 })).rejects.toThrow('HTTP 500');
    expect(health.of(7)).toEqual({ since: T0, reason: 'the calendar answered HTTP 500' });
    expect(health.of(8)).toBeNull();
    fail = false;
    await watched.busy(7, 0, 1, { boundMs: 1000 });
    expect(health.of(7)).toBeNull();
  });

  it('a read cut off by its time bound is "did not answer in time"; one the caller gave up on is not held against the calendar', async () => {
    const health = new CalendarHealth();
    const hungUp = new AbortController();
    hungUp.abort(new DOMException('hung up', 'AbortError'));
    const watched = watchedReader(reader(() => Promise.reject(new CalendarUnavailable('the calendar did not answer within 1500 ms', 'it did not answer in time'))), health, () => T0);
    await expect(watched.busy(7, 0, 1, { boundMs: 1500, signal: hungUp.signal })).rejects.toThrow();
    expect(health.of(7)).toBeNull();
    await expect(watched.busy(7, 0, 1, { boundMs: 1500 })).rejects.toThrow();
    expect(health.of(7)).toEqual({ since: T0, reason: 'it did not answer in time' });
  });
});
