import { describe, expect, it } from 'vitest';
import { DEPOSIT_STATES } from '../../../contract/enums';
import { depositTone, depositWords, serviceDepositWords } from './deposit-words';

// 2 December 2026 is GMT; 14:30 London is 14:30Z. A summer instant checks the clock is London's.
const now = new Date('2026-12-02T14:00:00Z');

describe('depositWords', () => {
  it('says until when a hold waits, in London time', () => {
    expect(depositWords('awaiting', '2026-12-02T14:30:00Z', now)).toBe('Awaiting deposit until 14:30');
    expect(depositWords('awaiting', '2026-07-01T13:30:00Z', new Date('2026-07-01T13:00:00Z'))).toBe('Awaiting deposit until 14:30');
  });
  it('names the day when the hold ends on another London day', () => {
    expect(depositWords('awaiting', '2026-12-03T09:15:00Z', now)).toBe('Awaiting deposit until 09:15 on 03/12/2026');
    // 23:30Z in summer is already the next day in London.
    expect(depositWords('awaiting', '2026-07-01T23:30:00Z', new Date('2026-07-01T20:00:00Z'))).toBe('Awaiting deposit until 00:30 on 02/07/2026');
  });
  it('says the other states in plain words', () => {
    expect(depositWords('paid', null, now)).toBe('Deposit paid');
    expect(depositWords('expired', null, now)).toBe('Released: not paid');
    expect(depositWords('refunded', null, now)).toBe('Deposit refunded');
    expect(depositWords('kept', null, now)).toBe('Deposit kept');
    expect(depositWords('requested', null, now)).toBe('Deposit needed: caller not texted');
    expect(depositWords('awaiting', null, now)).toBe('Awaiting deposit');
  });
  it('has words and a colour for every state the contract names', () => {
    for (const s of DEPOSIT_STATES) {
      expect(depositWords(s, '2026-12-02T14:30:00Z', now)).toMatch(/\w/);
      expect(['amber', 'green', 'blue', 'gray']).toContain(depositTone(s));
    }
    expect(depositTone('awaiting')).toBe('amber');
    expect(depositTone('paid')).toBe('green');
  });
});

describe('serviceDepositWords', () => {
  const service = { depositKind: 'none' as const, depositPence: null, pricePence: null, depositHoldMinutes: 30 };
  it("says a service's deposit and how long the caller has to pay it", () => {
    expect(serviceDepositWords({ ...service, depositKind: 'fixed', depositPence: 2000, depositHoldMinutes: 60 })).toBe('£20.00 deposit, paid within 60 minutes');
    expect(serviceDepositWords({ ...service, depositKind: 'full', pricePence: 4500 })).toBe('The full price (£45.00) paid first, within 30 minutes');
  });
  it('says nothing when no deposit is taken', () => {
    expect(serviceDepositWords(service)).toBeNull();
    expect(serviceDepositWords({ ...service, pricePence: 4500 })).toBeNull();
  });
});
