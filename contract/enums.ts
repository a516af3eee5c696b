// The closed sets of words the API and the database share, declared once: core/db/schema.ts's
// text enums and contract/schemas/'s unions are both built from these. Pure values, no imports.

const USER_ROLES = ['admin', 'customer'] as const;
/**
 * Issue 58: a staff member's own sign-in. Kept out of USER_ROLES (SPEC's roles): the owner stays
 * 'customer'; a staff login is a users row with role 'staff' (core/team/), never listed as a customer.
 */
export const LOGIN_ROLES = [...USER_ROLES, 'staff'] as const;
/** Ring the team first (issue 58): off (answer at once), everyone working at once, or one after another. */
export const RING_FIRST_STYLES = ['off', 'all', 'in-order'] as const;
/**
 * What a call the box places to a person's phone (a put-through, ring the team first, the
 * voicemail menu) shows as its caller (OUTBOUND_PRESENT_CALLER, pbx/flows/transfer/leg-caller-id.ts):
 * the caller's own number, or the appliance number that was called.
 */
export const LEG_PRESENTS = ['caller', 'called'] as const;
/** What a staff member's sign-in shows them: their own calls, messages, bookings and texts, or everything. */
export const STAFF_VIEWS = ['own', 'everything'] as const;
/**
 * The moments a routing rule can name, in the words the Team page shows:
 * emergency: the caller says it is an emergency (the agent's urgent flag);
 * new-enquiry: a number that has never called, texted or booked with the business;
 * existing-caller: one that has; booking: the caller wants to book; closed: outside opening hours.
 */
export const ROUTING_WHENS = ['emergency', 'new-enquiry', 'existing-caller', 'booking', 'closed'] as const;
/** Which calendar of their own a member has connected (part C connects them). */
export const TEAM_CALENDARS = ['none', 'ical', 'caldav'] as const;
/** A member's own sign-in: none; invited (an e-mail waits for its password); active (they sign in). */
export const TEAM_INVITE_STATES = ['none', 'invited', 'active'] as const;

export const ACCOUNT_STATUSES = ['active', 'pending_approval', 'expired', 'suspended', 'rejected'] as const;
export const VOICE_PREFERENCES = ['female', 'male'] as const;
/** What an owner picks for their callers (and for closed hours). */
export const AI_MODES = ['voicemail', 'agent'] as const;
/** How a call was handled: an owner's mode, or the unavailable line (no owner, no service). */
export const CALL_MODES = ['voicemail', 'agent', 'unavailable'] as const;
export const CALL_STATUSES = ['answered', 'missed', 'voicemail'] as const;
/** A call's transcription and summary steps. */
export const STEP_STATUSES = ['none', 'pending', 'done', 'failed'] as const;
export const CALL_URGENCIES = ['urgent', 'normal', 'low'] as const;
export const CALLER_TAGS = ['blocked', 'withheld-refused', 'vip'] as const;
/**
 * What the post-call summary says a call was (issue 43): a customer, or one of the nuisances
 * that are screened (kept in the log, never texted to the owner nor texted back).
 */
export const CALL_CLASSES = ['genuine', 'sales', 'recorded', 'silent', 'wrong-number'] as const;
/**
 * Why an agent-mode call was answered in voicemail mode with the owner's own greeting (issue 60):
 * `model` the language model was still being downloaded, `slow` the slow-box guard was closed.
 */
export const AGENT_VOICEMAIL_REASONS = ['model', 'slow'] as const;
export type AgentVoicemailReason = (typeof AGENT_VOICEMAIL_REASONS)[number];
/**
 * Why a call was screened: `summary` (classified after the call), `owner` (the number is on the
 * owner's spam list) or `box` (on the box-wide list); the last two are refused before answering.
 */
export const SCREENED_BY = ['summary', 'owner', 'box'] as const;
/** An owner's mark on a number: SPAM (screened from the next call on) or NOT SPAM (always let through). */
export const SPAM_VERDICTS = ['spam', 'allow'] as const;
/** What a caller screened before answering gets, the owner's choice: a SIP rejection, or a short message. */
export const SCREEN_ACTIONS = ['reject', 'message'] as const;
/** Why one SPAM mark does or does not count towards the box-wide list (issue 53, core/screening/verdict.ts). */
export const MARK_STANDINGS = ['counts', 'owner-not-active', 'before-clearing', 'expired'] as const;
export const TRANSFER_OUTCOMES = ['connected', 'declined', 'no-answer', 'busy', 'rejected', 'failed'] as const;
/** The opening-hours period a call arrived in. */
export const HANDLING_PERIODS = ['open', 'closed'] as const;
export const WITHHELD_POLICIES = ['normal', 'message-only', 'refuse'] as const;

/** Who started a call: the caller ringing in, or the assistant ringing a caller back (issue 56). */
export const CALL_DIRECTIONS = ['in', 'call-back'] as const;
export const NOTIFICATION_CHANNELS = ['sms', 'whatsapp', 'email'] as const;
/** The channels an owner can text commands in on. */
export const INBOUND_CHANNELS = ['sms', 'whatsapp'] as const;
export const NOTIFICATION_KINDS = ['summary', 'repeat-caller', 'reply', 'reminder', 'caller-text', 'booking', 'call-back'] as const;
/** 'sending' is written before the provider is called, so a crash mid-send is never resent blindly. */
export const SEND_STATUSES = ['sending', 'sent', 'failed'] as const;

