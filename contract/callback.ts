import type { ApiCallLog } from './api.js';
import { isWithheldCaller } from './withheld.js';

/**
 * A caller is waiting to be rung back when they reached voicemail or rang off (voicemail or
 * missed), left a number, and the owner has not said it is done (console button, or DONE by
 * text). Answered calls were dealt with by the AI receptionist. One rule for server and console.
 */
export function isToCallBack(call: Pick<ApiCallLog, 'status' | 'fromNumber' | 'calledBackAt'> & Partial<Pick<ApiCallLog, 'callerTag' | 'testCall' | 'screenedBy'>>): boolean {
  // A screened nuisance call (issue 43) is no customer waiting.
  if (call.screenedBy) return false;
  // The owner's own "Call my line" is nobody to ring back: it came from the owner, to their own box.
  if (call.testCall) return false;
  // A caller the owner's rules turned away (block list, withheld refused) is not waiting for them,
  // and one who withheld their number left none to ring.
  if (call.callerTag === 'blocked' || call.callerTag === 'withheld-refused' || isWithheldCaller(call.fromNumber)) return false;
  return (call.status === 'missed' || call.status === 'voicemail') && !call.calledBackAt;
}

/**
 * A number the owner can ring from the call (Call back, Book this caller): not withheld, not one
 * they blocked, not their own test call, and not a screened nuisance call (issue 57, item 5).
 */
export function canRingBack(call: Pick<ApiCallLog, 'fromNumber'> & Partial<Pick<ApiCallLog, 'callerTag' | 'testCall' | 'screenedBy'>>): boolean {
  return !call.screenedBy && isOwnersCaller(call);
}

/**
 * A caller the owner may judge SPAM or NOT SPAM: a missed call or message from a number (not
 * withheld), not one they blocked, not their own test call. A screened call may be judged too: a
 * NOT SPAM is how a wrongly screened caller gets through next time.
 */
export function canMarkSpam(call: Pick<ApiCallLog, 'fromNumber' | 'status'> & Partial<Pick<ApiCallLog, 'callerTag' | 'testCall'>>): boolean {
  return (call.status === 'missed' || call.status === 'voicemail') && isOwnersCaller(call);
}

function isOwnersCaller(call: Pick<ApiCallLog, 'fromNumber'> & Partial<Pick<ApiCallLog, 'callerTag' | 'testCall'>>): boolean {
  return !call.testCall && call.callerTag !== 'blocked' && !isWithheldCaller(call.fromNumber);
}
