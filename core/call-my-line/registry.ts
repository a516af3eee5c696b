import type { Log } from '../../contract/log.js';
import { BrowserLineRegistry } from '../browser-lines/registry.js';
import { CALL_MY_LINE_ENDPOINT_PREFIX, type CallMyLineEndpoint, type CallMyLineEndpoints, type CallMyLineLines } from '../ports/call-my-line.js';

/** Credentials not used within this long are withdrawn (the browser connects at once). */
const CREDENTIALS_TTL_MS = 60_000;

export interface IssuedCallMyLine extends CallMyLineEndpoint {
  userId: number;
  expiresAt: number;
  connected: boolean;
}

type OwnersLine = CallMyLineEndpoint & { userId: number };

export class CallMyLineBusy extends Error {}

/**
 * The test calls of this core (core/browser-lines/registry.ts keeps their endpoints, and says why
 * memory is enough): at most one per owner, whose credentials are made per call and withdrawn
 * when the call's socket closes or, unused, after CREDENTIALS_TTL_MS.
 *
 * An owner's presses are served one after another: parallel presses used to interleave, one
 * press withdrawing the other's endpoint before its creation had reached Asterisk, which then
 * kept it with nobody to remove it.
 */
export class CallMyLineRegistry extends BrowserLineRegistry<OwnersLine> implements CallMyLineLines {
  /** Per owner, the press being served: the next one waits for it. */
  private readonly presses = new Map<number, Promise<unknown>>();

  constructor(lines: CallMyLineEndpoints, log: Log, now: () => number = Date.now) {
    super(lines, { prefix: CALL_MY_LINE_ENDPOINT_PREFIX, ttlMs: CREDENTIALS_TTL_MS, ownerOf: (line) => line.userId, one: 'a Call my line endpoint', many: 'Call my line endpoints' }, log, now);
  }

  /**
   * New credentials for the owner's DID; unused earlier ones are withdrawn, a connected call
   * refuses (CallMyLineBusy). `admit` runs in the owner's turn, before anything is made (the
   * route's per-owner limit: it throws to refuse).
   */
  issue(userId: number, did: string, admit?: () => Promise<void>): Promise<IssuedCallMyLine> {
    const previous = this.presses.get(userId) ?? Promise.resolve();
    const press = previous.catch(() => undefined).then(() => this.issueNow(userId, did, admit));
    this.presses.set(userId, press);
    void press.finally(() => {
      if (this.presses.get(userId) === press) this.presses.delete(userId);
    }).catch(() => undefined);
    return press;
  }

  private async issueNow(userId: number, did: string, admit?: () => Promise<void>): Promise<IssuedCallMyLine> {
    const earlier = this.heldBy(userId);
    if (earlier.some((c) => c.connected)) throw new CallMyLineBusy();
    await admit?.();
    for (const c of earlier) await this.release(c.line.name);
    const { line, expiresAt } = await this.issueLine({ did, userId });
    return { name: line.name, password: line.password, did, userId, expiresAt, connected: false };
  }

  /** The proxy's claim when the browser connects: the owner's own, unexpired, unused credentials. */
  claim(name: string, userId: number): IssuedCallMyLine | undefined {
    const claimed = this.claimLine(name, userId);
    if (!claimed) return undefined;
    const { line, expiresAt } = claimed;
    return { name: line.name, password: line.password, did: line.did, userId: line.userId, expiresAt, connected: true };
  }

  /**
   * The owner and number of a Call my line endpoint whose credentials the proxy has claimed: the
   * core's own check of a call Asterisk puts into Stasis from that endpoint. Undefined for an
   * endpoint this core did not make, or whose credentials never came through the proxy.
   */
  lineOf(name: string): { userId: number; did: string } | undefined {
    const line = this.connectedLine(name);
    return line ? { userId: line.userId, did: line.did } : undefined;
  }
}
