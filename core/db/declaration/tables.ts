// THE DECLARATION of the appliance's tables, for both engines. `npm run db:schema` writes it out
// as core/db/sqlite/schema.ts and core/db/pg/schema.ts (this text, with the dialect kit's import
// pointed at each engine's kit), which drizzle-kit and the app read. A new column goes here, then
// `npm run db:schema`, `npm run db:generate` and `npm run db:generate:pg` (README, where a change goes).
// Each builder below means the same on both engines (test/db/schema-parity.test.ts checks the
// two outputs describe the same tables and rows; test/db/schema-generated.test.ts that they are
// up to date). Code never imports this file: it imports core/db/schema.ts.

import { sql } from 'drizzle-orm';
import type { CallHandlingSettings, HolidayNation } from '../../../contract/call-handling.js';
import type { OnCallRota, RoutingRule } from '../../../contract/team.js';
import {
  ACCOUNT_STATUSES,
  AGENT_VOICEMAIL_REASONS,
  AI_MODES,
  CALL_DIRECTIONS,
  CALL_MODES,
  CALL_STATUSES,
  CALL_URGENCIES,
  CALL_CLASSES,
  CALLER_TAGS,
  CALLER_TEXT_KINDS,
  CALLER_TEXT_STATUSES,
  DEPOSIT_KINDS,
  DEPOSIT_STATES,
  FORWARDING_CHECK_STATES,
  FORWARDING_CONDITIONS,
  HANDLING_PERIODS,
  INBOUND_CHANNELS,
  LIVE_CALL_EVENTS,
  JOB_STATUSES,
  KB_DRAFT_KINDS,
  KB_DRAFT_STATES,
  LOGIN_ROLES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  SCREEN_ACTIONS,
  SCREENED_BY,
  RING_FIRST_STYLES,
  SEND_STATUSES,
  SPAM_VERDICTS,
  STAFF_VIEWS,
  STEP_STATUSES,
  STRIPE_EVENT_SCOPES,
  SUBSCRIPTION_STATUSES,
  TAKE_OVER_VIAS,
  TEXT_BACK_HOURS,
  TRANSFER_OUTCOMES,
  VOICE_PREFERENCES,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENTS,
  WEBSITE_CRAWL_STATES,
  WEBSITE_CRAWL_TRIGGERS,
  WITHHELD_POLICIES,
} from '../../../contract/enums.js';
import { LINE_TYPES } from '../../../contract/forwarding-codes.js';
import { PUSH_ALERT_KINDS, PUSH_ALERT_STATUSES, PUSH_CALL_CHOICES, type PushAlert } from '../../../contract/push-alert.js';
import { CALL_BACK_DONE_BY, CALL_BACK_OUTCOMES, CALL_BACK_SOURCES, CALL_BACK_STATES, CALL_BACKS_BY } from '../../../contract/call-backs.js';

// The dialect kit: the one place the two engines differ (an id, an instant, a boolean, JSON,
// the table builder). db:schema points this import at each engine's own kit.
import { bool, createdAt, id, index, instant, integer, json, primaryKey, table, text, uniqueIndex } from '../sqlite/kit.js';

// Times are instants (Date in the app: epoch milliseconds on SQLite, timestamptz on PostgreSQL);
// money is integer pence (DESIGN.md, Data).

/** The owner a row belongs to: gone with the owner's account (GDPR erasure deletes the user). */
const ownerId = () =>
  integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/** The same, as the key of a table holding one row per owner (their settings). */
const ownerKey = () =>
  integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' });

export const users = table(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    // 'staff' (issue 58) is a team member's own sign-in: see staff.login_user_id.
    role: text('role', { enum: LOGIN_ROLES }).notNull().default('customer'),
    accountStatus: text('account_status', { enum: ACCOUNT_STATUSES }).notNull().default('pending_approval'),
    trialExpiresAt: instant('trial_expires_at'),
    createdAt: createdAt(),
    businessName: text('business_name'),
    callGreeting: text('call_greeting'),
    voicePreference: text('voice_preference', { enum: VOICE_PREFERENCES }).notNull().default('female'),
    whatsappEnabled: bool('whatsapp_enabled').notNull().default(false),
    smsEnabled: bool('sms_enabled').notNull().default(true),
    notificationNumber: text('notification_number'),
    // The third channel: each call's summary by e-mail, to summary_email or else the account e-mail.
    emailSummariesEnabled: bool('email_summaries_enabled').notNull().default(false),
    summaryEmail: text('summary_email'),
    // The Monday e-mail of last week's calls not yet returned (core/digest/); on unless the owner turns it off.
    weeklyDigestEnabled: bool('weekly_digest_enabled').notNull().default(true),
    aiMode: text('ai_mode', { enum: AI_MODES }).notNull().default('voicemail'),
    // Hours after which a caller still waiting to be rung back gets the owner a reminder text; null = off.
    callbackReminderHours: integer('callback_reminder_hours'),
    /** The owner's kind of business line (issue 44): which forwarding codes the console shows them; null until they pick. */
    lineType: text('line_type', { enum: LINE_TYPES }),
    knowledgeBase: text('knowledge_base'),
    // The languages the agent may answer callers in (issue 42), whisper codes joined by commas,
    // English always among them; null: every language the box speaks (dialogue/language).
    agentLanguages: text('agent_languages'),
    // The agent's greeting languages in the owner's order (issue 42: English and Welsh), codes
    // joined by commas, English among them; null: English alone.
    greetingLanguages: text('greeting_languages'),
    // The owner's voice per caller language (issue 42): language code → the TTS engine's voice
    // name ("piper:pl_PL-gosia-medium"); a language without one (or null) speaks by voice_preference.
    languageVoices: json('language_voices').$type<Record<string, string>>(),
    // The owner's own recorded greeting line per caller language (issue 42): language code → the
    // file's name under $DATA_DIR/greeting-recordings/<user id>/ (named by its content's hash);
    // a language absent (or null) has the project's line spoken by TTS (core/settings/greeting-recordings.ts).
    greetingRecordings: json('greeting_recordings').$type<Record<string, string>>(),
    phoneNumber: text('phone_number'),
    // When the sign-up phone (above) was confirmed by its code: until then nothing is texted to it (core/notify/policy.ts).
    phoneConfirmedAt: instant('phone_confirmed_at'),
    forwardToNumber: text('forward_to_number'),
    // Sign-up request fields (SPEC.md §3, pending users).
    industry: text('industry'),
    weeklyCustomerCalls: text('weekly_customer_calls'),
    businessEmail: text('business_email'),
    addressLine1: text('address_line1'),
    addressLine2: text('address_line2'),
    city: text('city'),
    postcode: text('postcode'),
    country: text('country'),
    businessAddress: text('business_address'),
    // How many people work in the business, as said at sign-up (issue 58): more than one adds
    // "Add your team" to the first-run checklist. Null: not asked (older accounts).
    teamSize: integer('team_size'),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email), index('users_status_idx').on(t.accountStatus)],
);

