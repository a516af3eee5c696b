import { dialRefusal, type OutboundAllowList } from '../outbound/dialable.js';
import { CALL_BACK_CAPS, capAt, type CallBackCaps, type CapReached, type RecentDials } from './caps.js';
import { nextOpenMoment, type BusinessHours } from './open-moment.js';

// May the box dial a call-back now (issue 56)? One pure rule over the facts the dialler reads:
// the rules of a call the caller asked for (PECR treats it as a service call only while it is
// only that) and the trunk's toll-fraud rules (core/outbound/dialable.ts). Asked when a
// call-back falls due and again just before the dial, with the clock as an argument.

/** How one try ended (the outcomes the call-back store records). */
export type TryOutcome = 'answered' | 'no-answer' | 'busy' | 'machine' | 'wrong-number' | 'not-interested' | 'failed';

/** At most this many tries: the first, and one more after a no-answer or busy. */
const MAX_TRIES = 2;
/** The second try waits this long after the first. */
const RETRY_GAP_MS = 30 * 60_000;

export interface DialFacts {
  now: Date;
  dueAt: Date;
  tries: number;
  lastTry: { at: Date; outcome: TryOutcome } | null;
  /** The caller's number (E.164). */
  number: string;
  /** The operator's OUTBOUND_ALLOW: prefixes dialled whatever their type. */
  allow: OutboundAllowList;
  /** The caller texted STOP to the business (and not START since). */
  optedOut: boolean;
  /** The owner marked the number as spam. */
  markedSpam: boolean;
  /** The owner called the caller back, marked the call done, or cancelled the call-back. */
  ownerDealt: boolean;
  hours: BusinessHours;
  dials: RecentDials;
  /** CALL_BACK_CAPS unless a test says otherwise. */
  caps?: CallBackCaps;
}

type NeverReason =
  | 'owner-dealt'
  | 'opted-out'
  | 'marked-spam'
  | 'not-dialable'
  | 'wrong-number'
  | 'not-interested'
  | 'answered'
  | 'message-left'
  | 'tries-used'
  | 'no-open-hours';

type WaitReason = 'not-due' | 'retry-gap' | 'closed' | CapReached;

export type DialVerdict = { dial: true } | { wait: Date; why: WaitReason } | { never: NeverReason; message?: string };

/**
 * The last try's outcomes that end the call-back for good, and why. The others (no answer, busy,
 * and a failed dial: the trunk refused or dropped it before the phone rang, so it reached nobody,
 * as busy does) leave one more try.
 */
const ENDED_BY: Partial<Record<TryOutcome, NeverReason>> = {
  'wrong-number': 'wrong-number',
  'not-interested': 'not-interested',
  answered: 'answered',
  machine: 'message-left',
};

/**
 * Dial now, wait until an exact instant, or never. "Never" is final: the store marks the
 * call-back ended. "Wait" gives the first instant every rule allows at once (due, 30 minutes
 * after a first try, open, under the caps as dialled so far), so the dialler sleeps once.
 */
export function mayDial(f: DialFacts): DialVerdict {
  if (f.ownerDealt) return { never: 'owner-dealt' };
  if (f.optedOut) return { never: 'opted-out' };
  if (f.markedSpam) return { never: 'marked-spam' };
  const refusal = dialRefusal(f.number, f.allow);
  if (refusal) return { never: 'not-dialable', message: refusal };
  if (f.lastTry) {
    const ended = ENDED_BY[f.lastTry.outcome];
    if (ended) return { never: ended };
  }
  if (f.tries >= MAX_TRIES) return { never: 'tries-used' };

  const caps = f.caps ?? CALL_BACK_CAPS;
  const now = f.now.getTime();
  let t = now;
  // The reason the call waits is the first rule that held it back from now.
  let why: WaitReason | null = null;
  // Each rule can only move the time later, so a few rounds settle on the instant all allow
  // (a cap freeing after closing time moves it to the next opening, which is under the caps).
  for (let round = 0; round < 8; round++) {
    const before = t;
    const holds: Array<[number, WaitReason]> = [[f.dueAt.getTime(), 'not-due']];
    if (f.lastTry) holds.push([f.lastTry.at.getTime() + RETRY_GAP_MS, 'retry-gap']);
    for (const [until, reason] of holds) {
      if (until > t) [t, why] = [until, why ?? reason];
    }
    const open = nextOpenMoment(f.hours, new Date(t));
    if (!open) return { never: 'no-open-hours' };
    if (open.getTime() > t) [t, why] = [open.getTime(), why ?? 'closed'];
    const cap = capAt(t, f.dials, caps);
    if (cap && cap.freeAt > t) [t, why] = [cap.freeAt, why ?? cap.reached];
    if (t === before) break;
  }
  return why === null ? { dial: true } : { wait: new Date(t), why };
}
