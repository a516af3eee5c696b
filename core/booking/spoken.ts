import { londonWall } from './london-wall.js';

// How the agent and the texts say a booking's time, in London: "Tuesday the 3rd of December at
// ten o'clock". Spoken words, not digits, so the voice reads it the same way every time.

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
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
function spokenClock(minuteOfDay: number): string {
  const h = Math.floor(minuteOfDay / 60);
  const m = minuteOfDay % 60;
  if (h === 12 && m === 0) return 'twelve noon';
  const name = (hour: number) => HOURS[hour % 12]!;
  if (m === 0) return `${name(h)} o'clock`;
  if (m === 15) return `quarter past ${name(h)}`;
  if (m === 30) return `half past ${name(h)}`;
  if (m === 45) return `quarter to ${name(h + 1)}`;
  return `${name(h)} ${minuteWords(m)}`;
}

/** "Tuesday the 3rd of December" for an instant, in London. */
function spokenDate(t: number): string {
  const w = londonWall(t);
  return `${DAYS[w.weekday]} the ${ordinal(w.date)} of ${MONTHS[w.month]}`;
}

/** "Tuesday the 3rd of December at ten o'clock". */
export function spokenWhen(start: Date): string {
  return `${spokenDate(start.getTime())} at ${spokenClock(londonWall(start.getTime()).minute)}`;
}

/** For texts: "Tue 3 Dec, 10:00" (London). */
export function shortWhen(start: Date): string {
  const w = londonWall(start.getTime());
  const hh = String(Math.floor(w.minute / 60)).padStart(2, '0');
  const mm = String(w.minute % 60).padStart(2, '0');
  return `${DAYS[w.weekday]!.slice(0, 3)} ${w.date} ${MONTHS[w.month]!.slice(0, 3)}, ${hh}:${mm}`;
}
