// The call log (core/calls/routes.ts) and the analytics drawn from it (core/analytics/routes.ts).
import { Type } from 'typebox';
import { AGENT_VOICEMAIL_REASONS, ANALYTICS_PERIODS, CALL_DIRECTIONS, CALL_CLASSES, CALL_URGENCIES, HANDLING_PERIODS, LIVE_CALL_EVENTS, SCREENED_BY, TAKE_OVER_VIAS } from '../enums.js';
import { CallerTagSchema, TransferOutcomeSchema } from './call-handling.js';
import { CallStatusSchema, Nullable, OneOf } from './shared.js';

export const CallUrgencySchema = OneOf(CALL_URGENCIES);

/** Who took a call over from the assistant (issue 54): the first take-over, as the call's row keeps it. */
const TakenOverSchema = Type.Object({ by: Type.String(), at: Type.String(), via: OneOf(TAKE_OVER_VIAS) });

/** One live action on a call (issue 54): a listen, a take-over (via: browser or phone) or End call, by whom and when. */
const LiveHistoryEntrySchema = Type.Object({
  event: OneOf(LIVE_CALL_EVENTS),
  by: Type.String(),
  via: Type.Optional(OneOf(TAKE_OVER_VIAS)),
  at: Type.String(),
});

export const ApiCallLogSchema = Type.Object({
  id: Type.Integer(),
  fromNumber: Type.String(),
  toNumber: Type.String(),
  status: CallStatusSchema,
  duration: Type.Integer(),
  createdAt: Type.String(),
  aiSummary: Nullable(Type.String()),
  transcription: Nullable(Type.String()),
  recordingUrl: Nullable(Type.String()),
  notificationSent: Type.Boolean(),
  /** From the summary step; null until a summary has assessed the call (missed calls stay null). */
  urgency: Nullable(CallUrgencySchema),
  /** A few words saying why, e.g. "water coming through the ceiling". */
  urgencyReason: Nullable(Type.String()),
  /** When the owner marked the caller rung back (ISO time), or null; see contract/callback.ts. */
  calledBackAt: Nullable(Type.String()),
  /** Call handling (contract/call-handling.ts): blocked, withheld and refused, or a VIP; null otherwise. */
  callerTag: Nullable(CallerTagSchema),
  /** The warm transfer tried on this call, or null when none was. */
  transferOutcome: Nullable(TransferOutcomeSchema),
  /** Seconds the caller and the owner talked after a connected transfer. */
  transferTalkSeconds: Nullable(Type.Integer()),
  /** Whether the call came in open or closed hours; null on calls before call handling. */
  period: Nullable(OneOf(HANDLING_PERIODS)),
  /** An agent-mode call the AI assistants had no room for: the caller left a voicemail instead. */
  agentBusy: Type.Boolean(),
  /** An agent-mode call whose engines stalled mid-conversation: the caller was offered voicemail (issue 27). */
  agentStalled: Type.Boolean(),
  /** An agent-mode call answered in voicemail mode with the owner's greeting because agent mode was off on the box (issue 60): 'model' (the language model was still downloading) or 'slow' (the assistant was too slow on this box); null otherwise. */
  agentVoicemailReason: Nullable(OneOf(AGENT_VOICEMAIL_REASONS)),
  /** The owner's own "Call my line" from the console: left out of analytics and usage (named as its column, calls.test_call). */
  testCall: Type.Boolean(),
  /** 'call-back': the assistant rang the caller back as they asked (issue 56; fromNumber is still the caller's); 'in' for calls that rang in. */
  direction: OneOf(CALL_DIRECTIONS),
  /** What the summary said the call was (genuine, sales, recorded, silent, wrong-number); null until assessed. */
  callClass: Nullable(OneOf(CALL_CLASSES)),
  /** Why the call was screened (summary, owner's spam list, box-wide list): kept, never texted; null when it was not. */
  screenedBy: Nullable(OneOf(SCREENED_BY)),
  /** The language the caller was answered in or left their message in (a whisper code, e.g. "pl"); null for English throughout (issue 42). */
  callerLanguage: Nullable(Type.String()),
  /** The transcript in English, beside the original, when the caller spoke another language; null otherwise or until translated. */
  transcriptEnglish: Nullable(Type.String()),
  /** The summary found the caller wanted a booking: Call Details offers "Book this caller" (POST /api/call-logs/{id}/booking). */
  wantsBooking: Type.Boolean(),
  /** The team member the call was for, put through to or answered by (issue 58); null when nobody in particular. */
  staffId: Nullable(Type.Integer()),
  /** That member's name (a removed member's too: their calls stay theirs). */
  staffName: Nullable(Type.String()),
  /** What routing did, as Call Details shows it ("Asked for Sarah: not working today, message taken for Sarah"); null when it did nothing. */
  routingNote: Nullable(Type.String()),
  /** Issue 54: who took the call over from the assistant, when and how; null when nobody did. */
  takenOver: Nullable(TakenOverSchema),
  /** Issue 54: the call's live actions while it was in progress (listens, take-overs, End call), oldest first; empty when none. */
  liveHistory: Type.Array(LiveHistoryEntrySchema),
});

