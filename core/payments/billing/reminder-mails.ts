// The billing reminders (BILLING=stripe): plain UK English, one function per message, no I/O.
import type { Brand, MailMessage } from '../../mail/templates.js';

const day = (t: Date) => t.toLocaleDateString('en-GB', { timeZone: 'Europe/London', weekday: 'long', day: 'numeric', month: 'long' });
const hello = (name: string | null) => `Hello${name ? ` ${name}` : ''},\n\n`;
const signOff = (b: Brand) => `\nIf you have any questions, reply to this e-mail or write to ${b.supportName} at ${b.supportEmail}.\n\nThe ${b.productName} team\n`;

/** Pence of a currency as a UK reader writes it: £39.00. */
export function money(pence: number, currency: string): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency.toUpperCase() }).format(pence / 100);
}

export function trialEndingMail(b: Brand, to: string, businessName: string | null, ends: Date): MailMessage {
  return {
    to,
    subject: 'Add a card to keep your line answering',
    text:
      hello(businessName) +
      `Your free trial ends on ${day(ends)}. After that your line stops answering calls until a card is added.\n\n` +
      `Add a card under Account Settings at ${b.publicUrl}/dashboard/account: nothing is charged until your trial ends, and you can cancel anytime.\n` +
      signOff(b),
  };
}

export function renewalMail(b: Brand, to: string, businessName: string | null, on: Date, amount: string | null): MailMessage {
  return {
    to,
    subject: `Your ${b.productName} plan renews on ${day(on)}`,
    text:
      hello(businessName) +
      `Your Professional Plan renews on ${day(on)}${amount ? `, when ${amount} is taken from your card` : ''}.\n\n` +
      `Nothing needs doing to keep your line answering. To change your mind, cancel under Account Settings at ${b.publicUrl}/dashboard/account before then: your plan runs to the end of the month you have paid for.\n` +
      signOff(b),
  };
}
