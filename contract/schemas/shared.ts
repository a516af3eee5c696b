// Building blocks of the API's TypeBox schemas (contract/schemas/). The server validates requests
// and serialises responses with these; the console imports only the types derived from them.
import { Type, type TSchema } from 'typebox';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** `{ message }`: the answer of routes that only confirm. */
export const MessageResponse = Type.Object({ message: Type.String() });

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const RoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('customer')]);
export const VoicePreferenceSchema = Type.Union([Type.Literal('female'), Type.Literal('male')]);
export const AiModeSchema = Type.Union([Type.Literal('voicemail'), Type.Literal('agent')]);
export const AccountStatusSchema = Type.Union([
  Type.Literal('active'),
  Type.Literal('pending_approval'),
  Type.Literal('expired'),
  Type.Literal('suspended'),
  Type.Literal('rejected'),
]);
export const CallStatusSchema = Type.Union([Type.Literal('answered'), Type.Literal('missed'), Type.Literal('voicemail')]);

/** Every 4xx/5xx answer: a sentence the console shows, and per-field messages for forms. */
export const ApiErrorSchema = Type.Object({ message: Type.String(), errors: Type.Optional(Type.Record(Type.String(), Type.String())) });
