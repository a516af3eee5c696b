import { describe, expect, it } from 'vitest';
import { BOILER_SERVICE, fakeSlots, FakeBookingDesk } from '../../test/helpers/fake-booking-desk.js';
import { BOOKING_LINES, spokenAmount, spokenHold } from '../language/booking-lines.js';
import { CATALOGUES } from '../language/catalogues.js';
import type { LanguageCode } from '../language/languages.js';
import type { BookRequest, BookResult } from './booking-desk.js';
import { BookingWalk } from './booking-walk.js';

// Issue 59: what the caller hears when the service needs a deposit: the time held and the link
// coming by text; a request to the owner when the link cannot be texted or made; a caller who
// offers a card told the link is the only way. Never a question about card details.

const TIMES = ['Tuesday the 3rd of December at ten o\'clock', 'Tuesday the 3rd of December at eleven o\'clock', 'Tuesday the 3rd of December at twelve noon'];
const CALLER = '+447700900555';

/** The fake diary, answering a booking as the real desk does for a £20 deposit service. */
class DepositFakeDesk extends FakeBookingDesk {
  constructor(private readonly answer: 'held' | 'deposit-untextable' | 'deposit-unavailable', private readonly holdMinutes = 30) {
    super({ slots: fakeSlots(TIMES) });
  }
  override async book(req: BookRequest, signal?: AbortSignal): Promise<BookResult> {
    if (this.answer !== 'held') {
      this.bookRequests.push(req);
      return { kind: 'deposit-request', why: this.answer, depositPence: 2000, reason: 'Stripe could not be reached' };
    }
    const r = await super.book(req, signal);
    return r.kind === 'booked' ? { kind: 'booked', booking: { ...r.booking, deposit: { pence: 2000, holdMinutes: this.holdMinutes } } } : r;
  }
}

async function toYes(desk: DepositFakeDesk, language: LanguageCode = 'en') {
  const walk = new BookingWalk({ desk, services: [BOILER_SERVICE], callId: 7, callerId: CALLER });
  await walk.turn(undefined, 'Can I book a boiler service on Tuesday?', undefined, language);
  await walk.turn({ choice: 's1' }, 'Ten please.', undefined, language);
  await walk.turn({ name: 'Sam Jones' }, 'Sam Jones.', undefined, language);
  return { walk, done: await walk.turn({ yes: true }, 'Yes please.', undefined, language) };
}

const saysCardQuestion = (lines: string[]) => lines.some((l) => /card (number|details)\?|long number|expiry|security code/i.test(l));

describe('BookingWalk and deposits', () => {
  it('says the time is held, the deposit, and that the link comes by text', async () => {
    const { walk, done } = await toYes(new DepositFakeDesk('held'));
    expect(done).toEqual({
      say: ["That time is held for you for 30 minutes: it needs a £20 deposit, and I'm texting you a link to pay it now.", 'Is there anything else I can help with?'],
      ended: 'booked',
    });
    expect(saysCardQuestion(done.say)).toBe(false);
    // A caller who offers their card is told the link is the only way; nothing else is asked.
    const card = await walk.turn(undefined, 'Can I not just pay by card now?');
    expect(card).toEqual({ say: ["I can't take card details on the phone; the text has a secure link."] });
    expect(walk.active).toBe(false);
  });

  it('says a longer hold in hours', async () => {
    const { done } = await toYes(new DepositFakeDesk('held', 120));
    expect(done.say[0]).toBe("That time is held for you for 2 hours: it needs a £20 deposit, and I'm texting you a link to pay it now.");
    expect([spokenHold('en', 30), spokenHold('en', 60), spokenHold('en', 90)]).toEqual(['30 minutes', 'an hour', '90 minutes']);
  });

  it('a caller who cannot be texted the link: told the deposit is needed, and the owner asked, naming the time and service', async () => {
    const desk = new DepositFakeDesk('deposit-untextable');
    const { done } = await toYes(desk);
    expect(done).toEqual({
      say: ["That booking needs a £20 deposit, paid by a link I send by text, and I can't text this number, so I'll ask the business to confirm the booking with you.", BOOKING_LINES.requestDetails],
      ended: 'request', takeMessage: true,
    });
    expect(desk.requests).toEqual([{
      callId: 7, callerName: 'Sam Jones', callerNumber: CALLER, why: 'deposit-untextable', depositPence: 2000, reason: 'Stripe could not be reached',
      wish: `boiler service, ${TIMES[0]} (asked: "Can I book a boiler service on Tuesday?")`,
    }]);
  });

  it('Stripe down: the caller told the business will confirm, and the owner asked', async () => {
    const desk = new DepositFakeDesk('deposit-unavailable');
    const { done } = await toYes(desk);
    expect(done.say).toEqual(["I can't hold that time just now, so I'll ask the business to confirm the booking with you.", BOOKING_LINES.requestDetails]);
    expect(desk.requests[0]).toMatchObject({ why: 'deposit-unavailable', depositPence: 2000 });
  });

  it("a caller answered in Polish hears the deposit in Polish, the amount and the hold in Polish's own words", async () => {
    const { walk, done } = await toYes(new DepositFakeDesk('held', 180), 'pl');
    expect(done.say).toEqual([
      'Rezerwuję dla Pana lub Pani ten termin na 3 godziny: wymaga on zaliczki w wysokości 20 funtów szterlingów, a teraz wysyłam SMS-em link do zapłaty.',
      CATALOGUES.pl.deposit.anythingElse,
    ]);
    expect(await walk.turn(undefined, 'Mogę zapłacić kartą teraz? My card is 4242 4242 4242 4242', undefined, 'pl')).toEqual({ say: [CATALOGUES.pl.deposit.cardLinkOnly] });
  });

  it('says money and holds as each language does', () => {
    expect([spokenAmount('en', 2000), spokenAmount('en', 1250), spokenAmount('en', 100000)]).toEqual(['£20', '£12.50', '£1,000']);
    expect(spokenAmount('es', 1250)).toBe('12,50 libras esterlinas');
    expect([spokenHold('pl', 60), spokenHold('pl', 120), spokenHold('pl', 300), spokenHold('ro', 30)]).toEqual(['godzinę', '2 godziny', '5 godzin', '30 de minute']);
    expect(spokenHold('ur', 90)).toBe('90 منٹ');
  });
});
