// Nuisance screening (issue 43): the owner's SPAM / NOT SPAM on a call and their lists
// (core/screening/routes.ts), and the admin's box-wide list, which holds only numbers and counts.
import { Type, type Static } from 'typebox';
import { SCREEN_ACTIONS } from '../enums.js';
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
  /** Different businesses that marked it SPAM (since it was last cleared). */
  businesses: Type.Integer(),
  /** Different businesses with a nuisance call from it in the last 24 hours. */
  nuisanceBusinesses: Type.Integer(),
  listed: Type.Boolean(),
  clearedAt: Nullable(Type.String()),
});
export const BoxListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  q: Type.Optional(Type.String({ maxLength: 20 })),
});
export const BoxThresholdsSchema = Type.Object(
  { spamMarks: Type.Integer({ minimum: 2, maximum: 100 }), nuisanceBusinesses: Type.Integer({ minimum: 2, maximum: 100 }) },
  { additionalProperties: false },
);
export const BoxListResponse = Type.Object({
  thresholds: BoxThresholdsSchema,
  entries: Type.Array(BoxEntrySchema),
  total: Type.Integer(),
  listed: Type.Integer(),
  message: Type.Optional(Type.String()),
});
export const BoxNumberParams = Type.Object({ number: Type.String({ maxLength: 40 }) });

export type ApiMarkSpamResponse = Static<typeof MarkSpamResponse>;
export type ApiScreening = Static<typeof ScreeningResponse>;
export type ApiBoxList = Static<typeof BoxListResponse>;
export type ApiBoxThresholds = Static<typeof BoxThresholdsSchema>;
