// Texts between a business and its callers (core/caller-texts/routes.ts).
import { Type, type Static } from 'typebox';
import { CALLER_TEXT_KINDS, CALLER_TEXT_STATUSES, TEXT_BACK_HOURS } from '../enums.js';
import { CallStatusSchema, Nullable, OneOf } from './shared.js';

const TextBackSettingsSchema = Type.Object({
  enabled: Type.Boolean(),
  /** null: the default wording (`defaultWording`). */
  wording: Nullable(Type.String()),
  windowHours: Type.Integer(),
  hours: OneOf(TEXT_BACK_HOURS),
});

export const ApiTextBackSchema = Type.Object({
  settings: TextBackSettingsSchema,
  /** What is sent when `wording` is null (it names the business). */
  defaultWording: Type.String(),
});

/** Checked in the route, so each mistake gets its own sentence. */
export const TextBackUpdateBody = Type.Object(
  { enabled: Type.Boolean(), wording: Nullable(Type.String()), windowHours: Type.Number(), hours: Type.String() },
  { additionalProperties: false },
);

const ApiCallerTextSchema = Type.Object({
  id: Type.Integer(),
  kind: OneOf(CALLER_TEXT_KINDS),
  status: OneOf(CALLER_TEXT_STATUSES),
  body: Type.String(),
  segments: Type.Integer(),
  /** The provider's reason when a text failed or was undelivered. */
  error: Nullable(Type.String()),
  createdAt: Type.String(),
});

export const ApiCallerThreadSchema = Type.Object({
  callerNumber: Type.String(),
  /** The name the caller gave for their newest booking, when one knows it. */
  callerName: Nullable(Type.String()),
  optedOutAt: Nullable(Type.String()),
  texts: Type.Array(ApiCallerTextSchema),
  calls: Type.Array(Type.Object({ id: Type.Integer(), createdAt: Type.String(), status: CallStatusSchema, duration: Type.Integer() })),
});

export const ApiThreadListSchema = Type.Object({
  threads: Type.Array(
    Type.Object({
      callerNumber: Type.String(),
      texts: Type.Integer(),
      lastBody: Type.String(),
      lastKind: OneOf(CALLER_TEXT_KINDS),
      lastAt: Type.String(),
      optedOut: Type.Boolean(),
    }),
  ),
});

export const ApiOptOutListSchema = Type.Object({
  optOuts: Type.Array(Type.Object({ callerNumber: Type.String(), word: Type.String(), optedOutAt: Type.String() })),
});

export const ThreadQuery = Type.Object({ caller: Type.String({ maxLength: 40 }) });
export const OwnerTextBody = Type.Object({ caller: Type.String({ maxLength: 40 }), body: Type.String() }, { additionalProperties: false });
export const OwnerTextResponse = Type.Object({ text: ApiCallerTextSchema, message: Type.String() });

export type ApiTextBack = Static<typeof ApiTextBackSchema>;
export type TextBackSettingsShape = Static<typeof TextBackSettingsSchema>;
export type ApiCallerText = Static<typeof ApiCallerTextSchema>;
export type ApiCallerThread = Static<typeof ApiCallerThreadSchema>;
export type ApiThreadList = Static<typeof ApiThreadListSchema>;
export type ApiOptOutList = Static<typeof ApiOptOutListSchema>;
