import { createRequire } from 'node:module';
import type Holidays from 'date-holidays';
import type { HolidayNation } from '../../contract/call-handling.js';

// date-holidays' GB regions: England and Wales share one list of bank holidays (ENG and WLS
// agree), Scotland (SCT) adds 2 January and St Andrew's Day, Northern Ireland (NIR) St
// Patrick's Day and the Battle of the Boyne. Its data ships inside the package (offline).
const REGION: Record<HolidayNation, string> = { 'england-wales': 'ENG', scotland: 'SCT', 'northern-ireland': 'NIR' };

// The package (its data for every country) is ~0.1 s of CPU to import, and only a schedule
// that asks about a date needs it: loaded then, synchronously, as the rules here are.
const load = createRequire(import.meta.url);
let HolidaysOf: typeof Holidays | undefined;

// One calendar per nation and one date set per year: a call looks a date up, nothing more.
const calendars = new Map<HolidayNation, Holidays>();
const years = new Map<string, Set<string>>();

function bankHolidays(nation: HolidayNation, year: number): Set<string> {
  const key = `${nation}:${year}`;
  let dates = years.get(key);
  if (!dates) {
    let cal = calendars.get(nation);
    if (!cal) {
      HolidaysOf ??= load('date-holidays') as typeof Holidays;
      cal = new HolidaysOf('GB', REGION[nation]);
      calendars.set(nation, cal);
    }
    // 'public' is a bank holiday (substitute days included); 'observance' (Mother's Day) is not.
    dates = new Set(cal.getHolidays(year).flatMap((h) => (h.type === 'public' || h.type === 'bank' ? [h.date.slice(0, 10)] : [])));
    years.set(key, dates);
  }
  return dates;
}

/** Whether `date` (YYYY-MM-DD, UK local) is a bank holiday in any of the nations. */
export function isBankHoliday(nations: readonly HolidayNation[], date: string): boolean {
  const year = Number(date.slice(0, 4));
  return nations.some((n) => bankHolidays(n, year).has(date));
}
