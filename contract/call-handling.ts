// Call handling an owner controls (issue 16): what the settings side stores and the call side
// reads. The settings side (core/call-handling/) validates and stores these and decides, per call,
// with `decideHandling`; the call side (pbx/) only acts on the decision. The API's shapes are
// declared once in contract/schemas/call-handling.ts; the types here are derived from them.
import type { Static } from 'typebox';
import type { HANDLING_PERIODS } from './enums.js';
import type {
  CallerTagSchema,
  CallHandlingResponse,
  CallHandlingSettingsSchema,
  CallHandlingUpdateBody,
  HolidayNationSchema,
  OpeningSpanSchema,
  TransferOutcomeSchema,
  WithheldPolicySchema,
} from './schemas/call-handling.js';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Each weekday's name, as the console shows it and the server's messages say it. */
export const WEEKDAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** One opening span in UK local time, "HH:MM" 24-hour; close after open (no spans over midnight). */
export type OpeningSpan = Static<typeof OpeningSpanSchema>;

/** The UK nations whose bank holidays close the business (date-holidays' GB regions). */
export type HolidayNation = Static<typeof HolidayNationSchema>;

export type WithheldPolicy = Static<typeof WithheldPolicySchema>;

/** What an owner set (contract/schemas/call-handling.ts says what each field means). */
export type CallHandlingSettings = Static<typeof CallHandlingSettingsSchema>;

export type CallHandlingDecision =
  /** A short polite refusal, no recording, no text; the call row is tagged. */
  | { kind: 'refuse'; reason: 'blocked' | 'withheld' }
  | {
      kind: 'answer';
      mode: 'voicemail' | 'agent';
      period: (typeof HANDLING_PERIODS)[number];
      /** Try the owner's phone before the mode's flow (ring-first rule, or a VIP with a transfer number). */
      ringFirst: boolean;
      vip: boolean;
      /** The closed-hours greeting to play instead of the usual one, when set and closed. */
      greeting: string | null;
    };

/** Outcome of one warm-transfer attempt, stored on the call row. */
export type TransferOutcome = Static<typeof TransferOutcomeSchema>;

/** How a call row is tagged by call handling (null = nothing special). */
export type CallerTag = Static<typeof CallerTagSchema>;

/**
 * PUT /api/user/call-handling: any field left out keeps its stored value; numbers in any UK
 * spelling (stored E.164). GET and PUT answer ApiCallHandlingResponse.
 */
export type CallHandlingUpdate = Static<typeof CallHandlingUpdateBody>;

export type ApiCallHandlingResponse = Static<typeof CallHandlingResponse>;

/** POST (add) and DELETE (remove) /api/user/call-handling/{block|vip}, body {number}. */
export type CallHandlingListName = 'block' | 'vip';