export const sessions = table(
  'sessions',
  {
    // sha256 of the cookie value: a stolen database does not yield live sessions.
    idHash: text('id_hash').primaryKey(),
    userId: ownerId(),
    createdAt: createdAt(),
    expiresAt: instant('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const passwordResetTokens = table(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: ownerId(),
    createdAt: createdAt(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
  },
  (t) => [index('reset_tokens_user_idx').on(t.userId)],
);

export const auditLog = table(
  'audit_log',
  {
    id: id(),
    // No foreign keys: the trail must outlive the accounts it mentions.
    actorUserId: integer('actor_user_id'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    targetUserId: integer('target_user_id'),
    targetEmail: text('target_email'),
    details: json('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_created_idx').on(t.createdAt)],
);

export const phoneNumbers = table(
  'phone_numbers',
  {
    id: id(),
    phoneNumber: text('phone_number').notNull(), // E.164, the DID Asterisk passes to Stasis
    provider: text('provider').notNull(),
    providerSid: text('provider_sid').notNull(),
    friendlyName: text('friendly_name'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    monthlyCostPence: integer('monthly_cost_pence').notNull().default(100),
    dateCreated: createdAt(),
    assignedAt: instant('assigned_at'),
    releasedAt: instant('released_at'),
  },
  (t) => [
    uniqueIndex('phone_numbers_number_unique').on(t.phoneNumber),
    uniqueIndex('phone_numbers_sid_unique').on(t.provider, t.providerSid),
    index('phone_numbers_user_idx').on(t.userId),
  ],
);

export const calls = table(
  'calls',
  {
    id: id(),
    userId: ownerId(),
    channelId: text('channel_id'), // ARI channel id: makes call handling idempotent across reconnects
    // The core and Asterisk (NODE_NAME) that took the call: only that node reconciles it.
    node: text('node').notNull().default('node-1'),
    fromNumber: text('from_number').notNull(),
    toNumber: text('to_number').notNull(),
    mode: text('mode', { enum: CALL_MODES }).notNull().default('voicemail'),
    // 'call-back': the assistant rang the caller (issue 56); its from_number is still the caller's.
    direction: text('direction', { enum: CALL_DIRECTIONS }).notNull().default('in'),
    status: text('status', { enum: CALL_STATUSES }).notNull().default('missed'),
    duration: integer('duration').notNull().default(0), // seconds
    createdAt: createdAt(),
    endedAt: instant('ended_at'),
    recordingFile: text('recording_file'), // relative to $DATA_DIR/recordings
    transcription: text('transcription'),
    transcriptionStatus: text('transcription_status', { enum: STEP_STATUSES }).notNull().default('none'),
    aiSummary: text('ai_summary'),
    summaryStatus: text('summary_status', { enum: STEP_STATUSES }).notNull().default('none'),
    notificationSent: bool('notification_sent').notNull().default(false),
    notificationError: text('notification_error'),
    // From the summary step (null until a summary has assessed the call: missed calls stay null).
    urgency: text('urgency', { enum: CALL_URGENCIES }),
    urgencyReason: text('urgency_reason'),
    // Claimed by the call that completed a burst of repeat calls, so the owner is told once.
    repeatAlert: bool('repeat_alert').notNull().default(false),
    // Set when the owner says they rang the caller back (DONE by text).
    calledBackAt: instant('called_back_at'),
    // Claimed by the reminder sweep before it texts, so a caller is reminded of once.
    reminderAt: instant('reminder_at'),
    // Call handling (issue 16): how the call was tagged, the warm transfer tried on it, and the
    // period (open/closed hours) it arrived in. Null on calls that predate it or had none.
    callerTag: text('caller_tag', { enum: CALLER_TAGS }),
    transferOutcome: text('transfer_outcome', { enum: TRANSFER_OUTCOMES }),
    transferTalkSeconds: integer('transfer_talk_seconds'),
    period: text('period', { enum: HANDLING_PERIODS }),
    // An agent-mode call the engines had no room for: the caller was told every assistant was
    // busy and left a voicemail instead (issue 27's admission control).
    agentBusy: bool('agent_busy').notNull().default(false),
    // An agent-mode call whose engines stalled on a turn: the caller heard the holding phrase,
    // then was offered voicemail (issue 27's mid-call degradation).
    agentStalled: bool('agent_stalled').notNull().default(false),
    // An agent-mode call answered in voicemail mode with the owner's own greeting because agent
    // mode was off on this node (issue 60): 'model' while the language model was still being
    // downloaded, 'slow' while the slow-box guard was closed. Null on every other call.
    agentVoicemailReason: text('agent_voicemail_reason', { enum: AGENT_VOICEMAIL_REASONS }),
    // The owner's own "Call my line" from the console (issue 28): shown tagged in Call Logs,
    // texted as usual, left out of analytics and usage.
    testCall: bool('test_call').notNull().default(false),
    // Nuisance screening (issue 43): what the summary (and its rules) said the call was, and
    // why it was screened (kept and shown, never texted); null when it was not.
    callClass: text('call_class', { enum: CALL_CLASSES }),
    screenedBy: text('screened_by', { enum: SCREENED_BY }),
    // The language the agent last answered the caller in and the voice that spoke it (e.g.
    // "piper:pl_PL-gosia-medium"), set when it changes (issue 42): null is English throughout,
    // "en" a caller who went back to English.
    callerLanguage: text('caller_language'),
    callerVoice: text('caller_voice'),
    // The transcript in English when the caller spoke another language (issue 42): translated
    // once after the call for Call Details, beside the original; null when there is none.
    transcriptEnglish: text('transcript_english'),
    // The summary found the caller wanted a booking (issue 41, item 8): Call Details offers the
    // owner "Book this caller". False until a summary has said so.
    wantsBooking: bool('wants_booking').notNull().default(false),
    // The team member the call is for (issue 58): asked for by name or role, put through to, or
    // the one who answered when the team rang first; null = the business as a whole. Kept when
    // the member is removed (staff rows are never deleted while the business exists).
    staffId: integer('staff_id').references(() => staff.id),
    // What routing did, as Call Details shows it ("Asked for Sarah: not working today, message
    // taken for Sarah"); null when nobody was asked for and no rule or ring-first applied.
    routingNote: text('routing_note'),
    // Issue 54: the owner (or a staff member) took the call over from the agent: who (their
    // name as the console showed it), when, and how (in the browser or on their phone). Null on
    // every call nobody took over.
    takenOverBy: text('taken_over_by'),
    takenOverAt: instant('taken_over_at'),
    takenOverVia: text('taken_over_via', { enum: TAKE_OVER_VIAS }),
  },
  (t) => [
    index('calls_staff_created_idx').on(t.staffId, t.createdAt),
    index('calls_user_created_idx').on(t.userId, t.createdAt, t.id),
    // Nuisance calls from one number across businesses in a day (core/screening/box-list.ts).
    index('calls_from_created_idx').on(t.fromNumber, t.createdAt),
    // Screened calls counted by period (analytics, the weekly digest, the admin's texts saved):
    // partial, so it holds only the few screened rows and costs an unscreened call nothing. An
    // index led by screened_by lost to calls_user_created_idx for one owner's count (SQLite then
    // walked all the owner's calls: 400 ms at 100,000); this one wins on (user_id=?) and is small
    // enough to scan whole for the box-wide count (core/screening/counts.ts).
    index('calls_screened_idx').on(t.userId, t.createdAt).where(sql`screened_by is not null`),
    uniqueIndex('calls_channel_unique').on(t.channelId),
  ],
);

/**
 * A live call's history (issue 54): every listen and take-over, who and when, kept with the call
 * (gone with it when a caller's data is erased). Written by core/live-control/history.ts only.
 */
export const callLiveEvents = table(
  'call_live_events',
  {
    id: id(),
    userId: ownerId(),
    callId: integer('call_id')
      .notNull()
      .references(() => calls.id, { onDelete: 'cascade' }),
    event: text('event', { enum: LIVE_CALL_EVENTS }).notNull(),
    /** The login's name as the console shows it (the owner's, or a staff member's). */
    byName: text('by_name').notNull(),
    via: text('via', { enum: TAKE_OVER_VIAS }),
    at: instant('at').notNull(),
  },
  (t) => [index('call_live_events_call_idx').on(t.callId, t.id)],
);

export const unansweredQuestions = table(
  'unanswered_questions',
  {
    id: id(),
    userId: ownerId(),
    callId: integer('call_id').references(() => calls.id, { onDelete: 'set null' }),
    question: text('question').notNull(),
    callerNumber: text('caller_number'),
    aiResponse: text('ai_response'),
    // A question asked in another language (issue 42): `question` is its English for the owner,
    // this the caller's own words, `language` its whisper code ("pl").
    originalQuestion: text('original_question'),
    language: text('language'),
    createdAt: createdAt(),
    resolved: bool('resolved').notNull().default(false),
    addedToKnowledgeBase: bool('added_to_knowledge_base').notNull().default(false),
  },
  (t) => [index('questions_user_created_idx').on(t.userId, t.createdAt)],
);

export const jobs = table(
  'jobs',
  {
    id: id(),
    kind: text('kind').notNull(),
    // Idempotency key, e.g. "post-call:42": enqueueing twice never makes two jobs.
    key: text('key').notNull(),
    payload: json('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: JOB_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(8),
    runAt: instant('run_at').notNull(),
    lockedAt: instant('locked_at'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at'),
  },
  (t) => [uniqueIndex('jobs_key_unique').on(t.key), index('jobs_status_run_idx').on(t.status, t.runAt)],
);

export const notifications = table(
  'notifications',
  {
    id: id(),
    callId: integer('call_id').references(() => calls.id, { onDelete: 'cascade' }),
    userId: ownerId(),
    // email: the summary e-mail (core/notify/notifier.ts); `to` is then the address, `body` the plain text.
    channel: text('channel', { enum: NOTIFICATION_CHANNELS }).notNull(),
    // summary: the one text per call; repeat-caller: the one-off "called 3 times" alert;
    // reply: the answer to a command the owner texted (no call, or the call it named).
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull().default('summary'),
    to: text('to').notNull(),
    body: text('body').notNull(),
    // 'sending' is written before the provider is called, so a crash mid-send is never resent blindly.
    status: text('status', { enum: SEND_STATUSES }).notNull(),
    providerId: text('provider_id'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_call_idx').on(t.callId)],
);

/**
 * Texts that reached the Twilio webhook (POST /api/twilio/messages). The MessageSid is unique,
 * so a webhook Twilio delivers twice is acted on once. Bodies are never stored: a command's
 * kind and outcome are enough to audit, and a stranger's text is none of our business.
 */
export const inboundMessages = table(
  'inbound_messages',
  {
    id: id(),
    messageSid: text('message_sid').notNull(),
    // The owner whose notification number sent it; null for any other sender (ignored).
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: INBOUND_CHANNELS }).notNull(),
    command: text('command'),
    outcome: text('outcome'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('inbound_messages_sid_unique').on(t.messageSid)],
);

/**
 * One owner's call handling (contract/call-handling.ts), read whole once per call. A row of its
 * own rather than columns on users (read by every session check); hours and the two lists are
 * JSON because they are always read and written whole with the rest (≤ 200 numbers each) and no
 * query looks inside them. No row = the defaults (core/call-handling/defaults.ts).
 */
export const callHandling = table('call_handling', {
  userId: ownerKey(),
  transferNumber: text('transfer_number'),
  transferTimeoutSeconds: integer('transfer_timeout_seconds').notNull().default(20),
  hoursEnabled: bool('hours_enabled').notNull().default(false),
  hours: json('hours').$type<CallHandlingSettings['hours']>().notNull(),
  holidayNations: json('holiday_nations').$type<HolidayNation[]>().notNull(),
  openRingFirst: bool('open_ring_first').notNull().default(false),
  closedMode: text('closed_mode', { enum: AI_MODES }).notNull().default('voicemail'),
  closedRingFirst: bool('closed_ring_first').notNull().default(false),
  closedGreeting: text('closed_greeting'),
  blockList: json('block_list').$type<string[]>().notNull(),
  vipList: json('vip_list').$type<string[]>().notNull(),
  withheld: text('withheld', { enum: WITHHELD_POLICIES }).notNull().default('normal'),
  // Who rings callers back (issue 56, contract/call-backs.ts): the owner, or the agent after the owner's window or at the agreed time.
  callBacksBy: text('call_backs_by', { enum: CALL_BACKS_BY }).notNull().default('owner'),
  callBackAfterMinutes: integer('call_back_after_minutes').notNull().default(15),
  updatedAt: instant('updated_at').notNull(),
});

/**
 * Every call the appliance placed to an owner's phone (a put-through or a Test transfer),
 * written when the leg ends: ring time and talk time together, as the trunk is held. The
 * per-owner daily cap (core/outbound) and the admin's usage screen count these rows.
 */
export const outboundCalls = table(
  'outbound_calls',
  {
    id: id(),
    userId: ownerId(),
    startedAt: instant('started_at').notNull(),
    seconds: integer('seconds').notNull(),
  },
  (t) => [index('outbound_calls_user_started_idx').on(t.userId, t.startedAt), index('outbound_calls_started_idx').on(t.startedAt)],
);

/**
 * "Check my forwarding" (core/forwarding-check): the appliance called the owner's business line
 * (`line`) and waits until `ends_at` for that call to come back forwarded to their number
 * (`did`). In the database rather than in memory because the forwarded call may reach another
 * core than the one that placed the check (several cores share PostgreSQL). Never a call row:
 * the check leg is neither texted nor counted in analytics.
 */
export const forwardingChecks = table(
  'forwarding_checks',
  {
    id: id(),
    userId: ownerId(),
    did: text('did').notNull(),
    line: text('line').notNull(),
    state: text('state', { enum: FORWARDING_CHECK_STATES }).notNull().default('calling'),
    condition: text('condition', { enum: FORWARDING_CONDITIONS }),
    /** The diverting number the Diversion header named, as sent. */
    divertedFrom: text('diverted_from'),
    startedAt: instant('started_at').notNull(),
    endsAt: instant('ends_at').notNull(),
    finishedAt: instant('finished_at'),
  },
  (t) => [index('forwarding_checks_did_state_idx').on(t.did, t.state), index('forwarding_checks_user_idx').on(t.userId, t.startedAt)],
);

/**
 * The weekly "to call back" digest, claimed per owner and week before it is mailed, so a
 * second pass, a second process or a restart never mails the same week twice (core/digest/).
 * `week_of` is the London date of the week's Monday (YYYY-MM-DD).
 */
export const weeklyDigests = table(
  'weekly_digests',
  {
    id: id(),
    userId: ownerId(),
    weekOf: text('week_of').notNull(),
    // 'sending' is written before the mail relay is called: a crash mid-send is not mailed again.
    status: text('status', { enum: SEND_STATUSES }).notNull(),
    calls: integer('calls').notNull(),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: instant('sent_at'),
  },
  (t) => [uniqueIndex('weekly_digests_user_week_unique').on(t.userId, t.weekOf)],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type Call = typeof calls.$inferSelect;
export type PhoneNumberRow = typeof phoneNumbers.$inferSelect;
export type UnansweredQuestion = typeof unansweredQuestions.$inferSelect;

/**
 * Rate-limit counters shared by every core of a cluster (core/http/shared-rate-limit-store.ts):
 * hits of one key in its window, which ends at `expires_at`. Housekeeping deletes ended ones.
 * Unused on SQLite, where the one process keeps them in memory; declared on both so the schemas stay one.
 */
export const rateLimits = table('rate_limits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  expiresAt: instant('expires_at').notNull(),
});

/** Appliance-wide settings an admin changes at run time (e.g. data retention). One row per key. */
export const appSettings = table('app_settings', {
  key: text('key').primaryKey(),
  value: json('value').$type<unknown>().notNull(),
  updatedAt: instant('updated_at').notNull(),
});

/**
 * Per-business call counters by London day and hour, kept by triggers on `calls`
 * (SQLite's from scripts/db-schema/counter-triggers.ts, PostgreSQL's in drizzle-pg/0001_call_stats_triggers.sql), so analytics reads a few thousand rows instead of
 * scanning every call. `day` is the London calendar day as days since 1970-01-01.
 */
export const callStats = table(
  'call_stats',
  {
    userId: integer('user_id').notNull(),
    day: integer('day').notNull(),
    hour: integer('hour').notNull(),
    calls: integer('calls').notNull().default(0),
    missed: integer('missed').notNull().default(0),
    answered: integer('answered').notNull().default(0),
    voicemail: integer('voicemail').notNull().default(0),
    durationSum: integer('duration_sum').notNull().default(0),
    notified: integer('notified').notNull().default(0),
    notifyOutcomes: integer('notify_outcomes').notNull().default(0),
    transcribed: integer('transcribed').notNull().default(0),
    transcribeOutcomes: integer('transcribe_outcomes').notNull().default(0),
    // Calls by the summary step's urgency (the same triggers); calls not assessed are in none.
    urgent: integer('urgent').notNull().default(0),
    normal: integer('normal').notNull().default(0),
    low: integer('low').notNull().default(0),
  },
  // No index beyond the key: peak hours read call_hour_stats, and an index on a counter
  // column would turn every call write's counter update into index writes (and, on
  // PostgreSQL, rule out heap-only updates).
  (t) => [primaryKey({ columns: [t.userId, t.day, t.hour] })],
);

/**
 * Per-business call counters by London hour of day (0–23) over all time, kept by triggers on
 * `calls` in the same statement as each write (the same triggers as call_stats). At most 24
 * rows per business: the totals are their sum and the peak hours their `calls`, so analytics
 * costs the same at 100,000 calls as at 10. Same counters as call_stats.
 */
export const callHourStats = table(
  'call_hour_stats',
  {
    userId: integer('user_id').notNull(),
    hour: integer('hour').notNull(),
    calls: integer('calls').notNull().default(0),
    missed: integer('missed').notNull().default(0),
    answered: integer('answered').notNull().default(0),
    voicemail: integer('voicemail').notNull().default(0),
    durationSum: integer('duration_sum').notNull().default(0),
    notified: integer('notified').notNull().default(0),
    notifyOutcomes: integer('notify_outcomes').notNull().default(0),
    transcribed: integer('transcribed').notNull().default(0),
    transcribeOutcomes: integer('transcribe_outcomes').notNull().default(0),
    urgent: integer('urgent').notNull().default(0),
    normal: integer('normal').notNull().default(0),
    low: integer('low').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hour] })],
);

/**
 * The owner's webhook for their other tools (Zapier, Make, ServiceM8): one row per owner, made
 * with its secret the first time the owner opens the section. `url` null = off. The secret
 * signs every delivery (HMAC-SHA256); it is shown to its owner and never exported or logged.
 */
export const ownerWebhooks = table('owner_webhooks', {
  userId: ownerKey(),
  url: text('url'),
  secret: text('secret').notNull(),
  updatedAt: instant('updated_at').notNull(),
});

/**
 * One row per event to deliver (the console's delivery log); its job in `jobs` does the
 * sending. A call's event is unique per call, so a re-run post-call job never posts twice.
 * The body is built at each attempt from the call row, never stored here.
 */
export const webhookDeliveries = table(
  'webhook_deliveries',
  {
    id: id(),
    userId: ownerId(),
    // Gone with the call when a caller's data is erased.
    callId: integer('call_id').references(() => calls.id, { onDelete: 'cascade' }),
    event: text('event', { enum: WEBHOOK_EVENTS }).notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    httpStatus: integer('http_status'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at'),
    deliveredAt: instant('delivered_at'),
  },
  (t) => [uniqueIndex('webhook_deliveries_call_event_unique').on(t.callId, t.event), index('webhook_deliveries_user_idx').on(t.userId, t.id)],
);

export type OwnerWebhook = typeof ownerWebhooks.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;

/**
 * A notification number or summary e-mail an owner asked for but has not yet confirmed
 * (core/destinations/): the users row keeps the confirmed one until the code sent to the new
 * destination comes back. One pending change per owner and kind; the code is stored hashed.
 */
export const destinationCodes = table(
  'destination_codes',
  {
    id: id(),
    userId: ownerId(),
    kind: text('kind', { enum: ['sms', 'email'] }).notNull(),
    destination: text('destination').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: instant('expires_at').notNull(),
    wrongAttempts: integer('wrong_attempts').notNull().default(0),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [uniqueIndex('destination_codes_user_kind_idx').on(t.userId, t.kind)],
);
export type DestinationCode = typeof destinationCodes.$inferSelect;

/**
 * Every text between a business and one of its callers (core/caller-texts): the missed-call
 * text-back, the owner's answers from the console, STOP/START confirmations and the caller's own
 * texts, one thread per (user, caller number). An outgoing row is written 'sending' before the
 * provider is called and keyed (`key`, unique: e.g. "text-back:41"), so a retried job never
 * sends twice; Twilio's status callbacks find it by `provider_id`. The caller's words: exported,
 * erased with the caller and removed by the transcript retention.
 */
export const callerTexts = table(
  'caller_texts',
  {
    id: id(),
    userId: ownerId(),
    callerNumber: text('caller_number').notNull(),
    kind: text('kind', { enum: CALLER_TEXT_KINDS }).notNull(),
    status: text('status', { enum: CALLER_TEXT_STATUSES }).notNull(),
    body: text('body').notNull(),
    segments: integer('segments').notNull().default(1),
    key: text('key').notNull(),
    // The missed call a text-back answers; the thread outlives the call's row until erased.
    callId: integer('call_id').references(() => calls.id, { onDelete: 'set null' }),
    providerId: text('provider_id'),
    // Why a text failed (the provider's reason), shown in the thread.
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at'),
  },
  (t) => [
    uniqueIndex('caller_texts_key_unique').on(t.key),
    index('caller_texts_thread_idx').on(t.userId, t.callerNumber, t.id),
    index('caller_texts_provider_idx').on(t.providerId),
    index('caller_texts_created_idx').on(t.createdAt),
  ],
);

/**
 * Callers who texted STOP (or STOP ALL, UNSUBSCRIBE, END, QUIT, CANCEL) to a business: no text
 * of any kind goes from that business to that number until they text START. Kept when the
 * caller's data is erased or ages out: it is what honours their objection (UK GDPR Art. 21).
 */
export const callerOptOuts = table(
  'caller_opt_outs',
  {
    id: id(),
    userId: ownerId(),
    callerNumber: text('caller_number').notNull(),
    word: text('word').notNull(),
    optedOutAt: instant('opted_out_at').notNull(),
  },
  (t) => [uniqueIndex('caller_opt_outs_user_number_unique').on(t.userId, t.callerNumber)],
);

/** An owner's missed-call text-back (off unless a row says on): the wording, the window, and when. */
export const textBackSettings = table('text_back_settings', {
  userId: ownerKey(),
  enabled: bool('enabled').notNull().default(false),
  // Null = the default wording (core/caller-texts/text-back-rule.ts).
  wording: text('wording'),
  windowHours: integer('window_hours').notNull().default(24),
  hours: text('hours', { enum: TEXT_BACK_HOURS }).notNull().default('always'),
  updatedAt: instant('updated_at').notNull(),
});
/**
 * An owner's SPAM / NOT SPAM marks (issue 43), one per number: `spam` screens the number's
 * calls to that owner before answering; `allow` lets them through whatever the box-wide list says.
 */
export const spamMarks = table(
  'spam_marks',
  {
    id: id(),
    userId: ownerId(),
    number: text('number').notNull(),
    verdict: text('verdict', { enum: SPAM_VERDICTS }).notNull(),
    markedAt: instant('marked_at').notNull(),
  },
  (t) => [uniqueIndex('spam_marks_user_number_unique').on(t.userId, t.number), index('spam_marks_number_idx').on(t.number, t.verdict, t.markedAt)],
);

/**
 * The admin's clearings of the box-wide list (issues 43, 53). Whether a number is listed is never
 * stored: it is counted from owners' SPAM marks when it is asked (core/screening/evidence.ts), so
 * it follows expiry, suspension and deletion at once. A cleared number counts only marks newer
 * than `cleared_at`.
 */
export const boxSpamNumbers = table('box_spam_numbers', {
  number: text('number').primaryKey(),
  clearedAt: instant('cleared_at'),
  updatedAt: instant('updated_at').notNull(),
});

/** What an owner's screened-before-answering callers get (issue 43): a SIP rejection (default) or a short message. */
export const screeningSettings = table('screening_settings', {
  userId: ownerKey(),
  action: text('action', { enum: SCREEN_ACTIONS }).notNull().default('reject'),
});
export type CallerText = typeof callerTexts.$inferSelect;
export type TextBackSettingsRow = typeof textBackSettings.$inferSelect;

// ---- Booking (issue 41, core/booking/) ----

/** What callers can book with this owner. Archived rather than deleted, so old bookings keep their service's name. */
export const bookingServices = table(
  'booking_services',
  {
    id: id(),
    userId: ownerId(),
    name: text('name').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    bufferMinutes: integer('buffer_minutes').notNull().default(0),
    agentSentence: text('agent_sentence'),
    /** The service's price in pence (issue 59): what a 'full' deposit takes; null = not said. */
    pricePence: integer('price_pence'),
    /** The deposit a booking of it needs (docs/payments.md): none, fixed (deposit_pence) or full (price_pence). */
    depositKind: text('deposit_kind', { enum: DEPOSIT_KINDS }).notNull().default('none'),
    depositPence: integer('deposit_pence'),
    /** How long the pay link holds the slot before it is released unpaid. */
    depositHoldMinutes: integer('deposit_hold_minutes').notNull().default(30),
    archivedAt: instant('archived_at'),
    createdAt: createdAt(),
  },
  (t) => [index('booking_services_user_idx').on(t.userId)],
);

/** An owner's booking rules; no row = the defaults (core/booking/rules.ts). `hours` null = the call-handling opening hours. */
export const bookingRules = table('booking_rules', {
  userId: ownerKey(),
  hours: json('hours').$type<CallHandlingSettings['hours']>(),
  noticeMinutes: integer('notice_minutes').notNull().default(120),
  horizonDays: integer('horizon_days').notNull().default(14),
  dailyCap: integer('daily_cap'),
  updatedAt: instant('updated_at').notNull(),
});

/**
 * The owner's calendars: the pasted secret iCal address and the CalDAV account (secrets sealed
 * by core/booking/secret-box.ts), and the token of the private feed of the box's bookings.
 */
export const bookingCalendars = table(
  'booking_calendars',
  {
    userId: ownerKey(),
    icalUrlSealed: text('ical_url_sealed'),
    caldavUrl: text('caldav_url'),
    caldavUser: text('caldav_user'),
    caldavPasswordSealed: text('caldav_password_sealed'),
    feedToken: text('feed_token'),
    updatedAt: instant('updated_at').notNull(),
  },
  (t) => [uniqueIndex('booking_calendars_feed_unique').on(t.feedToken)],
);

/**
 * The box's own bookings: the source of truth. A live booking holds [start_at, block_end_at)
 * (its service's buffer included); no two live bookings of one owner start together (the unique
 * index here) or overlap (checked in the claim's transaction; on PostgreSQL also an exclusion
 * constraint, drizzle-pg's booking migration). `slot_key` is service:startMs, so a retried book
 * from the same call finds the booking it made.
 */
export const bookings = table(
  'bookings',
  {
    id: id(),
    userId: ownerId(),
    serviceId: integer('service_id')
      .notNull()
      .references(() => bookingServices.id),
    startAt: instant('start_at').notNull(),
    endAt: instant('end_at').notNull(),
    blockEndAt: instant('block_end_at').notNull(),
    callerName: text('caller_name').notNull(),
    callerNumber: text('caller_number').notNull(),
    callId: integer('call_id').references(() => calls.id, { onDelete: 'set null' }),
    slotKey: text('slot_key').notNull(),
    status: text('status', { enum: ['booked', 'cancelled'] }).notNull().default('booked'),
    /** 'unpaid': released because its deposit was not paid within the hold (issue 59). */
    cancelledBy: text('cancelled_by', { enum: ['owner', 'caller', 'moved', 'unpaid'] }),
    caldavHref: text('caldav_href'),
    createdAt: createdAt(),
    cancelledAt: instant('cancelled_at'),
    /** A booking moved (cancelledBy 'moved'): the booking that took its place, so the call that made it finds it at its new time. */
    movedToId: integer('moved_to_id'),
    /**
     * The team member the time is with (issue 58); null = the owner's own diary (every booking
     * made before the team). The live-booking rules hold per person: coalesce(staff_id, 0).
     */
    staffId: integer('staff_id').references(() => staff.id),
    /**
     * Its deposit (issue 59; null = none needed). An 'awaiting' booking is live (status 'booked'),
     * so it blocks the slot for everyone else until deposit_due_at, when an unpaid one is released.
     */
    depositState: text('deposit_state', { enum: DEPOSIT_STATES }),
    depositPence: integer('deposit_pence'),
    depositDueAt: instant('deposit_due_at'),
    /** The Stripe Checkout Session of the pay link (its metadata carries the booking's id) and its address. */
    depositSessionId: text('deposit_session_id'),
    depositUrl: text('deposit_url'),
    /** The payment, once paid: what a refund names. */
    depositPaymentIntent: text('deposit_payment_intent'),
  },
  (t) => [
    uniqueIndex('bookings_deposit_session_unique').on(t.depositSessionId),
    index('bookings_deposit_due_idx').on(t.depositState, t.depositDueAt),
    uniqueIndex('bookings_live_start_unique').on(t.userId, sql`coalesce(${t.staffId}, 0)`, t.startAt).where(sql`status = 'booked'`),
    index('bookings_user_start_idx').on(t.userId, t.startAt),
    index('bookings_call_slot_idx').on(t.callId, t.slotKey),
    index('bookings_caller_idx').on(t.userId, t.callerNumber),
  ],
);
export type BookingRow = typeof bookings.$inferSelect;
export type BookingServiceRow = typeof bookingServices.$inferSelect;

// ---- The team (issue 58, core/team/) ----

/**
 * The people of a business: the owner (is_owner, one row) and up to TEAM_MAX_STAFF others.
 * Removing a member sets removed_at and keeps the row, so past calls and bookings stay
 * attributed. `hours` null = the business's opening hours; bank holidays are the business's.
 * The phone is the one the agent puts callers through to and texts go to, used only once
 * confirmed by a texted code (phone_confirmed_at). The calendar is the member's own (sealed as
 * booking_calendars' are); null = none.
 */
export const staff = table(
  'staff',
  {
    id: id(),
    userId: ownerId(),
    name: text('name').notNull(),
    /** The other names callers use ("Sam", "Samantha"). */
    otherNames: json('other_names').$type<string[]>().notNull(),
    /** "engineer", "stylist", "solicitor": what a caller asking for "an engineer" means. */
    roleWord: text('role_word'),
    isOwner: bool('is_owner').notNull().default(false),
    phone: text('phone'),
    phoneConfirmedAt: instant('phone_confirmed_at'),
    /** A new phone waiting for its texted code (hashed, as destination_codes'); the confirmed one above stays in use until then. */
    pendingPhone: text('pending_phone'),
    phoneCodeHash: text('phone_code_hash'),
    phoneCodeExpiresAt: instant('phone_code_expires_at'),
    phoneCodeWrongAttempts: integer('phone_code_wrong_attempts').notNull().default(0),
    hours: json('hours').$type<CallHandlingSettings['hours']>(),
    icalUrlSealed: text('ical_url_sealed'),
    caldavUrl: text('caldav_url'),
    caldavUser: text('caldav_user'),
    caldavPasswordSealed: text('caldav_password_sealed'),
    /** Their own sign-in (a users row with role 'staff'), once invited; null = none. */
    loginUserId: integer('login_user_id').references(() => users.id, { onDelete: 'set null' }),
    inviteEmail: text('invite_email'),
    view: text('view', { enum: STAFF_VIEWS }).notNull().default('own'),
    position: integer('position').notNull().default(0),
    removedAt: instant('removed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('staff_user_idx').on(t.userId),
    uniqueIndex('staff_login_unique').on(t.loginUserId),
    uniqueIndex('staff_one_owner_unique').on(t.userId).where(sql`is_owner`),
  ],
);

/** Who does a service, with their own length when it differs from the service's (null = the service's). */
export const staffServices = table(
  'staff_services',
  {
    id: id(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    serviceId: integer('service_id')
      .notNull()
      .references(() => bookingServices.id, { onDelete: 'cascade' }),
    durationMinutes: integer('duration_minutes'),
  },
  (t) => [uniqueIndex('staff_services_unique').on(t.staffId, t.serviceId), index('staff_services_service_idx').on(t.serviceId)],
);

/** A business's team settings; no row = the defaults (nobody rung first, no rules, no rota). */
export const teamSettings = table('team_settings', {
  userId: ownerKey(),
  ringFirst: text('ring_first', { enum: RING_FIRST_STYLES }).notNull().default('off'),
  ringSeconds: integer('ring_seconds').notNull().default(20),
  /** "Copy me on everything": the owner is texted every message for a member too. */
  copyOwner: bool('copy_owner').notNull().default(false),
  /** Up to 10, checked in order (contract/team.ts). */
  rules: json('rules').$type<RoutingRule[]>().notNull(),
  /** The on-call member per weekday; a day left out has nobody on call. */
  rota: json('rota').$type<OnCallRota>().notNull(),
  updatedAt: instant('updated_at').notNull(),
});

// ---- Learning the business from its website (issue 55, core/website/; docs/website.md) ----

/** The owner's website, once given; no row = none. The weekly re-crawl is due at next_crawl_at. */
export const websiteSites = table('website_sites', {
  userId: ownerKey(),
  url: text('url').notNull(),
  /** The weekly re-crawl; the owner may turn it off. */
  weekly: bool('weekly').notNull().default(true),
  nextCrawlAt: instant('next_crawl_at'),
  updatedAt: instant('updated_at').notNull(),
});

/**
 * One crawl of an owner's site and what it found. `problems` are the plain sentences the owner
 * is shown (a page that needs JavaScript, a PDF skipped, a site that refused). At most one per
 * business is queued or running (website_crawls_one_open).
 */
export const websiteCrawls = table(
  'website_crawls',
  {
    id: id(),
    userId: ownerId(),
    url: text('url').notNull(),
    state: text('state', { enum: WEBSITE_CRAWL_STATES }).notNull(),
    trigger: text('trigger', { enum: WEBSITE_CRAWL_TRIGGERS }).notNull(),
    pagesRead: integer('pages_read').notNull().default(0),
    /** Pages whose text was unchanged since the last crawl: no model call was made for them. */
    pagesUnchanged: integer('pages_unchanged').notNull().default(0),
    draftsMade: integer('drafts_made').notNull().default(0),
    /** Drafts the code dropped because a fact in them was not in the sentence they cited. */
    draftsDropped: integer('drafts_dropped').notNull().default(0),
    problems: json('problems').$type<Array<{ url: string; problem: string }>>().notNull(),
    /** Why a failed crawl failed, in words for the owner. */
    error: text('error'),
    startedAt: instant('started_at'),
    finishedAt: instant('finished_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('website_crawls_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('website_crawls_one_open').on(t.userId).where(sql`state in ('queued', 'running')`),
  ],
);

/** Each page of the owner's site as last read: its text's hash, so an unchanged page costs no model call. */
export const websitePages = table(
  'website_pages',
  {
    id: id(),
    userId: ownerId(),
    url: text('url').notNull(),
    title: text('title').notNull(),
    contentHash: text('content_hash').notNull(),
    lastCrawlId: integer('last_crawl_id').notNull(),
    updatedAt: instant('updated_at').notNull(),
  },
  (t) => [uniqueIndex('website_pages_unique').on(t.userId, t.url)],
);

/**
 * A draft for the knowledge base from the owner's site: the question and answer, the page and
 * the sentence it came from. A 'change' names the owner's entry it would replace (`current_*`,
 * as the knowledge base said when drafted). Approved, it is written into users.knowledge_base;
 * nothing reaches the agent before that.
 */
export const kbDrafts = table(
  'kb_drafts',
  {
    id: id(),
    userId: ownerId(),
    crawlId: integer('crawl_id').references(() => websiteCrawls.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: KB_DRAFT_KINDS }).notNull(),
    state: text('state', { enum: KB_DRAFT_STATES }).notNull().default('pending'),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    sourceUrl: text('source_url').notNull(),
    /** The sentence of the page the draft came from, as the page said it. */
    quote: text('quote').notNull(),
    currentQuestion: text('current_question'),
    currentAnswer: text('current_answer'),
    /** An 'hours' draft's opening hours as code read them from the quote, offered for Call Handling; null = not readable. */
    hours: json('hours').$type<CallHandlingSettings['hours']>(),
    decidedAt: instant('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [index('kb_drafts_user_idx').on(t.userId, t.state)],
);

// ---- Money (issue 59, core/payments/; docs/payments.md) ----

/**
 * An owner's own Stripe account, for deposits: a restricted key sealed at rest (as the CalDAV
 * password is, core/booking/calendars/secret-box.ts) and never returned by the API; the webhook
 * endpoint the box made on that account and its signing secret (sealed); the owner's written
 * cancellation policy, which the confirmation text states. No row = deposits off.
 */
export const stripeConnections = table('stripe_connections', {
  userId: ownerKey(),
  secretKeySealed: text('secret_key_sealed').notNull(),
  /** What the key showed itself to be on the last test ("Hartley Plumbing Ltd", test or live mode). */
  accountLabel: text('account_label'),
  livemode: bool('livemode').notNull().default(false),
  webhookEndpointId: text('webhook_endpoint_id'),
  webhookSecretSealed: text('webhook_secret_sealed'),
  /** The owner's written deposit policy, said in the confirmation text. */
  depositPolicy: text('deposit_policy'),
  /** A caller who cancels gets the deposit back (true) or the owner keeps it (false), per the policy. */
  refundOnCallerCancel: bool('refund_on_caller_cancel').notNull().default(true),
  testedAt: instant('tested_at'),
  updatedAt: instant('updated_at').notNull(),
});

/**
 * The operator's subscription of one account (BILLING=stripe): Stripe's customer and
 * subscription, their status as the last applied event said, and when the event was made
 * (`event_at`), so an older event arriving late changes nothing. `past_due_since` starts the
 * grace period; the line pauses after it (users.account_status 'expired', as a lapsed trial).
 */
export const billingSubscriptions = table(
  'billing_subscriptions',
  {
    userId: ownerKey(),
    customerId: text('customer_id').notNull(),
    subscriptionId: text('subscription_id'),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }),
    pricePence: integer('price_pence'),
    currency: text('currency'),
    currentPeriodEnd: instant('current_period_end'),
    trialEnd: instant('trial_end'),
    cancelAtPeriodEnd: bool('cancel_at_period_end').notNull().default(false),
    pastDueSince: instant('past_due_since'),
    eventAt: instant('event_at'),
    updatedAt: instant('updated_at').notNull(),
  },
  (t) => [uniqueIndex('billing_subscriptions_customer_unique').on(t.customerId), uniqueIndex('billing_subscriptions_subscription_unique').on(t.subscriptionId)],
);

/** The operator's invoices as Stripe reported them: the owner's list (hosted links) and the admin's monthly revenue. */
export const billingInvoices = table(
  'billing_invoices',
  {
    id: text('id').primaryKey(),
    userId: ownerId(),
    amountPence: integer('amount_pence').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    hostedUrl: text('hosted_url'),
    periodStart: instant('period_start'),
    paidAt: instant('paid_at'),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [index('billing_invoices_user_idx').on(t.userId, t.createdAt), index('billing_invoices_paid_idx').on(t.paidAt)],
);

/** Each Stripe event applied, by its id: a repeat is acknowledged and changes nothing. */
export const stripeEvents = table('stripe_events', {
  id: text('id').primaryKey(),
  scope: text('scope', { enum: STRIPE_EVENT_SCOPES }).notNull(),
  /** The owner whose account (deposits) or subscription (billing) it concerned; null = none found. */
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  receivedAt: instant('received_at').notNull(),
});

/**
 * One browser's Web Push subscription (issue 54, core/push): one per device, the endpoint unique
 * (subscribing the same browser again updates it). `loginUserId` is the sign-in whose device it
 * is (the owner's, or a staff member's own, who then gets alerts only for the calls they may
 * see: `staffId`). Preferences are per device; quiet hours are London times (HH:MM), null = none.
 */
export const pushSubscriptions = table(
  'push_subscriptions',
  {
    id: id(),
    userId: ownerId(),
    loginUserId: integer('login_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    staffId: integer('staff_id').references(() => staff.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    name: text('name').notNull(),
    calls: text('calls', { enum: PUSH_CALL_CHOICES }).notNull().default('all'),
    bookings: bool('bookings').notNull().default(true),
    callerTexts: bool('caller_texts').notNull().default(true),
    quietStart: text('quiet_start'),
    quietEnd: text('quiet_end'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull(),
    lastSentAt: instant('last_sent_at'),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_unique').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId)],
);
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * One alert to one device; its job (kind 'push') sends it. `event` names what it is about
 * (call-12-summary, booking-7, caller-text-30): every device's alert of one event shares it, so an
 * alert opened on any of them stops the delayed text. The payload is kept until the alert is sent
 * or given up; then only its shape stays (no caller number or words: core/push/service.ts).
 */
export const pushAlerts = table(
  'push_alerts',
  {
    id: id(),
    alertId: text('alert_id').notNull(),
    userId: ownerId(),
    subscriptionId: integer('subscription_id').references(() => pushSubscriptions.id, { onDelete: 'set null' }),
    callId: integer('call_id').references(() => calls.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    kind: text('kind', { enum: PUSH_ALERT_KINDS }).notNull(),
    payload: json('payload').$type<PushAlert>().notNull(),
    status: text('status', { enum: PUSH_ALERT_STATUSES }).notNull().default('pending'),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: instant('sent_at'),
    openedAt: instant('opened_at'),
  },
  (t) => [
    uniqueIndex('push_alerts_alert_id_unique').on(t.alertId),
    uniqueIndex('push_alerts_event_device_unique').on(t.event, t.subscriptionId),
    index('push_alerts_user_event_idx').on(t.userId, t.event),
  ],
);
export type PushAlertRow = typeof pushAlerts.$inferSelect;

/** The owner's push settings: "text me only if the push was not opened within N minutes" (null = texts go as ever). */
export const pushSettings = table('push_settings', {
  userId: ownerKey(),
  textDelayMinutes: integer('text_delay_minutes'),
  updatedAt: instant('updated_at').notNull(),
});

/**
 * A call-back the agent makes for a caller who asked for one (issue 56, core/call-backs-store):
 * one per first call (the unique index: a second wish in that call moves the time), or, for a
 * CALL reply to the missed-call text, one per text (first_call_id null). `state` is where it is;
 * `tries` and `last_*` the agent's dialling; `call_back_call_id` the outbound call's own row.
 * Gone with the first call (its caller's data erased), kept when only the call-back's call goes.
 */
export const callBacks = table(
  'call_backs',
  {
    id: id(),
    userId: ownerId(),
    firstCallId: integer('first_call_id').references(() => calls.id, { onDelete: 'cascade' }),
    textId: integer('text_id').references(() => callerTexts.id, { onDelete: 'cascade' }),
    callerNumber: text('caller_number').notNull(),
    askedAt: instant('asked_at').notNull(),
    dueAt: instant('due_at').notNull(),
    source: text('source', { enum: CALL_BACK_SOURCES }).notNull(),
    state: text('state', { enum: CALL_BACK_STATES }).notNull().default('waiting'),
    tries: integer('tries').notNull().default(0),
    lastTryAt: instant('last_try_at'),
    lastOutcome: text('last_outcome', { enum: CALL_BACK_OUTCOMES }),
    callBackCallId: integer('call_back_call_id').references(() => calls.id, { onDelete: 'set null' }),
    // The team member the first call was for (issue 58): a staff sign-in with view 'own' sees theirs only.
    staffId: integer('staff_id').references(() => staff.id),
    doneBy: text('done_by', { enum: CALL_BACK_DONE_BY }),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('call_backs_first_call_unique').on(t.firstCallId),
    uniqueIndex('call_backs_text_unique').on(t.textId),
    // The dialler's "waiting and due" (core/call-backs-store/claim.ts).
    index('call_backs_state_due_idx').on(t.state, t.dueAt),
    // The tracker's list, newest first.
    index('call_backs_user_created_idx').on(t.userId, t.createdAt, t.id),
    // A CALL reply finds the number's call-back still waiting.
    index('call_backs_user_caller_idx').on(t.userId, t.callerNumber),
  ],
);
