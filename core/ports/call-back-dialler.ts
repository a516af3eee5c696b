// The agent's call-backs between the core and the PBX (issue 56). The core decides who is rung
// and when (core/call-backs: the rules; core/call-backs-store: the rows; the dialler's sweep);
// the PBX places one call, holds the conversation and says how it ended. Returned by startPbx
// when it can call out (OUTBOUND_ENDPOINT) and agent mode is installed.
import type { CallBackOutcome } from '../../contract/call-backs.js';
import type { LanguageCode } from '../../dialogue/language/languages.js';

/** One try of one call-back, as the core hands it to the PBX. */
export interface CallBackDial {
  callBackId: number;
  userId: number;
  /** The caller to ring (E.164, already passed by mayDial). */
  to: string;
  /** The business's own number (E.164), presented as the caller ID. */
  from: string;
  businessName: string | null;
  /** The first call's summary (the caller's own words), for the agent to go on from; null for a CALL reply to the text. */
  firstCallSummary: string | null;
  firstCallId: number | null;
  /** The language the first call was held in, when it was not English. */
  language?: LanguageCode;
}

export type CallBackDialResult =
  /** The call was placed; how it ended, and its own row in `calls` when one was written (an answered call). */
  | { placed: true; outcome: CallBackOutcome; callId: number | null }
  /**
   * Not placed, no try counted: every agent engine slot an inbound caller may need is taken
   * ('no-slot': inbound always wins, the call-back waits), or the PBX link is down.
   */
  | { placed: false; why: 'no-slot' | 'pbx-down' };

/** Places one call-back and resolves when it has ended (answered and hung up, or not answered). */
export type CallBackDialler = (dial: CallBackDial) => Promise<CallBackDialResult>;

/** The message the PBX leaves on an answering machine: the core's fixed words (core/call-backs/texts.ts), reached through this port. */
export { answeringMachineMessage } from '../call-backs/texts.js';
