import { describe, expect, it } from 'vitest';
import {
  capitalise,
  formatAdminPhone,
  formatCallDate,
  formatDate,
  formatDateTime,
  formatDayMonth,
  formatGBP,
  formatMinSec,
  formatMmSs,
  formatPhone,
  formatRelative,
  londonIsoDate,
} from './format';

describe('phone formats', () => {
  it('customer screens: +CC XXX XXX XXXX', () => {
    expect(formatPhone('+447700900123')).toBe('+44 770 090 0123');
    expect(formatPhone(null)).toBe('N/A');
    expect(formatPhone('anonymous')).toBe('anonymous');
  });
  it('admin table: +CC XXXX XXX XXX(X)', () => {
    expect(formatAdminPhone('+447700900123')).toBe('+44 7700 900 123');
    expect(formatAdminPhone('+4477009001234')).toBe('+44 7700 900 1234');
    expect(formatAdminPhone('')).toBe('N/A');
  });
});

describe('dates in Europe/London', () => {
  // 12:30 UTC in July is 13:30 in London (BST); in January London is on UTC.
  const summer = '2026-07-04T12:30:00.000Z';
  const winter = '2026-01-09T23:05:00.000Z';
  it('dd/MM/yyyy, dd/MM/yyyy HH:mm and the call-card form', () => {
    expect(formatDate(summer)).toBe('04/07/2026');
    expect(formatDateTime(summer)).toBe('04/07/2026 13:30');
    expect(formatDateTime(winter)).toBe('09/01/2026 23:05');
    expect(formatCallDate(summer)).toBe('04/07/2026 at 13:30');
    expect(formatCallDate(null)).toBe('N/A');
    expect(formatDate('not a date')).toBe('N/A');
  });
  it('crosses midnight by London time, not UTC', () => {
    expect(formatDate('2026-07-04T23:30:00.000Z')).toBe('05/07/2026');
    expect(londonIsoDate('2026-07-04T23:30:00.000Z')).toBe('2026-07-05');
  });
  it('volume chart days read as calendar days', () => {
    expect(formatDayMonth('2026-03-29')).toBe('29/03');
  });
  it('relative times', () => {
    const now = new Date('2026-05-10T12:00:00Z');
    expect(formatRelative('2026-05-07T12:00:00Z', now)).toBe('3 days ago');
    expect(formatRelative('2026-05-17T12:00:00Z', now)).toBe('next week');
    expect(formatRelative('2026-05-12T12:00:00Z', now)).toBe('in 2 days');
    expect(formatRelative(null, now)).toBe('N/A');
  });
});

describe('durations and money', () => {
  it('m:ss', () => {
    expect(formatMmSs(0)).toBe('0:00');
    expect(formatMmSs(65)).toBe('1:05');
    expect(formatMmSs(600)).toBe('10:00');
    expect(formatMmSs(null)).toBe('N/A');
  });
  it('Xm Ys', () => {
    expect(formatMinSec(125)).toBe('2m 5s');
    expect(formatMinSec(59.6)).toBe('1m 0s');
    expect(formatMinSec(0)).toBe('0m 0s');
  });
  it('£ to two decimals', () => {
    expect(formatGBP(1)).toBe('£1.00');
    expect(formatGBP(1234.5)).toBe('£1,234.50');
  });
  it('capitalises roles', () => {
    expect(capitalise('customer')).toBe('Customer');
  });
});
