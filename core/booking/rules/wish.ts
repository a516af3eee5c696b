import { londonWall, weekdayOfDay } from './london-wall.js';

// What a caller said about when ("Tuesday morning", "after five", "next week", "the 3rd of
// December") as a filter on London days and times of day. Parsed by code so the model never
// turns words into times; anything not understood simply does not narrow the search, so the
// caller hears the soonest free times and can say what suits better.

export interface Wish {
  /** London day numbers (inclusive) the start may fall on; unset = any day in the horizon. */
  fromDay?: number;
  toDay?: number;
  /** Weekdays allowed (0 = Monday); unset = any. */
  weekdays?: number[];
  /** Minutes past London midnight: the start at or after `fromMinute` and before `toMinute`. */
  fromMinute?: number;
  toMinute?: number;
}

const WEEKDAY_WORDS: Array<[RegExp, number]> = [
  [/\bmon(day)?s?\b/, 0],
  [/\btue(s|sday)?s?\b/, 1],
  [/\bwed(nesday)?s?\b/, 2],
  [/\bthu(rs|rsday)?s?\b/, 3],
  [/\bfri(day)?s?\b/, 4],
  [/\bsaturdays?\b/, 5],
  [/\bsundays?\b/, 6],
];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const HOUR = `(\\d{1,2}|${NUMBER_WORDS.slice(1).join('|')})`;
/** A clock time as callers say it: "5", "five", "5pm", "10:30", "half past two", "noon". */
const CLOCK = `(noon|midday|lunch(?:time)?|work|school|half past ${HOUR}|quarter past ${HOUR}|${HOUR}(?::(\\d{2})|\\s+(thirty|fifteen|forty-?five))?\\s*(am|pm|a\\.m\\.|p\\.m\\.|in the morning|in the afternoon|in the evening|o'?clock)?)`;

const PARTS: Array<[RegExp, number, number]> = [
  [/\bfirst thing\b/, 0, 10 * 60],
  [/\bmorning\b/, 0, 12 * 60],
  [/\blunch ?time\b/, 12 * 60, 14 * 60],
  [/\bafternoon\b/, 12 * 60, 17 * 60],
  [/\bevening\b|\btonight\b/, 17 * 60, 24 * 60],
];

const hourOf = (word: string): number => (/^\d+$/.test(word) ? Number(word) : NUMBER_WORDS.indexOf(word));

/** Minutes past midnight of a CLOCK match; a bare 1–6 means the afternoon, as trades hear "after five". */
function clockMinute(m: RegExpMatchArray, at: number, before = false): number | undefined {
  const whole = m[at]!;
  if (/^(noon|midday)$/.test(whole)) return 12 * 60;
  // "after lunch" is one o'clock; "before lunch" is noon.
  if (/^lunch/.test(whole)) return before ? 12 * 60 : 13 * 60;
  if (whole === 'work' || whole === 'school') return whole === 'work' ? 17 * 60 : 15 * 60 + 30;
  if (m[at + 1]) return to24(hourOf(m[at + 1]!), undefined) * 60 + 30;
  if (m[at + 2]) return to24(hourOf(m[at + 2]!), undefined) * 60 + 15;
  const h = hourOf(m[at + 3]!);
  if (!(h >= 0 && h <= 23)) return undefined;
  const mins = m[at + 4] ? Number(m[at + 4]) : m[at + 5] ? ({ thirty: 30, fifteen: 15 } as Record<string, number>)[m[at + 5]!] ?? 45 : 0;
  if (mins > 59) return undefined;
  return to24(h, m[at + 6]) * 60 + mins;
}

function to24(h: number, suffix: string | undefined): number {
  if (h > 12) return h;
  const s = suffix?.replace(/\./g, '') ?? '';
  if (s === 'pm' || s === 'in the afternoon' || s === 'in the evening') return h === 12 ? 12 : h + 12;
  if (s === 'am' || s === 'in the morning') return h === 12 ? 0 : h;
  // No am/pm: 7–11 are the morning, 12 is noon, 1–6 the afternoon (nobody books a plumber for 3 a.m.).
  return h >= 1 && h <= 6 ? h + 12 : h;
}

/** Narrows `wish` to [from, to) minutes, keeping what was already narrower. */
function narrowTime(wish: Wish, from: number | undefined, to: number | undefined): void {
  if (from !== undefined) wish.fromMinute = Math.max(wish.fromMinute ?? 0, from);
  if (to !== undefined) wish.toMinute = Math.min(wish.toMinute ?? 24 * 60, to);
}

