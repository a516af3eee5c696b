// "Call my line" (issue 28): the credentials POST /api/test-call issues for one browser call.
import { Type, type Static } from 'typebox';

export const CallMyLineCredentialsSchema = Type.Object({
  /** The SIP WebSocket on the console's own origin (ws: or wss: as the page is served). */
  wsPath: Type.String(),
  /** What the browser rings: the owner's own number. */
  sipUri: Type.String(),
  /** The SIP identity and digest password of this call's endpoint. */
  user: Type.String(),
  password: Type.String(),
  /** For the browser's peer connection: a TURN server with this call's credentials, or none. */
  iceServers: Type.Array(Type.Object({ urls: Type.String(), username: Type.String(), credential: Type.String() })),
  /** Unix ms after which the credentials are refused if the call has not connected. */
  expires: Type.Number(),
});
export type ApiCallMyLineCredentials = Static<typeof CallMyLineCredentialsSchema>;
