// The JSON shapes of SPEC.md §3 as the API sends them. Shared by the server and the console.
// Each shape is declared once, as a TypeBox schema in contract/schemas/ (the server validates and
// serialises with it); the types here are derived from those, type-only, so the console's bundle
// never carries the schemas.
import type { Static } from 'typebox';
import type { AnalyticsPeriodSchema, ApiAnalyticsSchema, ApiCallLogSchema, ApiCallLogsResponseSchema, ApiUrgencyBreakdownSchema, CallLogResponse, CallUrgencySchema } from './schemas/calls.js';
import type { AgentPreviewBody, AgentPreviewResponse, AgentVoicesResponse } from './schemas/agent-preview.js';
import type { ApiAdminLineStateSchema, ApiOwnerLineStateSchema } from './schemas/line-state.js';
import type { ApiAgentCapacitySchema } from './schemas/agent-capacity.js';
import type { ApiEnginesSchema } from './schemas/language-model.js';
import type { ApiQualityReportsSchema, QualityReportSchema, SelfTestStatusSchema } from './schemas/quality.js';
import type { ApiAssignedUserSchema, ApiNumberStatsSchema, ApiPhoneNumberSchema, ApiProviderNumberSchema, ApiUsageSchema } from './schemas/numbers.js';
import type { ApiMetaSchema } from './schemas/system.js';
import type { ApiUnansweredQuestionSchema } from './schemas/questions.js';
import type { SignupBody } from './schemas/auth.js';
import type { AccountStatusSchema, AiModeSchema, CallStatusSchema, VoicePreferenceSchema } from './schemas/shared.js';
import type { ApiUserSchema, MeResponse, SettingsUpdateBody } from './schemas/users.js';
import type { ApiCallBackSchema, CallBackResponse, CallBacksResponse, TakeCallBackResponse } from './schemas/call-backs.js';

export type AccountStatus = Static<typeof AccountStatusSchema>;
export type VoicePreference = Static<typeof VoicePreferenceSchema>;
export type AiMode = Static<typeof AiModeSchema>;
export type CallStatus = Static<typeof CallStatusSchema>;

export type ApiUser = Static<typeof ApiUserSchema>;
/** GET /api/auth/me: the account, and for a staff member's sign-in (issue 58) whose business and what they see. */
export type ApiMe = Static<typeof MeResponse>;
export type SignupRequest = Static<typeof SignupBody>;
export type SettingsUpdate = Static<typeof SettingsUpdateBody>;

export type ApiCallLog = Static<typeof ApiCallLogSchema>;
export type CallUrgency = Static<typeof CallUrgencySchema>;

/**
 * GET /api/call-logs[?limit=1..1000&before=<cursor>]: newest first. Without limit, the
 * 500 most recent calls; nextCursor (when not null) fetches the next older page.
 */
export type ApiCallLogsResponse = Static<typeof ApiCallLogsResponseSchema>;
/** GET /api/call-logs/{id}: one of the owner's calls; 404 "Call not found." for anyone else's. */
export type ApiCallLogResponse = Static<typeof CallLogResponse>;

export type ApiPhoneNumber = Static<typeof ApiPhoneNumberSchema>;

export type ApiUnansweredQuestion = Static<typeof ApiUnansweredQuestionSchema>;

/** The stretch `urgencyBreakdown` covers (London days, as the other figures): GET /api/analytics?period=. */
export { ANALYTICS_PERIODS } from './enums.js';
export type AnalyticsPeriod = Static<typeof AnalyticsPeriodSchema>;

/** Calls in the period by the summary step's urgency; `unassessed` had none (missed calls, summaries pending or failed). */
export type ApiUrgencyBreakdown = Static<typeof ApiUrgencyBreakdownSchema>;
export type ApiAnalytics = Static<typeof ApiAnalyticsSchema>;

export type ApiAssignedUser = Static<typeof ApiAssignedUserSchema>;

/** Admin view of a provider number; `{provider}Sid` carries the provider's identifier. */
export type ApiProviderNumber = Static<typeof ApiProviderNumberSchema> & { [sidField: `${string}Sid`]: string };

export type ApiNumberStats = Static<typeof ApiNumberStatsSchema>;
export type ApiUsage = Static<typeof ApiUsageSchema>;

/** GET /api/admin/agent-capacity: agent conversations against what the engines serve, and calls turned to voicemail for capacity in the last 24 hours. */
export type ApiAgentCapacity = Static<typeof ApiAgentCapacitySchema>;

/** GET /api/admin/engines: the language model's state (pulled on first start, issue 60). */
export type ApiEngines = Static<typeof ApiEnginesSchema>;

/** GET /api/meta: what the console must learn from the server rather than hard-code. */
export type ApiMeta = Static<typeof ApiMetaSchema>;

/** POST /api/agent/preview: the console's "Try Your AI Agent" panel. */
export type AgentPreviewRequest = Static<typeof AgentPreviewBody>;
export type AgentPreviewResult = Static<typeof AgentPreviewResponse>;
/** GET /api/agent/voices: the voices installed for each caller language but English (issue 42). */
export type AgentVoices = Static<typeof AgentVoicesResponse>;

/** GET /api/admin/quality: the latest quality evaluation report per set of models (npm run eval). */
export type ApiQualityReport = Static<typeof QualityReportSchema>;
export type ApiQualityReports = Static<typeof ApiQualityReportsSchema>;
/** The box's self-test (core/self-test) in GET /api/admin/quality. */
export type ApiSelfTestStatus = Static<typeof SelfTestStatusSchema>;
export type ApiOwnerLineState = Static<typeof ApiOwnerLineStateSchema>;
export type ApiAdminLineState = Static<typeof ApiAdminLineStateSchema>;

// Live calls (issue 54): GET /api/live/calls → { calls: ApiLiveCall[] }; GET /api/live/events is Server-Sent
// Events named by LiveEventName, each carrying LiveEventData[name] as JSON; POST /api/live/calls/{id}/end.
export type { ApiLiveCall, LiveMode, LiveEventData } from './schemas/live.js';

// A call's live history in the call log (issue 54): one listen, take-over or End call.
export type ApiLiveHistoryEntry = ApiCallLog['liveHistory'][number];

// The call-back tracker (issue 56): GET /api/call-backs, POST /api/call-backs/:id/cancel and /take.
export type ApiCallBack = Static<typeof ApiCallBackSchema>;
export type ApiCallBacksResponse = Static<typeof CallBacksResponse>;
export type ApiCallBackResponse = Static<typeof CallBackResponse>;
export type ApiTakeCallBackResponse = Static<typeof TakeCallBackResponse>;
