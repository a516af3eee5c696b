// Day dividers in the call list: Today, Yesterday, then the date (London calendar days).
import { formatDate, londonIsoDate } from './format';

const DAY_MS = 86_400_000;

/** "Today", "Yesterday" or dd/MM/yyyy for the London day of `createdAt`. */
export function dayLabel(createdAt: string, now: Date = new Date()): string {
  const day = londonIsoDate(createdAt);
  if (!day) return 'Date unknown';
  if (day === londonIsoDate(now)) return 'Today';
  // Noon today minus a day is yesterday's date whatever the clock change did overnight.
  const noon = new Date(`${londonIsoDate(now)}T12:00:00Z`);
  if (day === londonIsoDate(new Date(noon.getTime() - DAY_MS))) return 'Yesterday';
  return formatDate(createdAt);
}

/** For a list shown newest first: the divider to show above each call (only above the first of its day). */
export function dayDividers<T extends { createdAt: string }>(calls: readonly T[], now: Date = new Date()): (string | null)[] {
  let previous = '';
  return calls.map((c) => {
    const label = dayLabel(c.createdAt, now);
    if (label === previous) return null;
    previous = label;
    return label;
  });
}
