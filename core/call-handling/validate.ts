import { WEEKDAY_NAMES, WEEKDAYS, type CallHandlingSettings, type CallHandlingUpdate, type OpeningSpan, type Weekday } from '../../contract/call-handling.js';
import { toE164 } from '../../contract/phone.js';
import { CALL_BACK_AFTER_MINUTES } from '../../contract/call-backs.js';
import { dialRefusal, type OutboundAllowList } from '../outbound/dialable.js';
import { LIMITS } from './defaults.js';
import { toMinute } from './schedule.js';

/** What an owner sends: any field may be left out (it keeps its stored value); numbers in any spelling. */
export type CallHandlingInput = CallHandlingUpdate;

/** The numbers a transfer must never ring, because the call would come straight back to us. */
export interface TransferGuard {
  /** The owner's business phone (users.phoneNumber): the line that forwards to the appliance. */
  ownerPhone: string | null;
  /** Every DID the appliance holds, whoever owns it. */
  applianceNumbers: readonly string[];
  /** OUTBOUND_ALLOW: prefixes the operator dials beyond UK mobiles and landlines. */
  outboundAllow: OutboundAllowList;
}

export const MESSAGES = {
  transferNumber: 'Transfer number must be a phone number, e.g. 07700 900123 or +447700900123.',
  forwardsToUs: 'This is the number that forwards to us: put calls through to a different phone.',
  ownDid: "This is one of this appliance's own numbers: it would ring itself.",
  timeout: `Ring time must be a whole number of seconds from ${LIMITS.timeoutMin} to ${LIMITS.timeoutMax}.`,
  closedGreeting: `Closed-hours greeting must be at most ${LIMITS.closedGreeting.toLocaleString('en-GB')} characters.`,
  callBacksBy: 'Choose who rings callers back: owner (you), agent-after (the assistant, when you have not within your wait) or agent-at-time (the assistant, at the time agreed with the caller).',
  callBackAfterMinutes: `The assistant's wait before it rings back must be a whole number of minutes from ${CALL_BACK_AFTER_MINUTES.min} to ${CALL_BACK_AFTER_MINUTES.max}.`,
} as const;

const DAY_NAMES = WEEKDAY_NAMES;

const LIST_NAMES = { blockList: 'block list', vipList: 'VIP list' } as const;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export type Invalid = { message: string; field: string };

export function validateDay(day: Weekday, spans: OpeningSpan[]): OpeningSpan[] | Invalid {
  const name = DAY_NAMES[day];
  const field = `hours.${day}`;
  if (spans.length > LIMITS.spansPerDay) return { field, message: `${name} can have at most ${LIMITS.spansPerDay} opening times.` };
  for (const s of spans) {
    for (const t of [s.open, s.close]) {
      if (!HHMM.test(t)) return { field, message: `${name}: "${t}" is not a time; use 24-hour HH:MM, e.g. 09:00 or 17:30.` };
    }
    if (toMinute(s.close) <= toMinute(s.open)) {
      return { field, message: `${name}: closing time ${s.close} must be after opening time ${s.open}.` };
    }
  }
  const sorted = [...spans].sort((a, b) => toMinute(a.open) - toMinute(b.open));
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    if (toMinute(cur.open) < toMinute(prev.close)) {
      return { field, message: `${name}: ${prev.open}–${prev.close} and ${cur.open}–${cur.close} overlap.` };
    }
  }
  return sorted.map((s) => ({ open: s.open, close: s.close }));
}

export const listFullMessage = (list: 'blockList' | 'vipList') => `The ${LIST_NAMES[list]} can hold at most ${LIMITS.listEntries} numbers.`;

/** One list's entries in E.164, in the order given, each once. */
function parseNumberList(list: 'blockList' | 'vipList', entries: readonly string[]): string[] | Invalid {
  // Counted before parsing: each entry costs a phone-number parse.
  if (entries.length > LIMITS.listEntries) return { field: list, message: listFullMessage(list) };
  const out = new Set<string>();
  for (const entry of entries) {
    const e164 = toE164(entry);
    if (!e164) return { field: list, message: `"${entry}" in the ${LIST_NAMES[list]} is not a phone number.` };
    out.add(e164);
  }
  return [...out];
}

const isInvalid = (v: unknown): v is Invalid => typeof v === 'object' && v !== null && 'message' in v && !Array.isArray(v);

