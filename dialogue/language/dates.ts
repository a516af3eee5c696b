import { LANGUAGE_WRITING, type LanguageCode } from './languages.js';

// How a booking's date and time are said and written, for every language, from the instant,
// always in London (the box's diary is a UK one). Intl gives each locale's weekday and month
// names and its clock; English says the time in words ("ten o'clock"), so a voice reads it the
// same way every time, and its texts keep the short "Tue 3 Dec, 10:00".

const LONDON = 'Europe/London';

const formats = new Map<string, Intl.DateTimeFormat>();

/** The locale's words for the weekday, the day and the month, and the 24-hour clock, in London. */
function londonFormat(locale: string): Intl.DateTimeFormat {
  let f = formats.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { timeZone: LONDON, weekday: 'long', day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit', hourCycle: 'h23' });
    formats.set(locale, f);
  }
  return f;
}

/** The London wall clock of an instant, with English's day and month names. */
function englishParts(start: Date) {
  const parts = londonFormat(LANGUAGE_WRITING.en.locale).formatToParts(start);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  return { weekday: part('weekday'), day: Number(part('day')), month: part('month'), hour: Number(part('hour')), minute: Number(part('minute')) };
}

const HOURS = ['twelve', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven'];
const ONES = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty'];

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

const minuteWords = (m: number) => (m < 10 ? `oh ${ONES[m]}` : m < 20 ? ONES[m]! : `${TENS[Math.floor(m / 10)]}${m % 10 ? `-${ONES[m % 10]}` : ''}`);

/** "ten o'clock", "half past two", "quarter to four", "ten twenty", "twelve noon". */
function spokenClock(h: number, m: number): string {
  if (h === 12 && m === 0) return 'twelve noon';
  const name = (hour: number) => HOURS[hour % 12]!;
  if (m === 0) return `${name(h)} o'clock`;
  if (m === 15) return `quarter past ${name(h)}`;
  if (m === 30) return `half past ${name(h)}`;
  if (m === 45) return `quarter to ${name(h + 1)}`;
  return `${name(h)} ${minuteWords(m)}`;
}

/** "Tuesday the 3rd of December at ten o'clock". */
export function spokenWhen(start: Date): string {
  const p = englishParts(start);
  return `${p.weekday} the ${ordinal(p.day)} of ${p.month} at ${spokenClock(p.hour, p.minute)}`;
}

/** For texts: "Tue 3 Dec, 10:00" (London). */
export function shortWhen(start: Date): string {
  const p = englishParts(start);
  const two = (n: number) => String(n).padStart(2, '0');
  // The first three letters, not Intl's short month: en-GB abbreviates September "Sept".
  return `${p.weekday.slice(0, 3)} ${p.day} ${p.month.slice(0, 3)}, ${two(p.hour)}:${two(p.minute)}`;
}

/** A time as `language` says it: "wtorek, 1 grudnia 10:00" (the 24-hour clock, so no "AM" in another script). */
export function localWhen(language: Exclude<LanguageCode, 'en'>, start: Date): string {
  return londonFormat(LANGUAGE_WRITING[language].locale).format(start);
}
