import { CALL_BACK_AFTER_MINUTES } from '../../contract/call-backs.js';
import type { CallHandlingSettings } from '../../contract/call-handling.js';

const weekday = () => [{ open: '09:00', close: '17:30' }];

/** What an owner who never opened the section gets: hours set but off, nothing rings first. */
export function defaultCallHandling(): CallHandlingSettings {
  return {
    transferNumber: null,
    transferTimeoutSeconds: 20,
    hoursEnabled: false,
    hours: { mon: weekday(), tue: weekday(), wed: weekday(), thu: weekday(), fri: weekday(), sat: [], sun: [] },
    holidayNations: ['england-wales'],
    openRingFirst: false,
    closedMode: 'voicemail',
    closedRingFirst: false,
    closedGreeting: null,
    blockList: [],
    vipList: [],
    withheld: 'normal',
    // Issue 56: the owner rings callers back, as before the agent could.
    callBacksBy: 'owner',
    callBackAfterMinutes: CALL_BACK_AFTER_MINUTES.default,
  };
}

export { CALL_HANDLING_LIMITS as LIMITS } from '../../contract/rules.js';