/**
 * Why a phone (E.164) is not one calls are put through to, or null: it leads back to the
 * appliance (the owner's forwarded line, one of its own numbers), or the toll-fraud rules
 * refuse it. A team member's phone is held to the same (core/team/validate-phone.ts).
 */
export function putThroughRefusal(e164: string, guard: TransferGuard): string | null {
  if (guard.ownerPhone && toE164(guard.ownerPhone) === e164) return MESSAGES.forwardsToUs;
  if (guard.applianceNumbers.some((n) => toE164(n) === e164)) return MESSAGES.ownDid;
  return dialRefusal(e164, guard.outboundAllow);
}

/**
 * The rules of an owner's call-handling settings, applied to `input` over `current`: times
 * HH:MM with close after open, at most 4 spans a day and none overlapping; ring time 5–60 s;
 * the assistant's wait before a call-back 5–240 whole minutes;
 * list entries are phone numbers in any spelling (stored E.164, each once, 200 at most) and no
 * number on both lists; the transfer number is not a line that leads back to the appliance,
 * and is a UK mobile or landline (or on the operator's OUTBOUND_ALLOW list).
 * Types are the route schema's job; this says what is wrong in words an owner can act on.
 */
export function validateCallHandling(input: CallHandlingInput, current: CallHandlingSettings, guard: TransferGuard): CallHandlingSettings | Invalid {
  const next: CallHandlingSettings = { ...current, hours: { ...current.hours } };

  if (input.transferNumber !== undefined) {
    const raw = input.transferNumber?.trim() ?? '';
    if (!raw) next.transferNumber = null;
    else {
      const e164 = toE164(raw);
      if (!e164) return { field: 'transferNumber', message: MESSAGES.transferNumber };
      const refusal = putThroughRefusal(e164, guard);
      if (refusal) return { field: 'transferNumber', message: refusal };
      next.transferNumber = e164;
    }
  }
  if (input.transferTimeoutSeconds !== undefined) {
    const t = input.transferTimeoutSeconds;
    if (!Number.isInteger(t) || t < LIMITS.timeoutMin || t > LIMITS.timeoutMax) return { field: 'transferTimeoutSeconds', message: MESSAGES.timeout };
    next.transferTimeoutSeconds = t;
  }
  if (input.hours) {
    for (const day of WEEKDAYS) {
      const spans = input.hours[day];
      if (spans === undefined) continue;
      const checked = validateDay(day, spans);
      if (isInvalid(checked)) return checked;
      next.hours[day] = checked;
    }
  }
  if (input.holidayNations !== undefined) next.holidayNations = [...new Set(input.holidayNations)];
  if (input.hoursEnabled !== undefined) next.hoursEnabled = input.hoursEnabled;
  if (input.openRingFirst !== undefined) next.openRingFirst = input.openRingFirst;
  if (input.closedMode !== undefined) next.closedMode = input.closedMode;
  if (input.closedRingFirst !== undefined) next.closedRingFirst = input.closedRingFirst;
  if (input.withheld !== undefined) next.withheld = input.withheld;
  if (input.closedGreeting !== undefined) {
    const g = input.closedGreeting?.trim() ?? '';
    if (g.length > LIMITS.closedGreeting) return { field: 'closedGreeting', message: MESSAGES.closedGreeting };
    next.closedGreeting = g || null;
  }
  if (input.callBacksBy !== undefined) next.callBacksBy = input.callBacksBy;
  if (input.callBackAfterMinutes !== undefined) {
    const m = input.callBackAfterMinutes;
    if (!Number.isInteger(m) || m < CALL_BACK_AFTER_MINUTES.min || m > CALL_BACK_AFTER_MINUTES.max) return { field: 'callBackAfterMinutes', message: MESSAGES.callBackAfterMinutes };
    next.callBackAfterMinutes = m;
  }
  for (const list of ['blockList', 'vipList'] as const) {
    const entries = input[list];
    if (entries === undefined) continue;
    const parsed = parseNumberList(list, entries);
    if (isInvalid(parsed)) return parsed;
    next[list] = parsed;
  }
  const both = next.blockList.find((n) => next.vipList.includes(n));
  if (both) return { field: 'vipList', message: `${both} is on both the block list and the VIP list: take it off one of them.` };
  return next;
}
