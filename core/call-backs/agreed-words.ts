import { londonWall } from '../booking/rules/london-wall.js';

// What the agent says to agree a call-back (issue 56): the time the code chose, said back in
// one fixed sentence, as the spoken lines are (dialogue/spoken/): nothing here comes from a
// model. "From this number" because the call-back presents the number the caller rang.

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "4pm", "9:30am", "12 noon", "12:15pm" (London). */
function clockWords(minute: number): string {
  const h = Math.floor(minute / 60);
  const m = minute % 60;
  if (h === 12 && m === 0) return '12 noon';
  const twelve = h % 12 === 0 ? 12 : h % 12;
  return `${twelve}${m ? `:${String(m).padStart(2, '0')}` : ''}${h < 12 ? 'am' : 'pm'}`;
}

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th'}`;
}

/** "today", "tomorrow", "on Monday" within the week, else "on Monday the 14th of December". */
function dayWords(at: ReturnType<typeof londonWall>, today: number): string {
  if (at.day === today) return 'today';
  if (at.day === today + 1) return 'tomorrow';
  const weekday = WEEKDAY_NAMES[at.weekday]!;
  return at.day - today < 7 ? `on ${weekday}` : `on ${weekday} the ${ordinal(at.date)} of ${MONTH_NAMES[at.month]!}`;
}

/** "I'll ring you back at 4pm today from this number." */
export function ringBackLine(at: Date, now: Date): string {
  const wall = londonWall(at.getTime());
  return `I'll ring you back at ${clockWords(wall.minute)} ${dayWords(wall, londonWall(now.getTime()).day)} from this number.`;
}

/** No open time within the horizon (the business closed for weeks): the owner is asked instead. */
export const NO_TIME_LINE = "I'll pass on that you'd like a call back, and they'll ring you as soon as they can.";
