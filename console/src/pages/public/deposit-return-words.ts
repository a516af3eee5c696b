// The caller's pages after Stripe Checkout (issue 59): Stripe sends the caller's browser to
// /deposit/thanks or /deposit/not-paid (core/payments/deposits/gateway.ts). The URL carries
// nothing about the booking, so the pages say nothing private and ask the server nothing: a
// booking is confirmed only by Stripe's signed webhook, never by a visit here.

/** Which page: /deposit/thanks (Stripe's success_url) or /deposit/not-paid (its cancel_url). */
export type DepositReturn = 'thanks' | 'notPaid';

export function depositReturnWords(kind: DepositReturn): { title: string; text: string } {
  return kind === 'thanks'
    ? { title: 'Thank you', text: 'Thank you: your deposit is being confirmed. You will get a text when your booking is confirmed.' }
    : { title: 'Your deposit was not paid', text: 'Your deposit was not paid. Your time is held until the time given in your text; use the link in your text to pay, or ring us.' };
}
