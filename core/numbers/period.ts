// The billing month as the owner and the operator read it: UK local time (DESIGN.md, Data).

const LONDON = 'Europe/London';

function londonParts(d: Date): { year: number; month: number } {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: LONDON, year: 'numeric', month: '2-digit' }).formatToParts(d);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return { year: get('year'), month: get('month') };
}

/** Minutes London is ahead of UTC at instant `d` (0 in winter, 60 in summer). */
function londonOffsetMinutes(d: Date): number {
  const p = new Intl.DateTimeFormat('en-GB', {
    timeZone: LONDON,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(d);
  const get = (t: string) => Number(p.find((x) => x.type === t)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return Math.round((asUtc - Math.floor(d.getTime() / 60000) * 60000) / 60000);
}

/** The first instant of the current month in London, and its date as YYYY-MM-DD. */
export function londonMonthStart(now: Date): { instant: Date; date: string } {
  const { year, month } = londonParts(now);
  const midnightUtc = Date.UTC(year, month - 1, 1);
  // Clocks never change on the 1st (UK changes fall on the last Sunday), so one offset is exact.
  const instant = new Date(midnightUtc - londonOffsetMinutes(new Date(midnightUtc)) * 60000);
  return { instant, date: `${year}-${String(month).padStart(2, '0')}-01` };
}
