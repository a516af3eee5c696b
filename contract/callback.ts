import type { ApiCallLog } from './api.js';

/**
 * A caller is waiting to be rung back when they reached voicemail or rang off (voicemail or
 * missed), left a number, and the owner has not said it is done (console button, or DONE by
 * text). Answered calls were dealt with by the AI receptionist. One rule for server and console.
 */
export function isToCallBack(call: Pick<ApiCallLog, 'status' | 'fromNumber' | 'calledBackAt'> & Partial<Pick<ApiCallLog, 'callerTag'>>): boolean {
  // A caller the owner's rules turned away (block list, withheld refused) is not waiting for them.
  if (call.callerTag === 'blocked' || call.callerTag === 'withheld-refused') return false;
  return (call.status === 'missed' || call.status === 'voicemail') && call.fromNumber.trim() !== '' && !call.calledBackAt;
}
