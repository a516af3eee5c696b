import { describe, expect, it } from 'vitest';
import { median, SLOW_BOX_DEFAULTS, SlowBoxRule } from './slow-box-rule.js';

const rule = () => new SlowBoxRule({ ...SLOW_BOX_DEFAULTS, limitMs: 2000 });
const feed = (r: SlowBoxRule, ms: number, n: number) => Array.from({ length: n }, () => r.record(ms));

describe('median', () => {
  it('takes the middle of an odd count and the mean of the two middles of an even one', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });
});

describe('SlowBoxRule (the slow-box guard)', () => {
  it('stays open until a full window of 20 turns has a median above the limit', () => {
    const r = rule();
    expect(feed(r, 3000, 19).filter(Boolean)).toEqual([]);
    expect(r.closed).toBe(false);
    expect(r.record(3000)).toBe('closed');
    expect(r.closed).toBe(true);
  });

  it('stays open when the median is at the limit, however slow a few turns are', () => {
    const r = rule();
    feed(r, 9000, 9);
    feed(r, 2000, 11);
    expect(r.closed).toBe(false);
    expect(r.admitNew()).toBe(true);
  });

  it('looks at the last 20 turns only: old fast turns roll out', () => {
    const r = rule();
    feed(r, 500, 20);
    expect(feed(r, 2500, 10).filter(Boolean)).toEqual([]);
    expect(r.record(2500)).toBe('closed');
  });

  it('while closed, lets one new call in every 5 through as a trial and refuses the rest', () => {
    const r = rule();
    feed(r, 3000, 20);
    expect(Array.from({ length: 10 }, () => r.admitNew())).toEqual([false, false, false, false, true, false, false, false, false, true]);
  });

  it('reopens on 3 fresh turns with a median at or below 75 % of the limit, not on the turns that closed it', () => {
    const r = rule();
    feed(r, 3000, 20);
    expect(r.p50()).toBe(0);
    expect(feed(r, 1400, 2)).toEqual([undefined, undefined]);
    expect(r.record(1500)).toBe('opened');
    expect(r.admitNew()).toBe(true);
  });

  it('stays closed while fresh turns are just under the limit (hysteresis)', () => {
    const r = rule();
    feed(r, 3000, 20);
    expect(feed(r, 1900, 10).filter(Boolean)).toEqual([]);
    expect(r.closed).toBe(true);
  });

  it('is off with a limit of 0', () => {
    const r = new SlowBoxRule({ ...SLOW_BOX_DEFAULTS, limitMs: 0 });
    expect(feed(r, 60_000, 40).filter(Boolean)).toEqual([]);
    expect(r.admitNew()).toBe(true);
  });
});
