import crypto from 'node:crypto';
import type { Log } from '../../contract/log.js';
import type { BrowserLine, BrowserLineEndpoints } from '../ports/browser-lines.js';

/** What sets one kind of browser line apart from another. */
export interface BrowserLineKind<L extends BrowserLine> {
  /** Every endpoint of the kind is named so (and random hex): the sweep tells its own by it. */
  prefix: string;
  /** Credentials not used within this long are withdrawn (the browser connects at once). */
  ttlMs: number;
  /** The login whose browser alone may claim the line. */
  ownerOf(line: L): number;
  /** The kind in the log, one and many: "a Call my line endpoint", "Call my line endpoints". */
  one: string;
  many: string;
}

interface Entry<L> {
  line: L;
  expiresAt: number;
  connected: boolean;
  timer?: NodeJS.Timeout;
  /** The endpoint's creation on Asterisk; a release waits for it, so nothing lands after the removal. */
  opening: Promise<void>;
}

/**
 * One-call browser lines over Asterisk endpoints, in memory: one endpoint per line with a random
 * password, withdrawn when the browser's socket closes or, unused, after the kind's TTL. Memory
 * is enough: the endpoints live in Asterisk's memory wizard too, so a restart of Asterisk ends
 * them, and a restart of the core leaves endpoints nobody owns, which sweep() removes when the
 * core (re)connects. The registry owns every endpoint it creates: an endpoint being created is
 * removed only once its creation has finished. Who may have which lines at once is each
 * capability's own rule (core/call-my-line/registry.ts, core/live-control/line-registry.ts),
 * built on issueLine() and heldBy().
 */
export class BrowserLineRegistry<L extends BrowserLine> {
  private readonly byName = new Map<string, Entry<L>>();

  constructor(
    private readonly endpoints: BrowserLineEndpoints<L>,
    private readonly kind: BrowserLineKind<L>,
    private readonly log: Log,
    private readonly now: () => number = Date.now,
  ) {}

  /** Asterisk's SIP WebSocket, which only the core's proxy opens. */
  get wsUrl(): string {
    return this.endpoints.wsUrl;
  }

  /** This login's lines, oldest first; `connected` is read live (a claim may land while the caller awaits). */
  protected heldBy(owner: number): Array<{ readonly line: L; readonly connected: boolean }> {
    return [...this.byName.values()].filter((c) => this.kind.ownerOf(c.line) === owner);
  }

  /** A new line with fresh credentials, its endpoint made on Asterisk (or, half made, removed again). */
  protected async issueLine(fields: Omit<L, 'name' | 'password'>): Promise<{ line: L; expiresAt: number }> {
    const line = {
      ...fields,
      name: `${this.kind.prefix}${crypto.randomBytes(8).toString('hex')}`,
      password: crypto.randomBytes(18).toString('base64url'),
    } as L;
    const entry: Entry<L> = { line, expiresAt: this.now() + this.kind.ttlMs, connected: false, opening: Promise.resolve() };
    entry.opening = this.endpoints.open(line);
    this.byName.set(line.name, entry);
    try {
      await entry.opening;
    } catch (err) {
      // Half made (the auth without the endpoint): removed, so nothing is left behind.
      this.byName.delete(line.name);
      await this.endpoints.close(line.name).catch(() => undefined);
      throw err;
    }
    entry.timer = setTimeout(() => void this.expire(line.name), this.kind.ttlMs).unref();
    return { line, expiresAt: entry.expiresAt };
  }

  /** The proxy's claim when the browser connects: this login's own, unexpired, unused line, now connected. */
  protected claimLine(name: string, owner: number): { line: L; expiresAt: number } | undefined {
    const c = this.byName.get(name);
    if (!c || this.kind.ownerOf(c.line) !== owner || c.connected || c.expiresAt < this.now()) return undefined;
    c.connected = true;
    clearTimeout(c.timer);
    return { line: c.line, expiresAt: c.expiresAt };
  }

  /** A line whose browser has connected through the proxy; undefined for any other name. */
  protected connectedLine(name: string): L | undefined {
    const c = this.byName.get(name);
    return c?.connected ? { ...c.line } : undefined;
  }

  /** Lines not (yet) connected, for withdrawing the unused ones of a call that ended. */
  protected unconnected(): L[] {
    return [...this.byName.values()].filter((c) => !c.connected).map((c) => c.line);
  }

  /** The socket closed (or the credentials expired): the endpoint goes. */
  async release(name: string): Promise<void> {
    const c = this.byName.get(name);
    if (!c) return;
    clearTimeout(c.timer);
    this.byName.delete(name);
    await c.opening.catch(() => undefined);
    await this.endpoints.close(name).catch((err: unknown) => this.log.warn({ err, endpoint: name }, `could not remove ${this.kind.one} from Asterisk; the next sweep will`));
  }

  private async expire(name: string): Promise<void> {
    if (this.byName.get(name)?.connected === false) await this.release(name);
  }

  /**
   * Removes endpoints of this kind Asterisk holds that this registry does not own (left by an
   * earlier run of the core, or by a removal that failed): run at each connection to Asterisk.
   */
  async sweep(): Promise<number> {
    const names = await this.endpoints.list();
    const leftovers = names.filter((n) => n.startsWith(this.kind.prefix) && !this.byName.has(n));
    for (const name of leftovers) await this.endpoints.close(name);
    if (leftovers.length) this.log.info({ removed: leftovers.length }, `removed ${this.kind.many} left on Asterisk by an earlier run`);
    return leftovers.length;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.byName.keys()].map((n) => this.release(n)));
  }
}
