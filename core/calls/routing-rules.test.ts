import { describe, expect, it } from 'vitest';
import { decideRoute, type OwnerFacts } from './routing-rules.js';

const now = new Date('2026-03-01T12:00:00Z');
const owner = (o: Partial<OwnerFacts> = {}): OwnerFacts => ({ id: 7, accountStatus: 'active', trialExpiresAt: null, aiMode: 'voicemail', ...o });
const assigned = { userId: 7, releasedAt: null };

describe('decideRoute', () => {
  it('sends a DID with no number row to the not-in-service message', () => {
    expect(decideRoute(undefined, undefined, now)).toEqual({ kind: 'not-in-service' });
  });

  it('treats an unassigned or released number as not in service', () => {
    expect(decideRoute({ userId: null, releasedAt: null }, undefined, now).kind).toBe('not-in-service');
    expect(decideRoute({ userId: 7, releasedAt: new Date('2026-02-01') }, owner(), now).kind).toBe('not-in-service');
  });

  it.each(['pending_approval', 'suspended', 'rejected', 'expired'] as const)('gives a %s owner the unavailable outcome', (status) => {
    expect(decideRoute(assigned, owner({ accountStatus: status }), now)).toEqual({ kind: 'unavailable', userId: 7, reason: status });
  });

  it('treats an active owner whose trial has run out as expired before housekeeping catches up', () => {
    expect(decideRoute(assigned, owner({ trialExpiresAt: new Date('2026-03-01T11:59:59Z') }), now)).toEqual({
      kind: 'unavailable',
      userId: 7,
      reason: 'expired',
    });
  });

  it('answers an active owner in the owner’s mode', () => {
    expect(decideRoute(assigned, owner({ trialExpiresAt: new Date('2026-03-05') }), now)).toEqual({ kind: 'answer', userId: 7, mode: 'voicemail' });
    expect(decideRoute(assigned, owner({ aiMode: 'agent' }), now)).toEqual({ kind: 'answer', userId: 7, mode: 'agent' });
  });
});
