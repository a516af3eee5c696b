// Call handling (issue 16) as the API takes and sends it (core/call-handling/routes.ts).
import { Type } from 'typebox';
import { CALL_HANDLING_LIMITS } from '../rules.js';
import { CALLER_TAGS, TRANSFER_OUTCOMES, WITHHELD_POLICIES } from '../enums.js';
import { AiModeSchema, Nullable, OneOf } from './shared.js';
import { CALL_BACKS_BY } from '../call-backs.js';

export const OpeningSpanSchema = Type.Object({ open: Type.String(), close: Type.String() });
export const HolidayNationSchema = Type.Union([Type.Literal('england-wales'), Type.Literal('scotland'), Type.Literal('northern-ireland')]);
export const WithheldPolicySchema = OneOf(WITHHELD_POLICIES);
export const TransferOutcomeSchema = OneOf(TRANSFER_OUTCOMES);
export const CallerTagSchema = OneOf(CALLER_TAGS);
const CallBacksBySchema = OneOf(CALL_BACKS_BY);

const Week = <T extends ReturnType<typeof Type.Array>>(day: T) =>
  Type.Object({ mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day });

export const CallHandlingSettingsSchema = Type.Object({
  /** E.164 mobile the caller is put through to; null = no transfers. */
  transferNumber: Nullable(Type.String()),
  /** Seconds the owner's phone rings before the caller goes back to voicemail (5–60). */
  transferTimeoutSeconds: Type.Number(),
  /** Off: every moment is "open". */
  hoursEnabled: Type.Boolean(),
  hours: Week(Type.Array(OpeningSpanSchema)),
  /** Bank holidays of these nations are closed all day; none = no holidays. */
  holidayNations: Type.Array(HolidayNationSchema),
  /** Open hours answer in the owner's aiMode (SPEC's setting); this adds "ring me first". */
  openRingFirst: Type.Boolean(),
  closedMode: AiModeSchema,
  closedRingFirst: Type.Boolean(),
  /** Played instead of the usual greeting in closed hours; null = the usual greeting. */
  closedGreeting: Nullable(Type.String()),
  /** E.164 numbers. */
  blockList: Type.Array(Type.String()),
  vipList: Type.Array(Type.String()),
  withheld: WithheldPolicySchema,
  /** Who rings callers back who asked for it (issue 56): the owner, the agent after callBackAfterMinutes, or the agent at the agreed time. */
  callBacksBy: CallBacksBySchema,
  /** With 'agent-after': minutes the owner has to ring back first (5–240). */
  callBackAfterMinutes: Type.Number(),
});

const Span = Type.Object({ open: Type.String({ maxLength: 10 }), close: Type.String({ maxLength: 10 }) }, { additionalProperties: false });
const Spans = Type.Optional(Type.Array(Span, { maxItems: 24 }));
// The list cap itself: a longer list is refused before any of it is parsed as phone numbers.
const Numbers = Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: CALL_HANDLING_LIMITS.listEntries }));

/**
 * PUT /api/user/call-handling: any field left out keeps its stored value; numbers in any UK
 * spelling (stored E.164). The bounds here only keep absurd bodies out: validate.ts applies the
 * real rules with the messages an owner reads.
 */
export const CallHandlingUpdateBody = Type.Object(
  {
    transferNumber: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
    transferTimeoutSeconds: Type.Optional(Type.Number()),
    hoursEnabled: Type.Optional(Type.Boolean()),
    hours: Type.Optional(
      Type.Object({ mon: Spans, tue: Spans, wed: Spans, thu: Spans, fri: Spans, sat: Spans, sun: Spans }, { additionalProperties: false }),
    ),
    holidayNations: Type.Optional(Type.Array(HolidayNationSchema, { maxItems: 6 })),
    openRingFirst: Type.Optional(Type.Boolean()),
    closedMode: Type.Optional(AiModeSchema),
    closedRingFirst: Type.Optional(Type.Boolean()),
    closedGreeting: Type.Optional(Type.Union([Type.String({ maxLength: CALL_HANDLING_LIMITS.closedGreeting * 2, multiline: true }), Type.Null()])),
    blockList: Numbers,
    vipList: Numbers,
    withheld: Type.Optional(WithheldPolicySchema),
    callBacksBy: Type.Optional(CallBacksBySchema),
    callBackAfterMinutes: Type.Optional(Type.Number()),
  },
  { additionalProperties: false },
);

/** POST (add) and DELETE (remove) /api/user/call-handling/{block|vip}. */
export const CallHandlingListEntryBody = Type.Object({ number: Type.String({ maxLength: 40 }) }, { additionalProperties: false });

export const CallHandlingResponse = Type.Object({ callHandling: CallHandlingSettingsSchema, message: Type.Optional(Type.String()) });
