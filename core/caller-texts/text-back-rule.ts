import { isUkMobile } from '../../contract/phone.js';
import type { TextBackHours } from '../../contract/enums.js';

/** The wording when the owner has not written their own. GSM-7 only, so it is one SMS. */
export function defaultTextBackWording(businessName: string | null): string {
  return `Sorry we missed your call to ${businessName?.trim() || 'us'}. Reply here with what you need and we will get back to you. Reply STOP to opt out.`;
}

export interface TextBackSettings {
  enabled: boolean;
  /** Null: the default wording. */
  wording: string | null;
  windowHours: number;
  hours: TextBackHours;
}

export const TEXT_BACK_DEFAULTS: TextBackSettings = { enabled: false, wording: null, windowHours: 24, hours: 'always' };
export const WINDOW_HOURS = { min: 1, max: 720 } as const;
export const MAX_WORDING = 480;

/** What of a finished call decides whether its caller is texted back. */
export interface FinishedCall {
  status: 'answered' | 'missed' | 'voicemail';
  fromNumber: string;
  callerTag: 'blocked' | 'withheld-refused' | 'vip' | null;
  period: 'open' | 'closed' | null;
  testCall: boolean;
  /** Screened as a nuisance (issue 43): never texted back. */
  screenedBy: 'summary' | 'owner' | 'box' | null;
}

export type TextBackVerdict = { send: true } | { send: false; why: string };

/**
 * Whether a finished call earns its caller the missed-call text: only a caller who rang and
 * left no message, on a UK mobile (so never a withheld number, a landline or a number abroad),
 * never one the owner blocked or refused, and in the hours the owner chose. The once-per-window
 * and flood rules need the database and live in the one road (road.ts).
 */
export function textBackVerdict(call: FinishedCall, settings: TextBackSettings): TextBackVerdict {
  if (!settings.enabled) return { send: false, why: 'text-back is off' };
  if (call.testCall) return { send: false, why: 'the owner\'s own test call' };
  if (call.status !== 'missed') return { send: false, why: 'the caller left a message or was answered' };
  if (call.callerTag === 'blocked' || call.callerTag === 'withheld-refused') return { send: false, why: 'a caller the owner turned away' };
  if (call.screenedBy) return { send: false, why: 'a screened nuisance call' };
  if (!isUkMobile(call.fromNumber)) return { send: false, why: 'not a UK mobile' };
  if (settings.hours !== 'always' && call.period !== settings.hours) return { send: false, why: `only for calls in ${settings.hours} hours` };
  return { send: true };
}

/**
 * The block of 100 numbers a number is in (+4477009001xx): a flood of missed calls from one
 * range (a dialler walking its numbers) gets one text-back per window, like one number.
 */
export function numberRange(e164: string): string {
  return e164.slice(0, -2);
}
