// An account as the API sends it, and the owner's settings form (PATCH /api/user/settings).
import { Type } from 'typebox';
import { LIMITS } from '../rules.js';
import { STAFF_VIEWS } from '../enums.js';
import { AccountStatusSchema, AiModeSchema, Nullable, OneOf, RoleSchema, VoicePreferenceSchema } from './shared.js';

const Text = Nullable(Type.String());
/** contract/forwarding-codes.ts's LINE_TYPES (the users table's enum is that list: a new type fails the typecheck until added here). */
const LineTypeSchema = Type.Union([Type.Literal('landline'), Type.Literal('virgin'), Type.Literal('mobile')]);

export const ApiUserSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: RoleSchema,
  accountStatus: AccountStatusSchema,
  trialExpiresAt: Text,
  createdAt: Type.String(),
  businessName: Text,
  callGreeting: Text,
  voicePreference: VoicePreferenceSchema,
  whatsappEnabled: Type.Boolean(),
  smsEnabled: Type.Boolean(),
  notificationNumber: Text,
  aiMode: AiModeSchema,
  /** Hours after which an unreturned call gets a reminder text; null = off (the default). */
  callbackReminderHours: Nullable(Type.Integer()),
  /** Each call's summary also by e-mail (off by default). */
  emailSummariesEnabled: Type.Boolean(),
  /** Where summary e-mails go; null = the account e-mail. */
  summaryEmail: Text,
  /** The Monday e-mail of last week's calls still to call back (on by default). */
  weeklyDigestEnabled: Type.Boolean(),
  /** The owner's kind of business line, picked once on Phone Numbers: the forwarding codes shown first everywhere; null until picked. */
  lineType: Nullable(LineTypeSchema),
  knowledgeBase: Text,
  /** The languages the agent may answer callers in (whisper codes, English first): issue 42. */
  agentLanguages: Type.Array(Type.String()),
  /** The languages the agent greets callers in, in order (English among them): issue 42's bilingual greeting. */
  greetingLanguages: Type.Array(Type.String()),
  /** The owner's voice per ticked caller language other than English (a GET /api/agent/voices id); a language absent speaks by voicePreference: issue 42. */
  languageVoices: Type.Record(Type.String(), Type.String()),
  /** The ticked caller languages whose greeting line is the owner's own recording (PUT /api/agent/greeting-recordings/:language): issue 42. */
  greetingRecordings: Type.Array(Type.String()),
  /** Callers in voicemail mode hear the owner's own recording instead of the spoken greeting (PUT /api/voicemail/greeting-recording): issue 57. */
  voicemailGreetingRecording: Type.Boolean(),
  phoneNumber: Text,
  forwardToNumber: Text,
  // Sign-up request fields (present on every user; the approvals screen shows them).
  industry: Text,
  weeklyCustomerCalls: Text,
  businessEmail: Text,
  addressLine1: Text,
  addressLine2: Text,
  city: Text,
  postcode: Text,
  country: Text,
  businessAddress: Text,
});

export const UserResponse = Type.Object({ user: ApiUserSchema });

/** A staff member's own sign-in (issue 58, role 'staff'): who they are in the business and what they see. */
const ApiStaffSignInSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  view: OneOf(STAFF_VIEWS),
  businessName: Nullable(Type.String()),
});
/** GET /api/auth/me: the signed-in account, and `staff` only for a staff member's sign-in. */
export const MeResponse = Type.Object({ user: ApiUserSchema, staff: Type.Optional(ApiStaffSignInSchema) });
export const UserMessageResponse = Type.Object({ user: ApiUserSchema, message: Type.String() });
export const UsersResponse = Type.Object({ users: Type.Array(ApiUserSchema) });
/** GET /api/admin/users: each account with its team's size (issue 58: current members besides the owner). */
export const AdminUsersResponse = Type.Object({ users: Type.Array(Type.Object({ ...ApiUserSchema.properties, staffCount: Type.Integer() })) });

// multiline: tabs and line breaks are part of the text (core/http/validators.ts, text-hygiene.ts).
const NullableText = (max: number, multiline = false) =>
  Type.Optional(Type.Union([Type.String({ maxLength: max, ...(multiline ? { multiline } : {}) }), Type.Null()]));

export const SettingsUpdateBody = Type.Object(
  {
    businessName: NullableText(LIMITS.businessName),
    callGreeting: NullableText(LIMITS.callGreeting, true),
    voicePreference: Type.Optional(VoicePreferenceSchema),
    whatsappEnabled: Type.Optional(Type.Boolean()),
    smsEnabled: Type.Optional(Type.Boolean()),
    notificationNumber: NullableText(40),
    aiMode: Type.Optional(AiModeSchema),
    knowledgeBase: NullableText(LIMITS.knowledgeBase, true),
    // Codes the server checks against the languages it speaks; English is always added.
    agentLanguages: Type.Optional(Type.Array(Type.String({ maxLength: 8 }), { maxItems: 16 })),
    // In the order they are spoken; the server checks each is a ticked caller language.
    greetingLanguages: Type.Optional(Type.Array(Type.String({ maxLength: 8 }), { minItems: 1, maxItems: 8 })),
    // The whole map (a language left out goes back to the female/male rule); the server checks each voice is installed for its ticked language.
    languageVoices: Type.Optional(Type.Record(Type.String({ maxLength: 8 }), Type.String({ maxLength: 80 }), { maxProperties: 16 })),
    // The call-back reminder: after 1 to 168 hours (a week), or null for off.
    callbackReminderHours: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 168 }), Type.Null()])),
    emailSummariesEnabled: Type.Optional(Type.Boolean()),
    // Blank or null: summaries go to the account e-mail.
    summaryEmail: NullableText(254),
    weeklyDigestEnabled: Type.Optional(Type.Boolean()),
    lineType: Type.Optional(Nullable(LineTypeSchema)),
  },
  { additionalProperties: false },
);

/** PATCH /api/admin/users/{id}. */
export const AdminUserPatchBody = Type.Object(
  {
    accountStatus: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('expired')])),
    trialExpiresAt: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);