/** GET /api/call-logs?limit=1..max&before=<cursor>&staffId=<a team member's id>. */
export const CallLogsQuery = (maxLimit: number) =>
  Type.Object({
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: maxLimit })),
    before: Type.Optional(Type.String({ maxLength: 40 })),
    staffId: Type.Optional(Type.Integer({ minimum: 1 })),
  });

export const ApiCallLogsResponseSchema = Type.Object({ callLogs: Type.Array(ApiCallLogSchema), nextCursor: Nullable(Type.String()) });

/** GET /api/call-logs/{id}/recording: any text up to 20 characters, so a bad id is the recording's 404, not a 400. */
export const RecordingParams = Type.Object({ id: Type.String({ maxLength: 20 }) });

/** GET /api/call-logs/{id}: one call, for a link to a call older than the pages loaded. */
export const CallLogResponse = Type.Object({ callLog: ApiCallLogSchema });

export const CalledBackBody = Type.Object({ calledBack: Type.Boolean() }, { additionalProperties: false });
export const CalledBackResponse = Type.Object({ callLog: ApiCallLogSchema, message: Type.String() });

/** One of ANALYTICS_PERIODS (contract/enums.ts; contract/api.ts re-exports it for the console). */
export const AnalyticsPeriodSchema = Type.Enum(ANALYTICS_PERIODS);

/** Calls in the period by the summary step's urgency; `unassessed` had none (missed calls, summaries pending or failed). */
export const ApiUrgencyBreakdownSchema = Type.Object({
  period: AnalyticsPeriodSchema,
  calls: Type.Integer(),
  urgent: Type.Integer(),
  normal: Type.Integer(),
  low: Type.Integer(),
  unassessed: Type.Integer(),
});

export const ApiAnalyticsSchema = Type.Object({
  totalCalls: Type.Integer(),
  thisMonthCalls: Type.Integer(),
  avgDuration: Type.Number(),
  missedCallRate: Type.Number(),
  callsPerDay: Type.Record(Type.String(), Type.Number()),
  peakHours: Type.Record(Type.String(), Type.Number()),
  statusBreakdown: Type.Object({ missed: Type.Integer(), answered: Type.Integer(), voicemail: Type.Integer() }),
  notificationSuccessRate: Type.Number(),
  transcriptionSuccessRate: Type.Number(),
  recentCalls: Type.Array(
    Type.Object({ id: Type.Integer(), fromNumber: Type.String(), status: CallStatusSchema, duration: Type.Integer(), createdAt: Type.String() }),
  ),
  /** Added to SPEC's figures: calls by urgency over the requested period (all time by default). */
  urgencyBreakdown: ApiUrgencyBreakdownSchema,
  /** Nuisance calls screened over the same period as urgencyBreakdown (issue 43): kept, never texted to the owner. */
  screenedCalls: Type.Integer(),
});
