import type { ApiCallLog } from './api.js';

/**
 * A caller is waiting to be rung back when they reached voicemail or rang off (voicemail or
 * missed), left a number, and the owner has not said it is done (console button, or DONE by
 * text). Answered calls were dealt with by the AI receptionist. One rule for server and console.
 */
export function isToCallBack(call: Pick<ApiCallLog, 'status' | 'fromNumber' | 'calledBackAt'>): boolean {
  return (call.status === 'missed' || call.status === 'voicemail') && call.fromNumber.trim() !== '' && !call.calledBackAt;
}
