import { describe, expect, it } from 'vitest';
import { depositReturnWords } from './deposit-return-words';

describe('the caller\'s pages after Stripe Checkout', () => {
  it('say plainly what happens next, and nothing private', () => {
    expect(depositReturnWords('thanks').text).toBe('Thank you: your deposit is being confirmed. You will get a text when your booking is confirmed.');
    expect(depositReturnWords('notPaid').text).toBe('Your deposit was not paid. Your time is held until the time given in your text; use the link in your text to pay, or ring us.');
  });
});
