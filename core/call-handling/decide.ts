import type { CallHandlingDecision, CallHandlingSettings } from '../../contract/call-handling.js';
import { toE164 } from '../../contract/phone.js';
import { periodAt } from './schedule.js';
import { isWithheldCaller } from '../../contract/withheld.js';
import type { AiMode } from '../../contract/api.js';

/**
 * How one call is handled, decided once when it arrives. In order: a blocked number is
 * refused; a withheld one follows the owner's withheld policy; otherwise the period (hours,
 * bank holidays) picks the mode and whether the owner's phone rings first, and a VIP always
 * rings first. Nothing rings first without a transfer number.
 */
export function decideHandling(
  settings: CallHandlingSettings,
  aiMode: AiMode,
  callerNumber: string | null,
  now: Date,
): CallHandlingDecision {
  const withheld = isWithheldCaller(callerNumber);
  // Lists hold E.164; the trunk may send any spelling.
  const caller = withheld ? null : (toE164(callerNumber) ?? callerNumber!.trim());
  if (caller !== null && settings.blockList.includes(caller)) return { kind: 'refuse', reason: 'blocked' };
  if (withheld && settings.withheld === 'refuse') return { kind: 'refuse', reason: 'withheld' };

  const period = periodAt(settings, now);
  const open = period === 'open';
  const greeting = open ? null : settings.closedGreeting;
  const canTransfer = settings.transferNumber !== null;
  if (takesMessageOnly(settings, callerNumber)) {
    return { kind: 'answer', mode: 'voicemail', period, ringFirst: false, vip: false, greeting };
  }
  const vip = caller !== null && settings.vipList.includes(caller);
  const ruleRingsFirst = open ? settings.openRingFirst : settings.closedRingFirst;
  return {
    kind: 'answer',
    mode: open ? aiMode : settings.closedMode,
    period,
    ringFirst: canTransfer && (vip || ruleRingsFirst),
    vip,
    greeting,
  };
}

/** A withheld caller the owner only takes messages from: voicemail, and nobody's phone is rung for them (the owner's or the team's). */
export function takesMessageOnly(settings: Pick<CallHandlingSettings, 'withheld'>, callerNumber: string | null): boolean {
  return settings.withheld === 'message-only' && isWithheldCaller(callerNumber);
}
