import { sentenceStart } from '../../contract/member-name.js';
import type { BookableService } from '../agent/booking-desk.js';
import { spokenNumber } from '../spoken/transfer.js';
import type { Catalogue } from './catalogue/catalogue.js';
import { en } from './catalogue/en.js';
import { CATALOGUES } from './catalogues.js';
import { localWhen } from './dates.js';
import { LANGUAGE_WRITING, type LanguageCode } from './languages.js';
import { render } from './render.js';

// What the agent says while it books (issue 41), in the caller's language (issue 42), from its
// catalogue: fixed texts around what the diary gave, so every time and date spoken comes from
// the desk's instant (dates.ts), never from the model.

/** A time as the desk gave it (an offered slot, a booking). */
interface SpokenTime {
  start: Date;
  /** The desk's English words for it (dates.ts spokenWhen of `start`). */
  spoken: string;
  /** Who it is with, when the business has more than the owner doing it (issue 58). */
  staffName?: string;
}

/** A booking (or an offered slot) as it is said: its time and its service. */
type SpokenBooking = SpokenTime & { serviceName: string };

export const BOOKING_LINES = en.booking;

/** How the agent says each booking line in one language. */
export interface BookingSpeech {
  lines: Catalogue['booking'];
  /** A time as this language says it, in London. */
  when(slot: SpokenTime): string;
  offerTimes(slots: SpokenTime[]): string;
  whichService(services: Pick<BookableService, 'name'>[]): string;
  /** The booking whole: "Tuesday the 3rd of December at ten o'clock, boiler service". */
  words(b: SpokenBooking): string;
  readBack(slot: SpokenBooking, name: string, callerNumber: string): string;
  booked(b: SpokenBooking): string;
  moved(b: SpokenBooking): string;
  cancelled(b: SpokenBooking): string;
  kept(b: SpokenBooking): string;
  existingBooking(b: SpokenBooking): string;
  /** A role the caller asked for that nobody doing the service has (issue 58): said before the soonest times with anyone. */
  noRole(roleWord: string): string;
  /** A booking that needs a deposit (issue 59): the amount and the hold said as this language says them. */
  deposit: {
    held(pence: number, holdMinutes: number): string;
    untextable(pence: number): string;
    unavailable: string;
    cardLinkOnly: string;
    anythingElse: string;
  };
}

/**
 * A deposit as a caller hears it: "£20" and "£12.50" in English (which its voices read as
 * pounds), the currency's name elsewhere ("20 funtów szterlingów"), since a symbol is not what
 * every voice reads aloud.
 */
export function spokenAmount(language: LanguageCode, pence: number): string {
  const fraction = pence % 100 === 0 ? 0 : 2;
  return new Intl.NumberFormat(LANGUAGE_WRITING[language].locale, {
    style: 'currency', currency: 'GBP', currencyDisplay: language === 'en' ? 'symbol' : 'name', minimumFractionDigits: fraction, maximumFractionDigits: 2,
  }).format(pence / 100);
}

/** How long a time is held: the catalogue's "an hour", else Intl's "2 hours" or "90 minutes" with the language's plurals. */
export function spokenHold(language: LanguageCode, minutes: number): string {
  if (minutes === 60) return CATALOGUES[language].deposit.holdHour;
  const [value, unit] = minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return new Intl.NumberFormat(LANGUAGE_WRITING[language].locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

/** "A, B, or C" as the catalogue joins it, else as the locale does. */
function orJoiner(c: Catalogue, locale: string): (items: string[]) => string {
  const own = c.orList;
  if (!own) {
    const or = new Intl.ListFormat(locale, { type: 'disjunction' });
    return (items) => or.format(items);
  }
  return (items) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(own.between)}${own.last}${items.at(-1)}`);
}

function speechIn(language: LanguageCode): BookingSpeech {
  const c = CATALOGUES[language];
  const said = c.bookingSaid;
  const or = orJoiner(c, LANGUAGE_WRITING[language].locale);
  // English says the desk's own words for the time, which the desk made from the same instant.
  const when = (slot: SpokenTime) => (language === 'en' ? slot.spoken : localWhen(language, slot.start));
  const plain = (b: SpokenBooking) => render(said.booking, { when: when(b), service: b.serviceName });
  const words = (b: SpokenBooking) => (b.staffName ? render(said.withPerson, { booking: plain(b), name: b.staffName }) : plain(b));
  /** Offers that name their people: each person's run of times in turn ("Sarah can do … Tom can do …"). */
  const byPerson = (slots: SpokenTime[]) => {
    const runs: Array<{ name: string; times: string[] }> = [];
    for (const s of slots) {
      const last = runs.at(-1);
      if (last && last.name === s.staffName) last.times.push(when(s));
      else runs.push({ name: s.staffName ?? '', times: [when(s)] });
    }
    return render(said.offerPeople, { offers: runs.map((r) => sentenceStart(render(said.personCan, { name: r.name, times: or(r.times) }))).join(' ') });
  };
  const withBooking = (line: string) => (b: SpokenBooking) => render(line, { booking: words(b) });
  return {
    lines: c.booking,
    when,
    offerTimes(slots) {
      if (slots.some((s) => s.staffName)) return byPerson(slots.slice(0, 3));
      const times = slots.slice(0, 3).map(when);
      return times.length === 1 ? render(said.offerOne, { time: times[0]! }) : render(said.offerMany, { times: or(times) });
    },
    whichService: (services) => render(said.whichService, { services: or(services.map((s) => s.name)) }),
    words,
    readBack: (slot, name, callerNumber) => render(said.readBack, { booking: words(slot), name, number: spokenNumber(callerNumber) }),
    booked: withBooking(said.booked),
    moved: withBooking(said.moved),
    cancelled: withBooking(said.cancelled),
    kept: withBooking(said.kept),
    existingBooking: withBooking(said.existing),
    noRole: (roleWord) => render(said.noRole, { role: roleWord }),
    deposit: {
      held: (pence, holdMinutes) => render(c.deposit.held, { amount: spokenAmount(language, pence), hold: spokenHold(language, holdMinutes) }),
      untextable: (pence) => render(c.deposit.untextable, { amount: spokenAmount(language, pence) }),
      unavailable: c.deposit.unavailable,
      cardLinkOnly: c.deposit.cardLinkOnly,
      anythingElse: c.deposit.anythingElse,
    },
  };
}

const SPEECH = new Map<LanguageCode, BookingSpeech>();

/** The booking lines a caller answered in `language` hears (made once per language). */
export function bookingSpeech(language: LanguageCode): BookingSpeech {
  let s = SPEECH.get(language);
  if (!s) SPEECH.set(language, (s = speechIn(language)));
  return s;
}

/** English's, by the names the flows' tests and the model's step prompt use. */
export const { offerTimes, readBack, booked, words: bookingWords } = bookingSpeech('en');
