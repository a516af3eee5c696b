/**
 * The PBX side of a test call (pbx/call-my-line/lines.ts), handed to buildApp by the composition
 * root: one Asterisk endpoint per browser call, made and removed on demand.
 */
export interface CallMyLineEndpoint {
  /** Endpoint, auth and SIP user name: `tc-` and random hex. */
  name: string;
  password: string;
  /** The only number this endpoint may ring: its owner's DID. */
  did: string;
}

export interface CallMyLineEndpoints {
  /** Asterisk's SIP WebSocket (ws://host:port/ws), which only the core's proxy opens. */
  readonly wsUrl: string;
  open(line: CallMyLineEndpoint): Promise<void>;
  /** Removes the endpoint; a missing one is not an error. */
  close(name: string): Promise<void>;
  /** The names of every PJSIP endpoint Asterisk holds (the registry's sweep picks its own kind). */
  list(): Promise<string[]>;
}
