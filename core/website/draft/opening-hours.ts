import type { CallHandlingSettings } from '../../../contract/call-handling.js';

// The opening hours a page's sentence states, read into Call Handling's weekly shape ("HH:MM"
// spans, [] = closed) so the owner can take them with one tap. Only the common UK ways of
// writing them are read ("Monday to Friday 8am to 6pm", "Mon–Fri 08:00–18:00", "Sat 9-1",
// "Closed Sundays"); anything else is null, never a guess: wrong hours would send callers to
// voicemail while the owner is open.

type Week = CallHandlingSettings['hours'];
type Day = keyof Week;

const DAYS: Day[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const DAY = '(mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)s?';
const RANGE_WORD = '\\s*(?:-|to|through|until|till)\\s*';
const LIST_WORD = '\\s*(?:,|&|and|/)\\s*';
/** A day range, a list of days, weekdays, weekends, every day. */
const DAY_GROUP = new RegExp(`\\b(?:${DAY}(?:${RANGE_WORD}${DAY})?(?:${LIST_WORD}${DAY}(?:${RANGE_WORD}${DAY})?)*|weekdays|weekends|every day|daily|7 days(?: a week)?|seven days(?: a week)?)\\b`, 'g');
const TIME = '(\\d{1,2})(?:[:.](\\d{2}))?\\s*(am|pm|a\\.m\\.|p\\.m\\.)?|noon|midday';
const SPAN = new RegExp(`(?:${TIME})${RANGE_WORD}(?:${TIME})(?![\\d:])`, 'g');

const dayOf = (word: string): number => DAYS.indexOf(word.slice(0, 3) as Day);

/** The days a group names ("mon-fri, sat" → mon…sat). */
function daysOf(group: string): number[] {
  if (group === 'weekdays') return [0, 1, 2, 3, 4];
  if (group === 'weekends') return [5, 6];
  if (/^(?:every day|daily|7 days|seven days)/.test(group)) return [0, 1, 2, 3, 4, 5, 6];
  const days: number[] = [];
  for (const part of group.split(new RegExp(LIST_WORD))) {
    const [from, to] = part.split(new RegExp(RANGE_WORD)).map((w) => dayOf(w.trim()));
    if (from === undefined || from < 0) continue;
    for (let d = from; ; d = (d + 1) % 7) {
      days.push(d);
      if (to === undefined || to < 0 || d === to) break;
    }
  }
  return days;
}

/** "HH:MM" of one end of a span; `bare` says no am/pm was written (then read by the rules below). */
function clock(h: string | undefined, m: string | undefined, ampm: string | undefined, word: string): { minutes: number; bare: boolean } | null {
  if (h === undefined) return /noon|midday/.test(word) ? { minutes: 720, bare: false } : null;
  let hour = Number(h);
  const min = m === undefined ? 0 : Number(m);
  if (min > 59) return null;
  if (ampm) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (ampm.startsWith('p') ? 12 : 0);
    return { minutes: hour * 60 + min, bare: false };
  }
  if (hour > 23) return null;
  // "08:00" and "18:00" are 24-hour clock times; "9" alone is read below.
  return { minutes: hour * 60 + min, bare: m === undefined || hour < 10 && h.length === 1 };
}

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * One span ("8am to 6pm", "08:00-18:00", "9-1"). Bare hours are read the way a UK sign means
 * them: an opening from 7 to 12 in the morning, a closing at or before the opening in the
 * afternoon ("9-1" is 09:00–13:00, "9-5" 09:00–17:00). A bare opening before 7 ("2-6") could be
 * either, so it is refused.
 */
function span(m: RegExpExecArray): { open: string; close: string } | null {
  const text = m[0];
  const [openWord, closeWord] = text.split(new RegExp(RANGE_WORD));
  const open = clock(m[1], m[2], m[3]?.replace(/\./g, ''), openWord ?? '');
  const close = clock(m[4], m[5], m[6]?.replace(/\./g, ''), closeWord ?? '');
  if (!open || !close) return null;
  let o = open.minutes;
  let c = close.minutes;
  if (open.bare) {
    if (o < 7 * 60 || o > 12 * 60 + 59) return null;
  }
  if (close.bare && c <= o && c < 12 * 60) c += 12 * 60;
  if (open.bare && !close.bare && c <= o) return null;
  if (c <= o || c > 24 * 60) return null;
  o = Math.round(o);
  return { open: hhmm(o), close: hhmm(c) };
}

/** The week the text states, or null when it states none this parser can read for certain. */
export function parseOpeningHours(text: string): Week | null {
  const t = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ');
  if (/24 ?(?:hours|\/ ?7)|midnight|bank holiday|by appointment/.test(t)) return null;
  const groups = [...t.matchAll(DAY_GROUP)];
  if (!groups.length) return null;
  const week = new Map<number, { open: string; close: string }[]>();
  let closedNext = /\bclosed\b/.test(t.slice(0, groups[0]!.index));
  const prefixSpans = [...t.slice(0, groups[0]!.index).matchAll(SPAN)];

  for (const [i, g] of groups.entries()) {
    const end = g.index + g[0].length;
    const body = t.slice(end, groups[i + 1]?.index ?? t.length);
    const spans = [...body.matchAll(SPAN)];
    const days = daysOf(g[0]);
    if (!days.length) return null;
    let hours: { open: string; close: string }[] | null;
    if (closedNext && !spans.length) {
      hours = [];
    } else if (spans.length) {
      const read = spans.map(span);
      if (read.some((s) => s === null)) return null;
      hours = read as { open: string; close: string }[];
    } else if (/^\W*closed\b/.test(body)) {
      hours = [];
    } else if (i === 0 && prefixSpans.length) {
      const read = prefixSpans.map(span);
      if (read.some((s) => s === null)) return null;
      hours = read as { open: string; close: string }[];
    } else {
      return null;
    }
    // "closed" after this group's hours ("…6pm, closed Sundays") belongs to the next group.
    const afterSpans = spans.length ? body.slice(spans.at(-1)!.index + spans.at(-1)![0].length) : body.replace(/^\W*closed\b/, '');
    closedNext = /\bclosed\b/.test(afterSpans);
    for (const d of days) {
      if (week.has(d)) return null; // a day stated twice: the sentence is not a plain week
      week.set(d, hours);
    }
  }
  // A week with no open day is not opening hours ("Closed Sundays" alone says nothing of Monday).
  if (![...week.values()].some((h) => h.length)) return null;
  // Days the sentence leaves out of a stated week are the days it is closed.
  return Object.fromEntries(DAYS.map((d, i) => [d, week.get(i) ?? []])) as Week;
}
