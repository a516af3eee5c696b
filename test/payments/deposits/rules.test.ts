// Issue 59 part B, the pure rules: what a cancelled booking's paid deposit becomes, the texts'
// words (amounts in pounds, the hold's end as a London clock), and Stripe's failures in plain words.
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { connectedWords, depositMovedOn, sessionExpiry, settlementOf, troubleOf, troubleWords } from '../../../core/payments/deposits/rules.js';
import { heldUntil, paidText, pounds } from '../../../core/payments/deposits/texts.js';

describe('deposit rules', () => {
  it('refunds on every cancellation but a caller\'s under a keeping policy', () => {
    expect(settlementOf('owner', false)).toBe('refund');
    expect(settlementOf('unpaid', false)).toBe('refund');
    expect(settlementOf('caller', true)).toBe('refund');
    expect(settlementOf('caller', false)).toBe('keep');
  });

  it('leaves a moved booking\'s deposit to the booking it moved to, but not a row cancelled as moved that went nowhere', () => {
    expect(depositMovedOn({ cancelledBy: 'moved', movedToId: 12 })).toBe(true);
    expect(depositMovedOn({ cancelledBy: 'moved', movedToId: null })).toBe(false);
    expect(depositMovedOn({ cancelledBy: 'owner', movedToId: null })).toBe(false);
  });

  it('says amounts in pounds and the hold\'s end as London\'s clock, naming the day only when it is not today', () => {
    expect(pounds(2000)).toBe('£20.00');
    expect(pounds(35)).toBe('£0.35');
    // 13:30 UTC in June is 14:30 in London.
    expect(heldUntil(new Date('2026-06-09T13:30:00Z'), new Date('2026-06-09T13:00:00Z'))).toBe('14:30');
    expect(heldUntil(new Date('2026-12-09T00:10:00Z'), new Date('2026-12-08T23:50:00Z'))).toBe('Wed 9 Dec, 00:10');
    const facts = { business: 'Hartley Plumbing', service: 'boiler service', start: new Date('2026-12-08T10:00:00Z'), pence: 2000 };
    expect(paidText(facts, '  ')).toBe('Hartley Plumbing: thank you, your £20.00 deposit is paid and your boiler service on Tue 8 Dec, 10:00 is confirmed. Reply C to cancel.');
  });

  it('tells a wrong key, a missing right, an outage and a refusal apart', () => {
    const err = (type: string, statusCode: number) => Stripe.errors.StripeError.generate({ type, message: 'x', statusCode } as never);
    expect(troubleOf(new Stripe.errors.StripeAuthenticationError({ message: 'Invalid API Key provided: rk_test_****0001' }))).toEqual({ kind: 'wrong-key' });
    expect(troubleOf(new Stripe.errors.StripePermissionError({ message: 'no' }), 'refunds')).toEqual({ kind: 'missing-right', right: 'Refunds: Write' });
    expect(troubleOf(new Stripe.errors.StripeConnectionError({ message: 'ECONNREFUSED' }))).toEqual({ kind: 'unreachable' });
    expect(troubleOf(err('invalid_request_error', 400))).toEqual({ kind: 'refused', detail: 'x' });
    expect(troubleWords({ kind: 'missing-right', right: 'Checkout Sessions: Write' })).toContain('"Checkout Sessions: Write"');
    expect(connectedWords('Hartley Plumbing Ltd', false)).toBe('Connected to Hartley Plumbing Ltd (test mode).');
    expect(connectedWords(null, true)).toBe('Connected to your Stripe account.');
  });

  it('keeps the pay link\'s expiry inside Stripe\'s 30 minutes to 24 hours, with a margin, and at the hold\'s end between', () => {
    const now = new Date('2026-12-08T09:00:05Z');
    const min = (m: number) => new Date(now.getTime() + m * 60_000);
    // A 30-minute hold claimed a few seconds ago: under Stripe's 30 minutes, so 32 from now.
    expect(sessionExpiry(new Date('2026-12-08T09:30:00Z'), now)).toEqual(min(32));
    expect(sessionExpiry(min(90), now)).toEqual(min(90));
    // A 24-hour hold: two minutes short of Stripe's 24 hours.
    expect(sessionExpiry(min(24 * 60), now)).toEqual(min(24 * 60 - 2));
  });
});