function narrowDays(wish: Wish, from: number, to: number): void {
  wish.fromDay = Math.max(wish.fromDay ?? from, from);
  wish.toDay = Math.min(wish.toDay ?? to, to);
}

/** The next London day (today or later) that is `date` of `month` (0-based). */
function nextDate(today: number, month: number | undefined, date: number): number | undefined {
  for (let add = 0; add < 400; add++) {
    const day = today + add;
    const d = new Date(day * 86_400_000);
    if (d.getUTCDate() === date && (month === undefined || d.getUTCMonth() === month)) return day;
  }
  return undefined;
}

/** The caller's words in lower case, punctuation as spaces, padded so every word has a \b either side. */
const normalised = (words: string): string => ` ${words.toLowerCase().replace(/[,!?]/g, ' ').replace(/\s+/g, ' ')} `;

/** The caller's words, understood at instant `now`. */
export function parseWish(words: string, now: number): Wish {
  const text = normalised(words);
  const today = londonWall(now).day;
  const wish: Wish = {};

  if (/\bday after tomorrow\b/.test(text)) narrowDays(wish, today + 2, today + 2);
  else if (/\btomorrow\b/.test(text)) narrowDays(wish, today + 1, today + 1);
  else if (/\btoday\b|\btonight\b|\bthis (morning|afternoon|evening)\b/.test(text)) narrowDays(wish, today, today);

  const monday = today - weekdayOfDay(today);
  if (/\bnext week\b/.test(text)) narrowDays(wish, monday + 7, monday + 13);
  else if (/\bthis week\b/.test(text)) narrowDays(wish, today, monday + 6);
  if (/\bweekend\b/.test(text)) wish.weekdays = [5, 6];

  const days = WEEKDAY_WORDS.filter(([re]) => re.test(text)).map(([, d]) => d);
  if (days.length) wish.weekdays = days;

  const dated = text.match(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?: of)? ${MONTH}\\b`)) ?? null;
  const monthFirst = dated ? null : text.match(new RegExp(`\\b${MONTH} (?:the )?(\\d{1,2})(?:st|nd|rd|th)?\\b`));
  const slashed = text.match(/\b(\d{1,2})\/(\d{1,2})\b/);
  const bare = text.match(/\bthe (\d{1,2})(?:st|nd|rd|th)\b/);
  let on: number | undefined;
  if (dated) on = nextDate(today, MONTHS.indexOf(dated[2]!.slice(0, 3)), Number(dated[1]));
  else if (monthFirst) on = nextDate(today, MONTHS.indexOf(monthFirst[1]!.slice(0, 3)), Number(monthFirst[2]));
  else if (slashed) on = nextDate(today, Number(slashed[2]) - 1, Number(slashed[1]));
  else if (bare) on = nextDate(today, undefined, Number(bare[1]));
  if (on !== undefined) narrowDays(wish, on, on);

  for (const [re, from, to] of PARTS) if (re.test(text)) narrowTime(wish, from, to);

  const between = text.match(new RegExp(`\\bbetween ${CLOCK} and ${CLOCK}`));
  if (between) {
    narrowTime(wish, clockMinute(between, 1), clockMinute(between, 8));
  } else {
    const after = text.match(new RegExp(`\\b(?:after|from) ${CLOCK}`));
    if (after) narrowTime(wish, clockMinute(after, 1), undefined);
    const before = text.match(new RegExp(`\\b(?:before|by) ${CLOCK}`));
    if (before) narrowTime(wish, undefined, clockMinute(before, 1, true));
    const at = !after && !before ? text.match(new RegExp(`\\b(?:at|about|around) ${CLOCK}`)) : null;
    const minute = at ? clockMinute(at, 1) : undefined;
    if (minute !== undefined) narrowTime(wish, minute - (/around|about/.test(at![0]) ? 60 : 0), minute + 60);
  }
  return wish;
}

/**
 * The one clock time the caller named ("at 2", "around two", "after four", "from half past
 * nine"), in minutes past London midnight; undefined when they named none, or only an end ("before
 * five", "by ten"). A booking searches the window parseWish gives; a call-back (issue 56,
 * core/call-backs/agreed-time.ts) rings at one time, which for "around two" is two, not one.
 */
export function namedClockMinute(words: string): number | undefined {
  const text = normalised(words);
  const named = text.match(new RegExp(`\\b(?:between|after|from|at|about|around) ${CLOCK}`));
  return named ? clockMinute(named, 1) : undefined;
}
