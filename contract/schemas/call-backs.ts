// The call-back tracker's API (issue 56, core/call-backs-store/routes.ts).
import { Type } from 'typebox';
import { CALL_BACK_DONE_BY, CALL_BACK_OUTCOMES, CALL_BACK_SOURCES, CALL_BACK_STATES } from '../call-backs.js';
import { Nullable, OneOf } from './shared.js';

export const ApiCallBackSchema = Type.Object({
  id: Type.Integer(),
  state: OneOf(CALL_BACK_STATES),
  source: OneOf(CALL_BACK_SOURCES),
  /** ISO instants. */
  askedAt: Type.String(),
  dueAt: Type.String(),
  tries: Type.Integer(),
  lastTryAt: Nullable(Type.String()),
  lastOutcome: Nullable(OneOf(CALL_BACK_OUTCOMES)),
  doneBy: Nullable(OneOf(CALL_BACK_DONE_BY)),
  /** E.164. */
  callerNumber: Type.String(),
  /** The call the caller asked on; null for a CALL reply to the missed-call text. */
  firstCallId: Nullable(Type.Integer()),
  /** The agent's own call to them, once made. */
  callBackCallId: Nullable(Type.Integer()),
  staffId: Nullable(Type.Integer()),
  /** The first call's summary line (or what it was, before a summary exists). */
  summary: Type.String(),
});

export const CallBacksResponse = Type.Object({ callBacks: Type.Array(ApiCallBackSchema) });
export const CallBackResponse = Type.Object({ callBack: ApiCallBackSchema, message: Type.String() });
/** "Take it myself": the call-back, and the tel: link that rings the caller from the owner's phone. */
export const TakeCallBackResponse = Type.Object({ callBack: ApiCallBackSchema, tel: Type.String(), message: Type.String() });
