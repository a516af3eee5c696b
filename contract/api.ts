// The JSON shapes of SPEC.md §3 as the API sends them. Shared by the server and the console.
// Each shape is declared once, as a TypeBox schema in contract/schemas/ (the server validates and
// serialises with it); the types here are derived from those, type-only, so the console's bundle
// never carries the schemas.
import type { Static } from 'typebox';
import type { CallerTag, TransferOutcome } from './call-handling.js';
import type { SignupBody } from './schemas/auth.js';
import type { AccountStatusSchema, ApiErrorSchema, AiModeSchema, CallStatusSchema, RoleSchema, VoicePreferenceSchema } from './schemas/shared.js';
import type { ApiUserSchema, SettingsUpdateBody } from './schemas/users.js';

export type Role = Static<typeof RoleSchema>;
export type AccountStatus = Static<typeof AccountStatusSchema>;
export type VoicePreference = Static<typeof VoicePreferenceSchema>;
export type AiMode = Static<typeof AiModeSchema>;
export type CallStatus = Static<typeof CallStatusSchema>;

export type ApiUser = Static<typeof ApiUserSchema>;
export type SignupRequest = Static<typeof SignupBody>;
export type SettingsUpdate = Static<typeof SettingsUpdateBody>;

export interface ApiCallLog {
  id: number;
  fromNumber: string;
  toNumber: string;
  status: CallStatus;
  duration: number;
  createdAt: string;
  aiSummary: string | null;
  transcription: string | null;
  recordingUrl: string | null;
  notificationSent: boolean;
  /** From the summary step; null until a summary has assessed the call (missed calls stay null). */
  urgency: CallUrgency | null;
  /** A few words saying why, e.g. "water coming through the ceiling". */
  urgencyReason: string | null;
  /** When the owner marked the caller rung back (ISO time), or null; see contract/callback.ts. */
  calledBackAt: string | null;
  /** Call handling (contract/call-handling.ts): blocked, withheld and refused, or a VIP; null otherwise. */
  callerTag: CallerTag | null;
  /** The warm transfer tried on this call, or null when none was. */
  transferOutcome: TransferOutcome | null;
  /** Seconds the caller and the owner talked after a connected transfer. */
  transferTalkSeconds: number | null;
  /** Whether the call came in open or closed hours; null on calls before call handling. */
  period: 'open' | 'closed' | null;
}

export type CallUrgency = 'urgent' | 'normal' | 'low';

/**
 * GET /api/call-logs[?limit=1..1000&before=<cursor>]: newest first. Without limit, the
 * 500 most recent calls; nextCursor (when not null) fetches the next older page.
 */
export interface ApiCallLogsResponse {
  callLogs: ApiCallLog[];
  nextCursor: string | null;
}

export interface ApiPhoneNumber {
  phoneNumber: string;
  friendlyName: string | null;
}

export interface ApiUnansweredQuestion {
  id: number;
  question: string;
  callerNumber: string | null;
  aiResponse: string | null;
  createdAt: string;
  resolved: boolean;
  addedToKnowledgeBase: boolean;
}

/** The stretch `urgencyBreakdown` covers (London days, as the other figures): GET /api/analytics?period=. */
export const ANALYTICS_PERIODS = ['7d', '30d', 'month', 'all'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];

/** Calls in the period by the summary step's urgency; `unassessed` had none (missed calls, summaries pending or failed). */
export interface ApiUrgencyBreakdown {
  period: AnalyticsPeriod;
  calls: number;
  urgent: number;
  normal: number;
  low: number;
  unassessed: number;
}

export interface ApiAnalytics {
  totalCalls: number;
  thisMonthCalls: number;
  avgDuration: number;
  missedCallRate: number;
  callsPerDay: Record<string, number>;
  peakHours: Record<string, number>;
  statusBreakdown: { missed: number; answered: number; voicemail: number };
  notificationSuccessRate: number;
  transcriptionSuccessRate: number;
  recentCalls: { id: number; fromNumber: string; status: CallStatus; duration: number; createdAt: string }[];
  /** Added to SPEC's figures: calls by urgency over the requested period (all time by default). */
  urgencyBreakdown: ApiUrgencyBreakdown;
}

export interface ApiAssignedUser {
  businessName: string | null;
  businessEmail: string | null;
  email: string;
  accountStatus: AccountStatus;
  trialExpiresAt: string | null;
}

/** Admin view of a provider number; `{provider}Sid` carries the provider's identifier. */
export interface ApiProviderNumber {
  [sidField: `${string}Sid`]: string;
  phoneNumber: string;
  monthlyCost: number;
  dateCreated: string;
  assignedUser: ApiAssignedUser | null;
}

export interface ApiNumberStats {
  activeNumbers: number;
  totalMonthlyCost: number;
  monthlyUnitCost: number;
  potentialSavings: number;
  expiredNumbers: number;
  unassignedNumbers: number;
}

export interface ApiUsage {
  /** `available: false` (static numbers without a prepaid gateway account): there is no balance to show. */
  balance: { amount: number; currency: string; available?: boolean };
  totalCost: number;
  period: { startDate: string };
  phoneNumbers: { count: number; monthlyCost: number };
  calls: { inbound: { count: number; price: number }; outbound: { count: number; price: number } };
  sms: { inbound: { count: number; price: number }; outbound: { count: number; price: number } };
  recordings: { count: number; price: number };
}

/** GET /api/meta: what the console must learn from the server rather than hard-code. */
export interface ApiMeta {
  productName: string;
  provider: string;
  helpContact: { name: string; email: string };
  voices: { female: string; male: string };
}

export type ApiError = Static<typeof ApiErrorSchema>;
