// Nuisance screening (issue 43): the owner's SPAM / NOT SPAM on a call and their lists
// (core/screening/routes.ts), and the admin's box-wide list: numbers and counts, and on asking
// why one is listed, the SPAM marks behind it (issue 53).
import { Type, type Static } from 'typebox';
import { MARK_STANDINGS, SCREEN_ACTIONS } from '../enums.js';
import { Nullable, OneOf } from './shared.js';

/** POST /api/call-logs/{id}/spam: true = SPAM (screened from the next call on), false = NOT SPAM (always let through). */
export const MarkSpamBody = Type.Object({ spam: Type.Boolean() }, { additionalProperties: false });
export const MarkSpamResponse = Type.Object({ number: Type.String(), verdict: OneOf(['spam', 'allow'] as const), message: Type.String() });

/** GET and PUT /api/user/screening: what screened callers get, and the owner's two lists (E.164). */
export const ScreeningResponse = Type.Object({
  action: OneOf(SCREEN_ACTIONS),
  spam: Type.Array(Type.String()),
  allow: Type.Array(Type.String()),
  message: Type.Optional(Type.String()),
});
export const ScreeningUpdateBody = Type.Object({ action: OneOf(SCREEN_ACTIONS) }, { additionalProperties: false });
/** DELETE /api/user/screening/marks: takes the owner's mark off a number. */
export const ScreeningNumberBody = Type.Object({ number: Type.String({ maxLength: 40 }) }, { additionalProperties: false });

const BoxEntrySchema = Type.Object({
  number: Type.String(),
  /** Different active businesses whose SPAM mark counts now (inside the window, since it was last cleared). */
  businesses: Type.Integer(),
  listed: Type.Boolean(),
  clearedAt: Nullable(Type.String()),
});
export const BoxListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  q: Type.Optional(Type.String({ maxLength: 20 })),
});
export const BoxThresholdsSchema = Type.Object({ spamMarks: Type.Integer({ minimum: 2, maximum: 100 }) }, { additionalProperties: false });
export const BoxListResponse = Type.Object({
  thresholds: BoxThresholdsSchema,
  entries: Type.Array(BoxEntrySchema),
  total: Type.Integer(),
  listed: Type.Integer(),
  message: Type.Optional(Type.String()),
});
export const BoxNumberParams = Type.Object({ number: Type.String({ maxLength: 40 }) });
/** GET /api/admin/screening/{number}: why it is listed or not. Each SPAM mark with its business (for the admin alone) and whether it counts. */
export const BoxMarksResponse = Type.Object({
  number: Type.String(),
  businesses: Type.Integer(),
  listed: Type.Boolean(),
  clearedAt: Nullable(Type.String()),
  /** How many days a mark counts for. */
  windowDays: Type.Integer(),
  marks: Type.Array(
    Type.Object({
      userId: Type.Integer(),
      businessName: Nullable(Type.String()),
      markedAt: Type.String(),
      standing: OneOf(MARK_STANDINGS),
    }),
  ),
});

export type ApiMarkSpamResponse = Static<typeof MarkSpamResponse>;
export type ApiScreening = Static<typeof ScreeningResponse>;
export type ApiBoxList = Static<typeof BoxListResponse>;
export type ApiBoxMarks = Static<typeof BoxMarksResponse>;
export type ApiBoxThresholds = Static<typeof BoxThresholdsSchema>;
