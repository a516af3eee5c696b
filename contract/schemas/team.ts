// The team (issue 58) as stored and as the API takes and sends it. The routes' request and
// response schemas live beside these (core/team/ owns the routes); the parts here are the ones
// the database stores as JSON (routing rules, the on-call rota), declared once.
import { Type } from 'typebox';
import { RING_FIRST_STYLES, ROUTING_WHENS, STAFF_VIEWS, TEAM_CALENDARS, TEAM_INVITE_STATES } from '../enums.js';
import { TEAM_LIMITS } from '../rules.js';
import { NO_SERVICE } from './booking.js';
import { Nullable, OneOf, refusal } from './shared.js';

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

// ---- The team's HTTP API (core/team/routes.ts; docs/team.md) ----
// The bounds here keep absurd bodies out and give a field its own sentence; core/team/validate*.ts
// applies the rules that need the current team (names shared, people removed) in the same words.

const Span = Type.Object({ open: Type.String({ maxLength: 10 }), close: Type.String({ maxLength: 10 }) }, { additionalProperties: false });
const Day = Type.Array(Span, { maxItems: 24 });
const StoredDay = Type.Array(Type.Object({ open: Type.String(), close: Type.String() }));
/** A member's working hours as stored and sent: every weekday, [] = not working that day. */
const WeekSchema = Type.Object({ mon: StoredDay, tue: StoredDay, wed: StoredDay, thu: StoredDay, fri: StoredDay, sat: StoredDay, sun: StoredDay });
/** Hours as the owner sends them: a day left out is a day off; null = the business's opening hours. */
const HoursInput = Type.Union([
  Type.Object(
    { mon: Type.Optional(Day), tue: Type.Optional(Day), wed: Type.Optional(Day), thu: Type.Optional(Day), fri: Type.Optional(Day), sat: Type.Optional(Day), sun: Type.Optional(Day) },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

export const ApiTeamMemberSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  otherNames: Type.Array(Type.String()),
  roleWord: Nullable(Type.String()),
  isOwner: Type.Boolean(),
  /** The confirmed phone (E.164): the one calls are put through to and texts go to. */
  phone: Nullable(Type.String()),
  /** A new phone waiting for its texted code. */
  pendingPhone: Nullable(Type.String()),
  /** null = the business's opening hours. */
  hours: Nullable(WeekSchema),
  services: Type.Array(Type.Object({ serviceId: Type.Integer(), durationMinutes: Nullable(Type.Integer()) })),
  calendar: OneOf(TEAM_CALENDARS),
  invite: Type.Object({ email: Nullable(Type.String()), state: OneOf(TEAM_INVITE_STATES) }),
  view: OneOf(STAFF_VIEWS),
});

export const ApiTeamSettingsSchema = Type.Object({
  ringFirst: OneOf(RING_FIRST_STYLES),
  ringSeconds: Type.Integer(),
  copyOwner: Type.Boolean(),
  rules: Type.Array(RoutingRuleSchema),
  rota: OnCallRotaSchema,
});

export const TeamResponse = Type.Object({ members: Type.Array(ApiTeamMemberSchema), settings: ApiTeamSettingsSchema, maxStaff: Type.Integer() });
export const TeamMemberResponse = Type.Object({ member: ApiTeamMemberSchema, message: Type.Optional(Type.String()) });
export const TeamSettingsResponse = Type.Object({ settings: ApiTeamSettingsSchema, message: Type.Optional(Type.String()) });

const L = TEAM_LIMITS;
/** The sentences a schema and core/team/validate-*.ts both refuse with. */
export const TEAM_MESSAGES = {
  name: `Give a name of 1 to ${L.nameLength} characters.`,
  serviceLength: `A person's length for a service is a whole number of minutes from ${L.serviceMinutes.min} to ${L.serviceMinutes.max}, or empty for the service's own.`,
  ringSeconds: `Ring the team for a whole number of seconds from ${L.ringSecondsMin} to ${L.ringSecondsMax}.`,
  rules: `You can have at most ${L.rules} routing rules.`,
} as const;
const M = TEAM_MESSAGES;

const memberFields = {
  name: Type.String({ maxLength: 200, ...refusal(M.name, `1 to ${L.nameLength} characters`) }),
  otherNames: Type.Array(Type.String({ maxLength: 200 }), {
    maxItems: L.otherNames,
    ...refusal(`Give at most ${L.otherNames} other names, each 1 to ${L.nameLength} characters.`, `At most ${L.otherNames}`),
  }),
  roleWord: Nullable(Type.String({ maxLength: 200 })),
  hours: HoursInput,
  view: OneOf(STAFF_VIEWS),
};

/** POST /api/user/team. */
export const TeamMemberBody = Type.Object(
  {
    name: memberFields.name,
    otherNames: Type.Optional(memberFields.otherNames),
    roleWord: Type.Optional(memberFields.roleWord),
    hours: Type.Optional(memberFields.hours),
    view: Type.Optional(memberFields.view),
  },
  { additionalProperties: false },
);

/** PUT /api/user/team/:id: any field left out keeps its stored value. */
export const TeamMemberUpdateBody = Type.Object(
  {
    name: Type.Optional(memberFields.name),
    otherNames: Type.Optional(memberFields.otherNames),
    roleWord: Type.Optional(memberFields.roleWord),
    hours: Type.Optional(memberFields.hours),
    view: Type.Optional(memberFields.view),
  },
  { additionalProperties: false },
);

/** POST /api/user/team/:id/phone. */
export const TeamPhoneBody = Type.Object(
  { phone: Type.String({ maxLength: 40, ...refusal('Give the phone number as text, e.g. 07700 900123.', 'A phone number') }) },
  { additionalProperties: false },
);
/** POST /api/user/team/:id/phone/confirm. */
export const TeamPhoneConfirmBody = Type.Object(
  { code: Type.String({ maxLength: 20, ...refusal('Enter the 6-digit code we sent.', 'Enter the 6-digit code we sent') }) },
  { additionalProperties: false },
);

/** PUT /api/user/team/:id/services: the whole list of what they do. */
export const TeamServicesBody = Type.Object(
  {
    services: Type.Array(
      Type.Object(
        {
          serviceId: Type.Integer({ minimum: 1, ...refusal(NO_SERVICE, 'One of your services') }),
          // The integer first: its refusal is the error a wrong number meets first.
          durationMinutes: Nullable(
            Type.Integer({ minimum: L.serviceMinutes.min, maximum: L.serviceMinutes.max, ...refusal(M.serviceLength, `${L.serviceMinutes.min}–${L.serviceMinutes.max} minutes`) }),
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: 200 },
    ),
  },
  { additionalProperties: false },
);

/** PUT /api/user/team/settings: any field may be left out. */
export const TeamSettingsBody = Type.Object(
  {
    ringFirst: Type.Optional(OneOf(RING_FIRST_STYLES)),
    ringSeconds: Type.Optional(
      Type.Integer({
        minimum: L.ringSecondsMin,
        maximum: L.ringSecondsMax,
        ...refusal(M.ringSeconds, `${L.ringSecondsMin}–${L.ringSecondsMax} seconds`),
      }),
    ),
    copyOwner: Type.Optional(Type.Boolean()),
    rules: Type.Optional(
      Type.Array(RoutingRuleSchema, { maxItems: L.rules, ...refusal(M.rules, `At most ${L.rules}`) }),
    ),
    rota: Type.Optional(OnCallRotaSchema),
  },
  { additionalProperties: false },
);
