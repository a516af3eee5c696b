import type { Log } from '../../contract/log.js';
import type { CallBackDesk, CallBackDeskFactory } from '../../dialogue/agent/call-back-desk.js';
import { NO_TIME_LINE } from '../call-backs/agreed-words.js';
import { recordCallBackWish } from '../call-backs-store/store.js';
import { loadCallHandling } from '../call-handling/store.js';
import type { Db } from '../db/client.js';
import { dialRefusal, type OutboundAllowList } from '../outbound/dialable.js';
import { wishTime } from './wish-time.js';

// The agent's call-back desk (dialogue/agent/call-back-desk.ts) for one call: the owner's
// setting read once when the call is answered, the time agreed by code (wish-time.ts) and the
// wish recorded in call_backs (source 'agent', one per call: a caller who changes the time moves
// it) before the agent says it. 'owner' gives no desk: the agent takes the message as before.

export interface CallBackDeskDeps {
  db: Db;
  now: () => Date;
  log: Pick<Log, 'info' | 'warn'>;
  /** OUTBOUND_ALLOW: a number the box could never dial is not promised a call. */
  allow: OutboundAllowList;
}

export function callBackDeskFactory(deps: CallBackDeskDeps): CallBackDeskFactory {
  return async (call) => {
    const handling = await loadCallHandling(deps.db, call.userId);
    if (handling.callBacksBy === 'owner') return undefined;
    const by = handling.callBacksBy;
    const desk: CallBackDesk = {
      async agree(words) {
        // A withheld or foreign number cannot be rung back: the owner is told, as the summary says.
        if (dialRefusal(call.callerNumber, deps.allow) !== null) return NO_TIME_LINE;
        const now = deps.now();
        const agreed = wishTime({ by, afterMinutes: handling.callBackAfterMinutes, words, now, hours: handling });
        if (!agreed.at) return agreed.said;
        try {
          await recordCallBackWish(deps.db, { userId: call.userId, callerNumber: call.callerNumber, dueAt: agreed.at, source: 'agent', firstCallId: call.callId }, now);
        } catch (err) {
          // Not recorded: promise nothing the box would not keep; the owner still has the call.
          deps.log.warn({ err, callId: call.callId }, 'call-backs: the agreed call-back could not be recorded; the caller was told the owner will ring');
          return NO_TIME_LINE;
        }
        deps.log.info({ callId: call.callId, dueAt: agreed.at.toISOString() }, 'call-backs: a call-back agreed in the call');
        return agreed.said;
      },
    };
    return desk;
  };
}
