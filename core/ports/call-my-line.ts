import type { BrowserLineEndpoints } from './browser-lines.js';

// The console's "Call my line" as the PBX sees it: the endpoints it makes on Asterisk for the
// core's registry (core/call-my-line/registry.ts), and what it asks of that registry.

/**
 * Every endpoint the registry makes is named so; the sweep removes others of the name, and the
 * trunk watch and the Stasis check (pbx/call-my-line/admit.ts) tell them from a trunk by it. Kept
 * as it is: endpoints an earlier version left on a running Asterisk carry it.
 */
export const CALL_MY_LINE_ENDPOINT_PREFIX = 'tc-';

/**
 * The PBX side of a test call (pbx/call-my-line/lines.ts), handed to the registry by the
 * composition root: one Asterisk endpoint per browser call, made and removed on demand.
 */
export interface CallMyLineEndpoint {
  /** Endpoint, auth and SIP user name: `tc-` and random hex. */
  name: string;
  password: string;
  /** The only number this endpoint may ring: its owner's DID. */
  did: string;
}

/** Made by pbx/call-my-line/lines.ts; its endpoint rings only the line's `did`. */
export type CallMyLineEndpoints = BrowserLineEndpoints<CallMyLineEndpoint>;

/** What the PBX asks of the registry the root hands it: whose line an endpoint is, and the sweep on (re)connecting. */
export interface CallMyLineLines {
  /** The owner and number of a line this core issued, by endpoint name; undefined for any other. */
  lineOf(name: string): { userId: number; did: string } | undefined;
  /** Removes the endpoints of the kind nobody here owns (an earlier run's); resolves to how many. */
  sweep(): Promise<number>;
}
