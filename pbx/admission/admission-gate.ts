import type { Log } from '../../contract/log.js';
import { refusalReason, type AdmissionLimits } from './admission-rule.js';
import type { NodeLoadReader } from './node-load.js';
import { SetupWatch, type SetupLimits } from './setup-watch.js';
import type { AriRest } from '../ari/types.js';

/**
 * The dialplan's flag (deploy/asterisk/etc/extensions.conf, [inbound]): while Asterisk's EPOCH
 * is below it, Asterisk refuses a new caller with 503 itself, before Stasis. Issue 47: a refusal
 * that waits for StasisStart to cross to the core and a hang-up to come back is slowest exactly
 * when the node is busiest; with the flag, only the first caller past a limit takes that trip.
 */
export const FULL_UNTIL_VARIABLE = 'CORE_FULL_UNTIL';
/** How far ahead the flag is set: if the core stops refreshing it (stuck, gone) it lapses by itself. */
const HOLD_MS = 1000;
/** While refusing, the limits are judged again this often, so the flag is lifted soon after they clear. */
const RECHECK_MS = 250;

/** Admission before answering, as the Stasis app uses it (pbx/stasis-app.ts). */
export interface Admission {
  /** Why a caller arriving now is refused, or undefined: then the call counts as admitted. `ariNowMs`: the event's time on Asterisk's clock. */
  admit(channelId: string, activeCalls: number, ariNowMs?: number): string | undefined;
  /** Asterisk confirmed the answer of an admitted call. */
  answered(channelId: string): void;
  /** The call is over (answered or not). */
  left(channelId: string): void;
  stop(): void;
}

export interface AdmissionGateDeps {
  limits: AdmissionLimits & SetupLimits;
  load: NodeLoadReader;
  rest: Pick<AriRest, 'setGlobalVariable'>;
  log: Pick<Log, 'warn'>;
  now?: () => number;
}

export function createAdmissionGate(deps: AdmissionGateDeps): Admission {
  const { limits, load, rest, log } = deps;
  const now = deps.now ?? Date.now;
  const watch = new SetupWatch(limits);
  // The calls-in-progress limit is left to the core alone: Asterisk's own maxcalls (PBX_MAX_CALLS)
  // is that limit at the SIP edge, and a count frees with every call that ends, which a flag
  // that lapses on a clock would not follow. The flag is for the limits judged over time.
  const timedLimits: AdmissionLimits = { ...limits, maxCalls: 0 };
  let ariOffsetMs = 0;
  /** The EPOCH second the flag was last set to; 0 while clear. */
  let flagged = 0;
  let timer: NodeJS.Timeout | undefined;

  const timedReason = () => refusalReason({ activeCalls: 0, loopLagMs: load.loopLagMs(), jobsWaiting: load.jobsWaiting() }, timedLimits) ?? watch.refusal(now());
  const setFlag = (untilSecond: number) => {
    if (untilSecond === flagged) return;
    flagged = untilSecond;
    // Cleared as 0, never empty: the dialplan compares it as a number ([globals] starts it at 0).
    void rest.setGlobalVariable(FULL_UNTIL_VARIABLE, String(untilSecond)).catch((err: unknown) =>
      log.warn({ err }, 'could not tell Asterisk to refuse new callers itself: the core goes on refusing them one by one'),
    );
  };
  const refresh = () => {
    if (timedReason() === undefined) {
      setFlag(0);
      clearInterval(timer);
      timer = undefined;
      return;
    }
    setFlag(Math.ceil((now() + ariOffsetMs + HOLD_MS) / 1000));
  };

  return {
    admit(channelId, activeCalls, ariNowMs) {
      if (ariNowMs !== undefined) ariOffsetMs = ariNowMs - now();
      const counted = refusalReason({ activeCalls, loopLagMs: 0, jobsWaiting: 0 }, { maxCalls: limits.maxCalls, maxLoopLagMs: 0, maxJobsWaiting: 0 });
      if (counted !== undefined) return counted;
      const timed = timedReason();
      if (timed === undefined) {
        watch.admitted(channelId, now());
        return undefined;
      }
      refresh();
      timer ??= setInterval(refresh, RECHECK_MS).unref();
      return timed;
    },
    answered: (channelId) => watch.answered(channelId, now()),
    left: (channelId) => watch.left(channelId),
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
