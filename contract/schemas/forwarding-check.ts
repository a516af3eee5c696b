// "Check my forwarding" (Phone Numbers): the appliance calls the owner's business line and
// waits for that call to come back forwarded to their appliance number.
import { Type, type Static } from 'typebox';
import { FORWARDING_CHECK_STATES, FORWARDING_CONDITIONS } from '../enums.js';
import { OneOf } from './shared.js';

export const ForwardingCheckStarted = Type.Object({ id: Type.Integer() });

export const ForwardingCheckResponse = Type.Object({
  id: Type.Integer(),
  state: OneOf(FORWARDING_CHECK_STATES),
  /** Set when it works: the condition the line forwarded on. */
  condition: Type.Optional(OneOf(FORWARDING_CONDITIONS)),
});

export type ApiForwardingCheckStarted = Static<typeof ForwardingCheckStarted>;
export type ApiForwardingCheck = Static<typeof ForwardingCheckResponse>;
export type ForwardingCondition = ApiForwardingCheck['condition'] & string;
