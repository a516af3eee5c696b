// Call handling an owner controls (issue 16): what the settings side stores and the call side
// reads. The settings side (core/call-handling/) validates and stores these and decides, per call,
// with `decideHandling`; the call side (pbx/) only acts on the decision.

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** One opening span in UK local time, "HH:MM" 24-hour; close after open (no spans over midnight). */
export interface OpeningSpan {
  open: string;
  close: string;
}

/** The UK nations whose bank holidays close the business (date-holidays' GB regions). */
export type HolidayNation = 'england-wales' | 'scotland' | 'northern-ireland';

export type WithheldPolicy = 'normal' | 'message-only' | 'refuse';

export interface CallHandlingSettings {
  /** E.164 mobile the caller is put through to; null = no transfers. */
  transferNumber: string | null;
  /** Seconds the owner's phone rings before the caller goes back to voicemail (5–60). */
  transferTimeoutSeconds: number;
  /** Off: every moment is "open". */
  hoursEnabled: boolean;
  hours: Record<Weekday, OpeningSpan[]>;
  /** Bank holidays of these nations are closed all day; none = no holidays. */
  holidayNations: HolidayNation[];
  /** Open hours answer in the owner's aiMode (SPEC's setting); this adds "ring me first". */
  openRingFirst: boolean;
  closedMode: 'voicemail' | 'agent';
  closedRingFirst: boolean;
  /** Played instead of the usual greeting in closed hours; null = the usual greeting. */
  closedGreeting: string | null;
  /** E.164 numbers. */
  blockList: string[];
  vipList: string[];
  withheld: WithheldPolicy;
}

export type CallHandlingDecision =
  /** A short polite refusal, no recording, no text; the call row is tagged. */
  | { kind: 'refuse'; reason: 'blocked' | 'withheld' }
  | {
      kind: 'answer';
      mode: 'voicemail' | 'agent';
      period: 'open' | 'closed';
      /** Try the owner's phone before the mode's flow (ring-first rule, or a VIP with a transfer number). */
      ringFirst: boolean;
      vip: boolean;
      /** The closed-hours greeting to play instead of the usual one, when set and closed. */
      greeting: string | null;
    };

/** Outcome of one warm-transfer attempt, stored on the call row. */
export type TransferOutcome = 'connected' | 'declined' | 'no-answer' | 'busy' | 'rejected' | 'failed';

/** How a call row is tagged by call handling (null = nothing special). */
export type CallerTag = 'blocked' | 'withheld-refused' | 'vip';

/**
 * PUT /api/user/call-handling: any field left out keeps its stored value; numbers in any UK
 * spelling (stored E.164). GET and PUT answer ApiCallHandlingResponse.
 */
export type CallHandlingUpdate = Partial<Omit<CallHandlingSettings, 'hours'>> & { hours?: Partial<Record<Weekday, OpeningSpan[]>> };

export interface ApiCallHandlingResponse {
  callHandling: CallHandlingSettings;
  message?: string;
}

/** POST (add) and DELETE (remove) /api/user/call-handling/{block|vip}, body {number}. */
export type CallHandlingListName = 'block' | 'vip';
export interface CallHandlingListEntry {
  number: string;
}
