import crypto from 'node:crypto';
import type { TestCallLine, TestCallLines } from './lines.js';

/** Credentials not used within this long are withdrawn (the browser connects at once). */
const CREDENTIALS_TTL_MS = 60_000;

export interface IssuedTestCall extends TestCallLine {
  userId: number;
  expiresAt: number;
  connected: boolean;
}

export class TestCallBusy extends Error {}

/**
 * The test calls of this core, in memory: at most one per owner. Credentials are made per call
 * (a fresh endpoint on Asterisk with a random password) and withdrawn when the call's socket
 * closes or, unused, after CREDENTIALS_TTL_MS. Memory is enough: the endpoints live in
 * Asterisk's memory wizard too, so a restart of either side ends them both.
 */
export class TestCallRegistry {
  private readonly byName = new Map<string, IssuedTestCall & { timer?: NodeJS.Timeout }>();

  constructor(
    private readonly lines: TestCallLines,
    private readonly now: () => number = Date.now,
  ) {}

  /** New credentials for the owner's DID; unused earlier ones are withdrawn, a connected call refuses (TestCallBusy). */
  async issue(userId: number, did: string): Promise<IssuedTestCall> {
    for (const c of this.byName.values()) {
      if (c.userId !== userId) continue;
      if (c.connected) throw new TestCallBusy();
      await this.release(c.name);
    }
    const issued = {
      name: `tc-${crypto.randomBytes(8).toString('hex')}`,
      password: crypto.randomBytes(18).toString('base64url'),
      did,
      userId,
      expiresAt: this.now() + CREDENTIALS_TTL_MS,
      connected: false,
    };
    this.byName.set(issued.name, issued);
    try {
      await this.lines.open(issued);
    } catch (err) {
      this.byName.delete(issued.name);
      throw err;
    }
    const entry = this.byName.get(issued.name);
    if (entry) entry.timer = setTimeout(() => void this.expire(issued.name), CREDENTIALS_TTL_MS).unref();
    return issued;
  }

  /** The proxy's claim when the browser connects: the owner's own, unexpired, unused credentials. */
  claim(name: string, userId: number): IssuedTestCall | undefined {
    const c = this.byName.get(name);
    if (!c || c.userId !== userId || c.connected || c.expiresAt < this.now()) return undefined;
    c.connected = true;
    clearTimeout(c.timer);
    return c;
  }

  /** The socket closed (or the credentials expired): the endpoint goes. */
  async release(name: string): Promise<void> {
    const c = this.byName.get(name);
    if (!c) return;
    clearTimeout(c.timer);
    this.byName.delete(name);
    await this.lines.close(name).catch(() => undefined);
  }

  private async expire(name: string): Promise<void> {
    if (this.byName.get(name)?.connected === false) await this.release(name);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.byName.keys()].map((n) => this.release(n)));
  }
}
