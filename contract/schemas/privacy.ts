// Data protection (core/privacy/routes.ts): the owner's export, a caller's erasure, retention.
import { Type } from 'typebox';
import { CALL_MODES, CALLER_TEXT_KINDS, CALLER_TEXT_STATUSES, NOTIFICATION_CHANNELS, SEND_STATUSES } from '../enums.js';
import { CallHandlingSettingsSchema } from './call-handling.js';
import { ApiCallLogSchema } from './calls.js';
import { ApiUnansweredQuestionSchema } from './questions.js';
import { ApiTeamMemberSchema } from './team.js';
import { Nullable, OneOf } from './shared.js';
import { ApiUserSchema } from './users.js';
import { ApiWebhookDeliverySchema } from './webhooks.js';
import { ApiKbDraftSchema, ApiWebsiteCrawlSchema, ApiWebsiteSiteSchema } from './website.js';
import { KB_DRAFT_STATES } from '../enums.js';

const Days = Type.Union([Type.Integer({ minimum: 1, maximum: 3650 }), Type.Null()]);

/** GET and PATCH /api/admin/retention: days each kind of data is kept; null = no limit. */
/** A member as the Team page shows them; the export has not carried who does which service. */
const { services: _services, ...exportedMemberFields } = ApiTeamMemberSchema.properties;

export const RetentionPolicySchema = Type.Object({ recordingDays: Days, transcriptDays: Days }, { additionalProperties: false });

export const CallerNumberParams = Type.Object({ number: Type.String({ maxLength: 40 }) });
export const CallerErasedResponse = Type.Object({
  deletedCalls: Type.Integer(),
  deletedQuestions: Type.Integer(),
  deletedRecordings: Type.Integer(),
  /** The caller's texts with the business (a STOP they sent is kept). */
  deletedTexts: Type.Integer(),
  /** The caller's bookings with the business (issue 41). */
  deletedBookings: Type.Integer(),
  message: Type.String(),
});

/** GET /api/user/export: everything held for one business, as one JSON document (UK GDPR access/portability). */
export const OwnerExportSchema = Type.Object({
  exportedAt: Type.String(),
  account: ApiUserSchema,
  callHandling: CallHandlingSettingsSchema,
  phoneNumbers: Type.Array(Type.Object({ phoneNumber: Type.String(), friendlyName: Nullable(Type.String()), assignedAt: Nullable(Type.String()) })),
  calls: Type.Array(
    Type.Object({
      ...ApiCallLogSchema.properties,
      mode: OneOf(CALL_MODES),
    }),
  ),
  unansweredQuestions: Type.Array(
    Type.Object({
      ...ApiUnansweredQuestionSchema.properties,
      userId: Type.Integer(),
      callId: Nullable(Type.Integer()),
    }),
  ),
  notifications: Type.Array(
    Type.Object({
      callId: Nullable(Type.Integer()),
      channel: OneOf(NOTIFICATION_CHANNELS),
      to: Type.String(),
      body: Type.String(),
      status: OneOf(SEND_STATUSES),
      createdAt: Type.String(),
    }),
  ),
  /** The address and what was sent where; never the signing secret. */
  webhook: Type.Object({ url: Nullable(Type.String()), deliveries: Type.Array(ApiWebhookDeliverySchema) }),
  /** Every text with a caller, both ways (core/caller-texts). */
  callerTexts: Type.Array(
    Type.Object({
      callerNumber: Type.String(),
      kind: OneOf(CALLER_TEXT_KINDS),
      status: OneOf(CALLER_TEXT_STATUSES),
      body: Type.String(),
      segments: Type.Integer(),
      error: Nullable(Type.String()),
      callId: Nullable(Type.Integer()),
      createdAt: Type.String(),
    }),
  ),
  /** Callers' bookings (core/booking), soonest first. */
  bookings: Type.Array(
    Type.Object({
      id: Type.Integer(),
      serviceName: Type.String(),
      startAt: Type.String(),
      endAt: Type.String(),
      callerName: Type.String(),
      callerNumber: Type.String(),
      callId: Nullable(Type.Integer()),
      status: OneOf(['booked', 'cancelled'] as const),
      cancelledBy: Nullable(OneOf(['owner', 'caller', 'moved', 'unpaid'] as const)),
      createdAt: Type.String(),
      cancelledAt: Nullable(Type.String()),
      /** The person booked (issue 58), and their name; null for a booking with nobody in particular. */
      staffId: Nullable(Type.Integer()),
      staffName: Nullable(Type.String()),
    }),
  ),
  /**
   * The business's people (issue 58), removed ones too (their past calls and bookings name them):
   * what the owner entered about them, never a sealed calendar secret or a phone code's hash.
   */
  staff: Type.Array(
    Type.Object({
      ...exportedMemberFields,
      phoneConfirmedAt: Nullable(Type.String()),
      caldavUrl: Nullable(Type.String()),
      caldavUser: Nullable(Type.String()),
      position: Type.Integer(),
      removedAt: Nullable(Type.String()),
      createdAt: Type.String(),
    }),
  ),
  /** Callers who texted STOP. */
  callerOptOuts: Type.Array(Type.Object({ callerNumber: Type.String(), word: Type.String(), optedOutAt: Type.String() })),
  /** The owner's website (issue 55): the site, every crawl, the pages read and every draft, decided ones too. */
  website: Type.Object({
    site: Nullable(ApiWebsiteSiteSchema),
    crawls: Type.Array(ApiWebsiteCrawlSchema),
    pages: Type.Array(Type.Object({ url: Type.String(), title: Type.String(), updatedAt: Type.String() })),
    drafts: Type.Array(Type.Object({ ...ApiKbDraftSchema.properties, state: OneOf(KB_DRAFT_STATES), decidedAt: Nullable(Type.String()) })),
  }),
});