export const JOB_STATUSES = ['pending', 'running', 'done', 'failed'] as const;

export const WEBHOOK_EVENTS = ['call.finished', 'webhook.test'] as const;
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** Where a forwarding check stands (core/forwarding-check): its call to the owner's line is out, or it ended. */
export const FORWARDING_CHECK_STATES = ['calling', 'works', 'not-reaching'] as const;
/** The condition the owner's line forwarded on, read from the SIP Diversion header's reason (RFC 5806). */
export const FORWARDING_CONDITIONS = ['all-calls', 'unanswered', 'busy', 'unreachable', 'unknown'] as const;

// The word of each list as a type, for code that is not an API shape (contract/api.ts has the
// API's own: AiMode, CallStatus, CallUrgency, VoicePreference).
export type CallMode = (typeof CALL_MODES)[number];
export type HandlingPeriod = (typeof HANDLING_PERIODS)[number];
export type InboundChannel = (typeof INBOUND_CHANNELS)[number];

/** A text in a caller's thread (core/caller-texts): what sent it, or the caller's own. */
export const CALLER_TEXT_KINDS = ['text-back', 'owner', 'stop', 'start', 'caller', 'booking', 'deposit', 'call-back'] as const;
/** 'received' is a caller's text; the rest follow an outgoing one (Twilio's status callbacks set the last three). */
export const CALLER_TEXT_STATUSES = ['received', 'sending', 'sent', 'delivered', 'failed', 'undelivered'] as const;
/** When the missed-call text-back goes: always, or only for calls in open or closed hours (core/call-handling). */
export const TEXT_BACK_HOURS = ['always', 'open', 'closed'] as const;
export type TextBackHours = (typeof TEXT_BACK_HOURS)[number];

/** The stretch `urgencyBreakdown` covers (London days, as the other figures): GET /api/analytics?period=. */
export const ANALYTICS_PERIODS = ['7d', '30d', 'month', 'all'] as const;

// ---- Learning the business from its website (issue 55, core/website; docs/website.md) ----
/** A crawl of the owner's site: waiting behind other businesses' crawls (one at a time box-wide), reading, or ended. */
export const WEBSITE_CRAWL_STATES = ['queued', 'running', 'done', 'failed'] as const;
/** Who started a crawl: the owner ("Learn from my website", "Check my website now") or the weekly re-crawl. */
export const WEBSITE_CRAWL_TRIGGERS = ['owner', 'weekly'] as const;
/**
 * What a draft offers: a new question and answer; a change to an answer the owner already has
 * (the site now says otherwise); the opening hours or the areas covered the site states.
 */
export const KB_DRAFT_KINDS = ['new', 'change', 'hours', 'areas'] as const;
/** Nothing reaches the agent until the owner approves it. */
export const KB_DRAFT_STATES = ['pending', 'approved', 'rejected'] as const;
export type WebsiteCrawlState = (typeof WEBSITE_CRAWL_STATES)[number];
export type KbDraftKind = (typeof KB_DRAFT_KINDS)[number];
export type KbDraftState = (typeof KB_DRAFT_STATES)[number];

// ---- Money (issue 59, core/payments; docs/payments.md) ----
/** A service's deposit: none, a fixed amount, or its full price. */
export const DEPOSIT_KINDS = ['none', 'fixed', 'full'] as const;
/**
 * A booking's deposit: 'awaiting' holds the slot until the pay link's hold ends; 'paid' confirms
 * it; 'expired' released it unpaid; 'refunded' or 'kept' after a cancellation; 'requested' when
 * the caller could not be texted a link and the owner was asked instead (no slot held).
 */
export const DEPOSIT_STATES = ['awaiting', 'paid', 'expired', 'refunded', 'kept', 'requested'] as const;
/** The operator's subscription as Stripe states it (BILLING=stripe). */
export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused'] as const;
/** Whose Stripe account an event came from: an owner's (deposits) or the operator's (billing). */
export const STRIPE_EVENT_SCOPES = ['deposits', 'billing'] as const;
export type DepositKind = (typeof DEPOSIT_KINDS)[number];
export type DepositState = (typeof DEPOSIT_STATES)[number];
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export type StripeEventScope = (typeof STRIPE_EVENT_SCOPES)[number];

// --- Issue 54: listen in and take over a live call (core/live-control) ---
/** Where the owner took a live call over from the agent: in the console's browser, or on their phone dialled by the box. */
export const TAKE_OVER_VIAS = ['browser', 'phone'] as const;
export type TakeOverVia = (typeof TAKE_OVER_VIAS)[number];
/** What a call's live history records: someone listened in, took the call over, or ended it from the Live page. */
export const LIVE_CALL_EVENTS = ['listen', 'take-over', 'ended'] as const;
export type LiveCallEvent = (typeof LIVE_CALL_EVENTS)[number];
