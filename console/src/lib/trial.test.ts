import { describe, expect, it } from 'vitest';
import { daysRemaining, extendedTrialExpiry, isTrialExpired, trialBadge } from './trial';

const now = new Date('2026-05-10T12:00:00Z');
const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000).toISOString();

describe('trial', () => {
  it('rounds the days remaining up', () => {
    expect(daysRemaining(inDays(2.1), now)).toBe(3);
    expect(daysRemaining(inDays(0.01), now)).toBe(1);
  });
  it('is expired once the date has passed', () => {
    expect(isTrialExpired(inDays(-0.001), now)).toBe(true);
    expect(isTrialExpired(inDays(0.001), now)).toBe(false);
  });
  it('badge text and highlight at 3 days or fewer', () => {
    expect(trialBadge(inDays(-1), now)).toEqual({ text: 'Expired', urgent: true, expired: true });
    expect(trialBadge(inDays(0.5), now).text).toBe('1 day remaining');
    expect(trialBadge(inDays(3), now)).toEqual({ text: '3 days remaining', urgent: true, expired: false });
    expect(trialBadge(inDays(4), now).urgent).toBe(false);
  });
  it('extends to now + 7 days', () => {
    expect(extendedTrialExpiry(now)).toBe('2026-05-17T12:00:00.000Z');
  });
});
