// One-call browser lines as the core and the PBX see each other, whatever the line is for (the
// console's "Call my line", a live call's listen or take-over): the core's registry issues them
// (core/browser-lines/registry.ts) and the PBX makes an Asterisk endpoint for each
// (pbx/browser-lines/dynamic-endpoint.ts).

/** What every browser line carries: its endpoint's (and auth's, and SIP user's) name and a random password. */
export interface BrowserLine {
  /** The kind's prefix (`tc-`, `lt-`) and random hex. */
  name: string;
  password: string;
}

/** One Asterisk endpoint per line, made and removed on demand; handed to the registry by the composition root. */
export interface BrowserLineEndpoints<L extends BrowserLine> {
  /** Asterisk's SIP WebSocket (ws://host:port/ws), which only the core's proxy opens. */
  readonly wsUrl: string;
  open(line: L): Promise<void>;
  /** Removes the endpoint; a missing one is not an error. */
  close(name: string): Promise<void>;
  /** The names of every PJSIP endpoint Asterisk holds (the registry's sweep picks its own kind). */
  list(): Promise<string[]>;
}
