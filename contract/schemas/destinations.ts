// Confirming a new notification number or summary e-mail with a code sent there (issue 24 item 4).
import { Type, type Static } from 'typebox';
import { ApiUserSchema } from './users.js';

const DestinationKindSchema = Type.Union([Type.Literal('sms'), Type.Literal('email')]);
export type DestinationKind = Static<typeof DestinationKindSchema>;

/** A destination waiting for its code: the owner's current one stays in use until then. */
const PendingDestinationSchema = Type.Object({
  kind: DestinationKindSchema,
  destination: Type.String(),
  expiresAt: Type.String(),
});
export type PendingDestination = Static<typeof PendingDestinationSchema>;

export const PendingDestinationsResponse = Type.Object({ pending: Type.Array(PendingDestinationSchema) });
export type PendingDestinationsResponse = Static<typeof PendingDestinationsResponse>;

export const ConfirmDestinationBody = Type.Object(
  {
    kind: DestinationKindSchema,
    code: Type.String({ minLength: 1, maxLength: 20 }),
  },
  { additionalProperties: false },
);
export type ConfirmDestinationBody = Static<typeof ConfirmDestinationBody>;

export const ConfirmDestinationResponse = Type.Object({ user: ApiUserSchema, message: Type.String() });
export type ConfirmDestinationResponse = Static<typeof ConfirmDestinationResponse>;
