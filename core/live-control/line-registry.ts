import type { Log } from '../../contract/log.js';
import { BrowserLineRegistry } from '../browser-lines/registry.js';
import { LIVE_LINE_ENDPOINT_PREFIX, type LiveJoin, type LiveLine, type LiveLineEndpoints, type LiveLines } from '../ports/live-listen.js';

/** Credentials not used within this long are withdrawn (the browser connects at once). */
const CREDENTIALS_TTL_MS = 60_000;

export class LiveLineBusy extends Error {}

/**
 * The listen and take-over lines of this core (core/browser-lines/registry.ts keeps their
 * endpoints, as it keeps Call my line's): withdrawn when the browser's socket closes, when unused
 * after CREDENTIALS_TTL_MS, or when the call ends. A line is bound to one call and one login: the
 * proxy lets only that login's browser claim it, and the PBX bridges it only to that call
 * (pbx/live-control/live-control.ts).
 */
export class LiveLineRegistry extends BrowserLineRegistry<LiveLine> implements LiveLines {
  constructor(
    endpoints: LiveLineEndpoints,
    private readonly record: (join: LiveJoin) => Promise<void>,
    log: Log,
    now: () => number = Date.now,
  ) {
    super(endpoints, { prefix: LIVE_LINE_ENDPOINT_PREFIX, ttlMs: CREDENTIALS_TTL_MS, ownerOf: (line) => line.loginUserId, one: 'a live-call line', many: 'live-call lines' }, log, now);
  }

  /**
   * A new line for this login on this call; its unused earlier lines (of any call) are withdrawn,
   * and a connected one of the same purpose on the same call refuses (LiveLineBusy).
   */
  async issue(line: Omit<LiveLine, 'name' | 'password'>): Promise<LiveLine & { expiresAt: number }> {
    const mine = this.heldBy(line.loginUserId);
    if (mine.some((c) => c.connected && c.line.callId === line.callId && c.line.purpose === line.purpose)) throw new LiveLineBusy();
    for (const c of mine) if (!c.connected) await this.release(c.line.name);
    const issued = await this.issueLine(line);
    return { ...issued.line, expiresAt: issued.expiresAt };
  }

  /** The proxy's claim when the browser connects: this login's own, unexpired, unused line. */
  claim(name: string, loginUserId: number): boolean {
    return this.claimLine(name, loginUserId) !== undefined;
  }

  lineOf(name: string): LiveLine | undefined {
    return this.connectedLine(name);
  }

  joined(join: LiveJoin): Promise<void> {
    return this.record(join);
  }

  callEnded(callId: number): void {
    for (const line of this.unconnected()) if (line.callId === callId) void this.release(line.name);
  }
}
