import crypto from 'node:crypto';
import type { Log } from '../../contract/log.js';
import { LIVE_LINE_ENDPOINT_PREFIX, type LiveJoin, type LiveLine, type LiveLineEndpoints, type LiveLines } from '../ports/live-listen.js';

/** Credentials not used within this long are withdrawn (the browser connects at once). */
const CREDENTIALS_TTL_MS = 60_000;

interface Entry extends LiveLine {
  expiresAt: number;
  connected: boolean;
  timer?: NodeJS.Timeout;
  /** The endpoint's creation on Asterisk; a release waits for it, so nothing lands after the removal. */
  opening: Promise<void>;
}

export class LiveLineBusy extends Error {}

/**
 * The listen and take-over lines of this core, in memory, as Call my line's registry keeps its
 * test calls (core/call-my-line/registry.ts, which says why memory is enough): one endpoint on
 * Asterisk per line with a random password, withdrawn when the browser's socket closes, when
 * unused after CREDENTIALS_TTL_MS, or when the call ends. A line is bound to one call and one
 * login: the proxy lets only that login's browser claim it, and the PBX bridges it only to that
 * call (pbx/live-control/live-control.ts).
 */
export class LiveLineRegistry implements LiveLines {
  private readonly byName = new Map<string, Entry>();

  constructor(
    private readonly endpoints: LiveLineEndpoints,
    private readonly record: (join: LiveJoin) => Promise<void>,
    private readonly log: Log,
    private readonly now: () => number = Date.now,
  ) {}

  get wsUrl(): string {
    return this.endpoints.wsUrl;
  }

  /**
   * A new line for this login on this call; its unused earlier lines (of any call) are withdrawn,
   * and a connected one of the same purpose on the same call refuses (LiveLineBusy).
   */
  async issue(line: Omit<LiveLine, 'name' | 'password'>): Promise<LiveLine & { expiresAt: number }> {
    const mine = [...this.byName.values()].filter((c) => c.loginUserId === line.loginUserId);
    if (mine.some((c) => c.connected && c.callId === line.callId && c.purpose === line.purpose)) throw new LiveLineBusy();
    for (const c of mine) if (!c.connected) await this.release(c.name);
    const entry: Entry = {
      ...line,
      name: `${LIVE_LINE_ENDPOINT_PREFIX}${crypto.randomBytes(8).toString('hex')}`,
      password: crypto.randomBytes(18).toString('base64url'),
      expiresAt: this.now() + CREDENTIALS_TTL_MS,
      connected: false,
      opening: Promise.resolve(),
    };
    entry.opening = this.endpoints.open(entry);
    this.byName.set(entry.name, entry);
    try {
      await entry.opening;
    } catch (err) {
      this.byName.delete(entry.name);
      await this.endpoints.close(entry.name).catch(() => undefined);
      throw err;
    }
    entry.timer = setTimeout(() => void this.expire(entry.name), CREDENTIALS_TTL_MS).unref();
    const { timer: _t, opening: _o, connected: _c, ...issued } = entry;
    return issued;
  }

  /** The proxy's claim when the browser connects: this login's own, unexpired, unused line. */
  claim(name: string, loginUserId: number): boolean {
    const c = this.byName.get(name);
    if (!c || c.loginUserId !== loginUserId || c.connected || c.expiresAt < this.now()) return false;
    c.connected = true;
    clearTimeout(c.timer);
    return true;
  }

  lineOf(name: string): LiveLine | undefined {
    const c = this.byName.get(name);
    if (!c?.connected) return undefined;
    const { timer: _t, opening: _o, connected: _c, expiresAt: _e, ...line } = c;
    return line;
  }

  joined(join: LiveJoin): Promise<void> {
    return this.record(join);
  }

  callEnded(callId: number): void {
    for (const c of this.byName.values()) if (c.callId === callId && !c.connected) void this.release(c.name);
  }

  async release(name: string): Promise<void> {
    const c = this.byName.get(name);
    if (!c) return;
    clearTimeout(c.timer);
    this.byName.delete(name);
    await c.opening.catch(() => undefined);
    await this.endpoints.close(name).catch((err: unknown) => this.log.warn({ err, endpoint: name }, 'could not remove a live-call line from Asterisk; the next sweep will'));
  }

  private async expire(name: string): Promise<void> {
    if (this.byName.get(name)?.connected === false) await this.release(name);
  }

  /** Removes live-call endpoints Asterisk holds that this registry does not own (an earlier run's). */
  async sweep(): Promise<number> {
    const names = await this.endpoints.list();
    const leftovers = names.filter((n) => n.startsWith(LIVE_LINE_ENDPOINT_PREFIX) && !this.byName.has(n));
    for (const name of leftovers) await this.endpoints.close(name);
    if (leftovers.length) this.log.info({ removed: leftovers.length }, 'removed live-call lines left on Asterisk by an earlier run');
    return leftovers.length;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.byName.keys()].map((n) => this.release(n)));
  }
}
