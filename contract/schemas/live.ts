// Live calls (issue 54 item 3): the calls in progress the console's Live page lists, and what
// GET /api/live/events sends as they change. Listen and Take over add to a call's shape, never change it.
import { Type, type Static } from 'typebox';
import { Nullable, OneOf } from './shared.js';

const LIVE_MODES = ['voicemail', 'agent', 'transfer'] as const;
const LIVE_SPEAKERS = ['caller', 'agent'] as const;

const LiveTurnSchema = Type.Object({
  speaker: OneOf(LIVE_SPEAKERS),
  /** As the stored transcript will have it: the agent's sentences joined, card numbers redacted. */
  text: Type.String(),
  /** When the turn began (ISO). */
  at: Type.String(),
});

const LiveCallSchema = Type.Object({
  /** The call row's id (as Call Details and /dashboard?call= know it). */
  id: Type.Integer(),
  /** Who called, as a customer screen shows them ("Withheld number" when hidden). */
  caller: Type.String(),
  fromNumber: Type.String(),
  /** When the call arrived (ISO). */
  since: Type.String(),
  mode: OneOf(LIVE_MODES),
  /** The team member the call is for, once routing named one (issue 58). */
  staffId: Nullable(Type.Integer()),
  forName: Nullable(Type.String()),
  /** The owner's own test call ("Call my line"). */
  testCall: Type.Boolean(),
  turns: Type.Array(LiveTurnSchema),
  /** Listen / Take over (another part of issue 54): who took the call over, whether someone listens. */
  takenOverBy: Type.Optional(Type.String()),
  listening: Type.Optional(Type.Boolean()),
});

export const LiveCallsResponse = Type.Object({ calls: Type.Array(LiveCallSchema) });
export const LiveEndResponse = Type.Object({ message: Type.String() });

export type ApiLiveCall = Static<typeof LiveCallSchema>;
export type ApiLiveTurn = Static<typeof LiveTurnSchema>;
export type LiveMode = (typeof LIVE_MODES)[number];

/** The events of GET /api/live/events, by SSE event name, with their data (JSON). */
export interface LiveEventData {
  /** First on every connection: the calls in progress now, so a reconnect never misses state. */
  snapshot: { calls: ApiLiveCall[] };
  'call-started': { call: ApiLiveCall };
  /** A new turn, or more of the last one (the agent's next sentence): `index` says which. */
  turn: { callId: number; index: number; turn: ApiLiveTurn };
  'call-updated': { call: ApiLiveCall };
  'call-ended': { callId: number };
}
export type LiveEventName = keyof LiveEventData;
