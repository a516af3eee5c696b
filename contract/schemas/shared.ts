// Building blocks of the API's TypeBox schemas (contract/schemas/). The server validates requests
// and serialises responses with these; the console imports only the types derived from them.
import { Type, type TLiteral, type TSchema, type TUnion } from 'typebox';
import { ACCOUNT_STATUSES, AI_MODES, CALL_STATUSES, LOGIN_ROLES, VOICE_PREFERENCES } from '../enums.js';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/**
 * A field's own 400 when its schema refuses it, whatever the keyword (type, minimum, …): the
 * sentence the user reads and the short note beside the field (core/http/error-handler.ts).
 */
export const refusal = (message: string, field: string) => ({ refusal: { message, field } });

/** A union of the literals of one of contract/enums.ts's lists (a tuple, so Static<> keeps each word). */
type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };
export const OneOf = <const T extends readonly string[]>(values: T): TUnion<Literals<T>> =>
  Type.Union(values.map((v) => Type.Literal(v))) as TUnion<Literals<T>>;

/** `{ message }`: the answer of routes that only confirm. */
export const MessageResponse = Type.Object({ message: Type.String() });

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/** SPEC's two roles, and a team member's own sign-in (issue 58, docs/team.md). */
export const RoleSchema = OneOf(LOGIN_ROLES);
export const VoicePreferenceSchema = OneOf(VOICE_PREFERENCES);
export const AiModeSchema = OneOf(AI_MODES);
export const AccountStatusSchema = OneOf(ACCOUNT_STATUSES);
export const CallStatusSchema = OneOf(CALL_STATUSES);

/** Every 4xx/5xx answer: a sentence the console shows, and per-field messages for forms. */
export const ApiErrorSchema = Type.Object({ message: Type.String(), errors: Type.Optional(Type.Record(Type.String(), Type.String())) });
