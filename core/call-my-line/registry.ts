import crypto from 'node:crypto';
import type { Log } from '../../contract/log.js';
import { CALL_MY_LINE_ENDPOINT_PREFIX, type CallMyLineEndpoint, type CallMyLineEndpoints, type CallMyLineLines } from '../ports/call-my-line.js';

/** Credentials not used within this long are withdrawn (the browser connects at once). */
const CREDENTIALS_TTL_MS = 60_000;

export interface IssuedCallMyLine extends CallMyLineEndpoint {
  userId: number;
  expiresAt: number;
  connected: boolean;
}

interface Entry extends IssuedCallMyLine {
  timer?: NodeJS.Timeout;
  /** The endpoint's creation on Asterisk; a release waits for it, so nothing lands after the removal. */
  opening: Promise<void>;
}

export class CallMyLineBusy extends Error {}

/**
 * The test calls of this core, in memory: at most one per owner. Credentials are made per call
 * (a fresh endpoint on Asterisk with a random password) and withdrawn when the call's socket
 * closes or, unused, after CREDENTIALS_TTL_MS. Memory is enough: the endpoints live in
 * Asterisk's memory wizard too, so a restart of Asterisk ends them, and a restart of the core
 * leaves endpoints nobody owns, which sweep() removes when the core (re)connects.
 *
 * The registry owns every endpoint it creates: an owner's presses are served one after
 * another (parallel presses used to interleave, one press withdrawing the other's endpoint
 * before its creation had reached Asterisk, which then kept it with nobody to remove it), and
 * an endpoint being created is removed only once its creation has finished.
 */
export class CallMyLineRegistry implements CallMyLineLines {
  private readonly byName = new Map<string, Entry>();
  /** Per owner, the press being served: the next one waits for it. */
  private readonly presses = new Map<number, Promise<unknown>>();

  constructor(
    private readonly lines: CallMyLineEndpoints,
    private readonly log: Log,
    private readonly now: () => number = Date.now,
  ) {}

  /** Asterisk's SIP WebSocket, which only the core's proxy opens. */
  get wsUrl(): string {
    return this.lines.wsUrl;
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
    const earlier = [...this.byName.values()].filter((c) => c.userId === userId);
    if (earlier.some((c) => c.connected)) throw new CallMyLineBusy();
    await admit?.();
    for (const c of earlier) await this.release(c.name);
    const entry: Entry = {
      name: `${CALL_MY_LINE_ENDPOINT_PREFIX}${crypto.randomBytes(8).toString('hex')}`,
      password: crypto.randomBytes(18).toString('base64url'),
      did,
      userId,
      expiresAt: this.now() + CREDENTIALS_TTL_MS,
      connected: false,
      opening: Promise.resolve(),
    };
    entry.opening = this.lines.open(entry);
    this.byName.set(entry.name, entry);
    try {
      await entry.opening;
    } catch (err) {
      // Half made (the auth without the endpoint): removed, so nothing is left behind.
      this.byName.delete(entry.name);
      await this.lines.close(entry.name).catch(() => undefined);
      throw err;
    }
    entry.timer = setTimeout(() => void this.expire(entry.name), CREDENTIALS_TTL_MS).unref();
    return { name: entry.name, password: entry.password, did, userId, expiresAt: entry.expiresAt, connected: false };
  }

  /** The proxy's claim when the browser connects: the owner's own, unexpired, unused credentials. */
  claim(name: string, userId: number): IssuedCallMyLine | undefined {
    const c = this.byName.get(name);
    if (!c || c.userId !== userId || c.connected || c.expiresAt < this.now()) return undefined;
    c.connected = true;
    clearTimeout(c.timer);
    return c;
  }

  /**
   * The owner and number of a Call my line endpoint whose credentials the proxy has claimed: the
   * core's own check of a call Asterisk puts into Stasis from that endpoint. Undefined for an
   * endpoint this core did not make, or whose credentials never came through the proxy.
   */
  lineOf(name: string): { userId: number; did: string } | undefined {
    const c = this.byName.get(name);
    return c?.connected ? { userId: c.userId, did: c.did } : undefined;
  }

  /** The socket closed (or the credentials expired): the endpoint goes. */
  async release(name: string): Promise<void> {
    const c = this.byName.get(name);
    if (!c) return;
    clearTimeout(c.timer);
    this.byName.delete(name);
    await c.opening.catch(() => undefined);
    await this.lines.close(name).catch((err: unknown) => this.log.warn({ err, endpoint: name }, 'could not remove a Call my line endpoint from Asterisk; the next sweep will'));
  }

  private async expire(name: string): Promise<void> {
    if (this.byName.get(name)?.connected === false) await this.release(name);
  }

  /**
   * Removes Call my line endpoints Asterisk holds that this registry does not own (left by an
   * earlier run of the core, or by a removal that failed): run at each connection to Asterisk.
   */
  async sweep(): Promise<number> {
    const names = await this.lines.list();
    const leftovers = names.filter((n) => n.startsWith(CALL_MY_LINE_ENDPOINT_PREFIX) && !this.byName.has(n));
    for (const name of leftovers) await this.lines.close(name);
    if (leftovers.length) this.log.info({ removed: leftovers.length }, 'removed Call my line endpoints left on Asterisk by an earlier run');
    return leftovers.length;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.byName.keys()].map((n) => this.release(n)));
  }
}
