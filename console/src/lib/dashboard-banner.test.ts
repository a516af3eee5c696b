import { describe, expect, it } from 'vitest';
import { dashboardBanner } from './dashboard-banner';

const trialEnding = { kind: 'trial-ending' as const, days: 2, trialExpiresAt: '2026-12-04T12:00:00Z' };
const off = { enabled: false, banner: null };

describe('dashboardBanner', () => {
  it('without billing, the console keeps its own banner', () => {
    expect(dashboardBanner(trialEnding, off)).toEqual({ kind: 'account', banner: trialEnding });
    expect(dashboardBanner(trialEnding, undefined)).toEqual({ kind: 'account', banner: trialEnding });
    expect(dashboardBanner(null, off)).toBeNull();
  });
  it("with billing, the server's words replace it; urgent while the line is paused", () => {
    const ending = 'Your free trial ends on 4 Dec: add a card to keep your line answering';
    expect(dashboardBanner(trialEnding, { enabled: true, banner: ending })).toEqual({ kind: 'billing', text: ending, urgent: false });
    const paused = 'Your free trial has ended: add a card to turn your line back on';
    expect(dashboardBanner({ kind: 'trial-over' }, { enabled: true, banner: paused })).toEqual({ kind: 'billing', text: paused, urgent: true });
    const grace = 'Your last payment failed: update your card by 9 Dec or your line pauses';
    expect(dashboardBanner(null, { enabled: true, banner: grace })).toEqual({ kind: 'billing', text: grace, urgent: false });
  });
  it("an admin's suspension keeps its own words, and no server banner leaves the console's", () => {
    expect(dashboardBanner({ kind: 'suspended' }, { enabled: true, banner: 'Your plan has ended' })).toEqual({ kind: 'account', banner: { kind: 'suspended' } });
    expect(dashboardBanner({ kind: 'expired' }, { enabled: true, banner: null })).toEqual({ kind: 'account', banner: { kind: 'expired' } });
  });
});
