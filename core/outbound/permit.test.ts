import { describe, expect, it } from 'vitest';
import { DEFAULT_OUTBOUND_POLICY, outboundPermit } from './permit.js';

// The daily cap and the put-through limit together (issue 39): how long a call placed now may
// last once answered, given what the owner's calls today took or, still in progress, may take.

const now = new Date('2026-11-27T12:00:00Z');
const owner = { accountStatus: 'active' as const, trialExpiresAt: null };
const policy = { ...DEFAULT_OUTBOUND_POLICY, dailyMinutes: 120, answeredMaxSeconds: 1800 };
const permit = (usedSeconds: number, p = policy) => outboundPermit({ owner, number: '+447400123456', usedSeconds, policy: p, now });

describe('outboundPermit', () => {
  it('allows the put-through limit when today’s minutes leave more than it', () => {
    expect(permit(0)).toEqual({ refusal: null, answeredSeconds: 1800 });
    expect(permit(120 * 60 - 1800)).toEqual({ refusal: null, answeredSeconds: 1800 });
  });

  it('allows only what is left of today’s minutes when that is less: a call started under the cap ends at it', () => {
    expect(permit(120 * 60 - 300)).toEqual({ refusal: null, answeredSeconds: 300 });
    expect(permit(120 * 60 - 1)).toEqual({ refusal: null, answeredSeconds: 1 });
  });

  it('refuses once today’s minutes are used, calls in progress included at their bound', () => {
    // A call in progress is counted in usedSeconds as the longest it may last (store.ts), so a
    // second put-through starting while the first may still use the rest is refused.
    const first = permit(120 * 60 - 600);
    expect(first).toEqual({ refusal: null, answeredSeconds: 600 });
    const ringSeconds = 20;
    const second = permit(120 * 60 - 600 + ringSeconds + 600);
    expect(second.refusal?.kind).toBe('daily-cap');
    expect(permit(120 * 60).refusal?.kind).toBe('daily-cap');
  });

  it('refuses an inactive owner and a number that may not be dialled before any limit', () => {
    expect(outboundPermit({ owner: { accountStatus: 'suspended', trialExpiresAt: null }, number: '+447400123456', usedSeconds: 0, policy, now }).refusal?.kind).toBe('inactive');
    expect(outboundPermit({ owner, number: '+449098790000', usedSeconds: 0, policy, now }).refusal?.kind).toBe('not-dialable');
  });
});
