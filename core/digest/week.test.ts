import { describe, expect, it } from 'vitest';
import { digestWeek } from './week.js';

const utc = (iso: string) => Date.parse(iso);
const hours = (ms: number) => ms / 3_600_000;

describe('the weekly digest week (Europe/London)', () => {
  it('is due at 08:00 UTC on a winter Monday and reports on the seven days before', () => {
    const w = digestWeek(utc('2027-01-13T15:00:00Z')); // a Wednesday
    expect(w.weekOf).toBe('2027-01-11');
    expect(new Date(w.dueAt).toISOString()).toBe('2027-01-11T08:00:00.000Z');
    expect(w.days.map((d) => d.date)).toEqual(['2027-01-04', '2027-01-05', '2027-01-06', '2027-01-07', '2027-01-08', '2027-01-09', '2027-01-10']);
    expect(new Date(w.from).toISOString()).toBe('2027-01-04T00:00:00.000Z');
    expect(new Date(w.to).toISOString()).toBe('2027-01-11T00:00:00.000Z');
  });

  it('is due at 07:00 UTC (08:00 BST) on the Monday after the clocks go forward, over a 167-hour week', () => {
    const w = digestWeek(utc('2027-03-29T06:59:59Z')); // 07:59:59 BST on Monday 29 March
    expect(w.weekOf).toBe('2027-03-29');
    expect(new Date(w.dueAt).toISOString()).toBe('2027-03-29T07:00:00.000Z');
    expect(new Date(w.to).toISOString()).toBe('2027-03-28T23:00:00.000Z'); // London midnight in BST
    expect(hours(w.to - w.from)).toBe(167);
    const sunday = w.days[6]!;
    expect(sunday.date).toBe('2027-03-28');
    expect(hours(sunday.end - sunday.start)).toBe(23);
  });

  it('is due at 08:00 UTC on the Monday after the clocks go back, over a 169-hour week', () => {
    const w = digestWeek(utc('2027-11-01T07:30:00Z')); // 07:30 GMT on Monday 1 November
    expect(w.weekOf).toBe('2027-11-01');
    expect(new Date(w.dueAt).toISOString()).toBe('2027-11-01T08:00:00.000Z');
    expect(new Date(w.from).toISOString()).toBe('2027-10-24T23:00:00.000Z'); // Monday 25 October 00:00 BST
    expect(hours(w.to - w.from)).toBe(169);
    expect(hours(w.days[6]!.end - w.days[6]!.start)).toBe(25);
  });

  it('puts Sunday 23:30 BST in the week before and Monday 00:30 BST in the new one', () => {
    expect(digestWeek(utc('2027-06-06T22:30:00Z')).weekOf).toBe('2027-05-31'); // Sunday 6 June 23:30 BST
    expect(digestWeek(utc('2027-06-06T23:30:00Z')).weekOf).toBe('2027-06-07'); // Monday 7 June 00:30 BST
  });
});
