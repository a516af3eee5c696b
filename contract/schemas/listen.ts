// Listen in and take over a live call (issue 54): POST /api/live/calls/:id/listen and /take-over.
import { Type, type Static } from 'typebox';
import { CallMyLineCredentialsSchema } from './call-my-line.js';

export const TakeOverBody = Type.Object(
  {
    /** `browser`: the owner's browser joins the caller, two-way; `phone`: the box dials the owner's phone and bridges it. */
    via: Type.Union([Type.Literal('browser'), Type.Literal('phone')]),
  },
  { additionalProperties: false },
);

/** A one-call WebRTC line (the same shape as Call my line's credentials), bound to this call. */
export const LiveLineSchema = Type.Object({
  ...CallMyLineCredentialsSchema.properties,
  /** The call it is for. */
  callId: Type.Number(),
});
export type ApiLiveLine = Static<typeof LiveLineSchema>;

/** Take over: a line for the browser, or the owner's phone being dialled. */
export const TakeOverResponse = Type.Union([
  Type.Object({ via: Type.Literal('browser'), line: LiveLineSchema }),
  Type.Object({ via: Type.Literal('phone'), message: Type.String() }),
]);
export type ApiTakeOverResponse = Static<typeof TakeOverResponse>;
