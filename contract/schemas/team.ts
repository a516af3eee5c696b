// The team (issue 58) as stored and as the API takes and sends it. The routes' request and
// response schemas live beside these (core/team/ owns the routes); the parts here are the ones
// the database stores as JSON (routing rules, the on-call rota), declared once.
import { Type } from 'typebox';
import { ROUTING_WHENS } from '../team.js';
import { OneOf } from './shared.js';

/** What a rule's target is: one person, whoever is on call today, or anyone of a role who is working now. */
export const RoutingTargetSchema = Type.Union([
  Type.Object({ kind: Type.Literal('person'), staffId: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('on-call') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('role'), roleWord: Type.String({ minLength: 1, maxLength: 40 }) }, { additionalProperties: false }),
]);

/** One plain routing rule from fixed parts: "when <the caller …> → ring <target>". */
export const RoutingRuleSchema = Type.Object({ when: OneOf(ROUTING_WHENS), then: RoutingTargetSchema }, { additionalProperties: false });

const OnCall = Type.Optional(Type.Integer({ minimum: 1 }));
/** The on-call member's staff id per weekday (London time); a day left out has nobody. */
export const OnCallRotaSchema = Type.Object(
  { mon: OnCall, tue: OnCall, wed: OnCall, thu: OnCall, fri: OnCall, sat: OnCall, sun: OnCall },
  { additionalProperties: false },
);
