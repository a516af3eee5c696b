import type { TakeOverVia } from '../../contract/enums.js';
import type { BrowserLine, BrowserLineEndpoints } from './browser-lines.js';

// Listen in and take over a live call (issue 54), as the core and the PBX see each other: the
// one-call WebRTC lines the core's registry issues (core/live-control/line-registry.ts), the
// endpoints the PBX makes for them on Asterisk (pbx/live-control/lines.ts), and what the core's
// routes ask of the PBX about a call in progress (pbx/live-control/live-control.ts).

/** Every live-line endpoint is named so: the sweep, the proxy and the Stasis app tell them by it. */
export const LIVE_LINE_ENDPOINT_PREFIX = 'lt-';

export type LiveLinePurpose = 'listen' | 'take-over';

/** One browser line for one call: issued by POST /api/live/calls/:id/listen or /take-over. */
export interface LiveLine {
  /** Endpoint, auth and SIP user name: `lt-` and random hex. */
  name: string;
  password: string;
  purpose: LiveLinePurpose;
  callId: number;
  /** The business whose call it is. */
  userId: number;
  /** The login that asked (the owner, or a staff member's own login). */
  loginUserId: number;
  /** Their name as the call's history and row keep it. */
  byName: string;
  /** The name the agent says in its handover line ("I'm putting you through to {name} now."). */
  spokenName: string;
  /** The caller's channel on Asterisk (calls.channel_id). */
  callerChannelId: string;
}

/** Made by pbx/live-control/lines.ts; its endpoint rings only the core's app (context [live-line]). */
export type LiveLineEndpoints = BrowserLineEndpoints<BrowserLine>;

/** Who joined a live call, as its history and (for a take-over) its row record it. */
export interface LiveJoin {
  callId: number;
  userId: number;
  byName: string;
  event: 'listen' | 'take-over';
  via?: TakeOverVia;
}

/** What the PBX asks of the core's registry: whose a line is, and what to record. */
export interface LiveLines {
  /** A line whose browser has connected through the proxy, by endpoint name; undefined for any other. */
  lineOf(name: string): LiveLine | undefined;
  /** Someone is on the call now (listening, or bridged with the caller): kept in the call's history. */
  joined(join: LiveJoin): Promise<void>;
  /** The call ended: its unused lines are withdrawn. */
  callEnded(callId: number): void;
  sweep(): Promise<number>;
}

/** What the core's routes ask the PBX about a call in progress. */
export interface LiveCallControl {
  /** Why this node takes no more work now (the admission rule that refuses new callers), or undefined. */
  full(): string | undefined;
  /** Why the agent cannot hand this call over (not an agent call here, already taken over, a put-through ringing), or undefined. */
  takeOverRefusal(callId: number): string | undefined;
  /** Dials the owner's phone and, once answered, hands the call over to it: started in the background; resolves once the dialling began. */
  takeOverByPhone(callId: number, by: { name: string; spoken: string }): Promise<'dialling' | 'no-phone'>;
}
