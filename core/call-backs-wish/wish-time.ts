import type { CallBacksBy } from '../../contract/call-backs.js';
import { agreedTime, type AgreedTime } from '../call-backs/agreed-time.js';
import { ringBackLine } from '../call-backs/agreed-words.js';
import { nextOpenMoment, type BusinessHours } from '../call-backs/open-moment.js';

// When the agent rings back a caller who asked (issue 56), by the owner's setting: the caller's
// words read by agreedTime, with the owner's window (callBackAfterMinutes) as the wait for
// words that name no time. With 'agent-after' the owner has that window whatever the caller
// said: a time inside it ("at ten past", said at five past) moves to the window's end, and the
// sentence the agent says names the moved time.

export interface WishTimeQuery {
  by: Exclude<CallBacksBy, 'owner'>;
  afterMinutes: number;
  /** The caller's words ('' for a CALL reply: no time named). */
  words: string;
  now: Date;
  hours: BusinessHours;
}

export function wishTime(q: WishTimeQuery): AgreedTime {
  const agreed = agreedTime({ words: q.words, now: q.now, hours: q.hours, ownerWindowMinutes: q.afterMinutes });
  if (q.by !== 'agent-after' || !agreed.at) return agreed;
  const windowEnd = new Date(q.now.getTime() + q.afterMinutes * 60_000);
  if (agreed.at >= windowEnd) return agreed;
  const at = nextOpenMoment(q.hours, windowEnd);
  return at ? { at, said: ringBackLine(at, q.now) } : agreed;
}
