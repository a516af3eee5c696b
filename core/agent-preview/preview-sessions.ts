import { randomBytes } from 'node:crypto';

// The console's Try-it conversations (issue 41 item 6): what the agent remembers between an
// owner's turns (the model's history, a booking walk in progress), kept in memory only. A
// conversation is short-lived and bounded, so owners trying the agent never grow the box's
// memory: a few per owner (a new one drops that owner's least recently used), a few hundred in
// all (then new ones wait until idle ones expire), each gone after some minutes idle.

interface PreviewSessionLimits {
  perOwner: number;
  boxWide: number;
  idleMs: number;
}

export const PREVIEW_SESSION_LIMITS: PreviewSessionLimits = { perOwner: 3, boxWide: 200, idleMs: 10 * 60_000 };

interface Entry<T> {
  ownerId: number;
  state: T;
  lastUsed: number;
}

export class PreviewSessions<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly now: () => number, private readonly limits: PreviewSessionLimits = PREVIEW_SESSION_LIMITS) {}

  /** A new conversation for this owner; null when the box holds as many as it takes. */
  open(ownerId: number, state: T): string | null {
    this.sweep();
    const mine = [...this.entries].filter(([, e]) => e.ownerId === ownerId).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [id] of mine.slice(0, Math.max(0, mine.length - this.limits.perOwner + 1))) this.entries.delete(id);
    if (this.entries.size >= this.limits.boxWide) return null;
    // Unguessable, and only ever looked up with the owner's id too.
    const id = randomBytes(16).toString('hex');
    this.entries.set(id, { ownerId, state, lastUsed: this.now() });
    return id;
  }

  /** This owner's conversation, kept alive by the use; undefined when unknown, another owner's or idle too long. */
  get(ownerId: number, id: string): T | undefined {
    const e = this.entries.get(id);
    if (!e || e.ownerId !== ownerId) return undefined;
    if (this.now() - e.lastUsed > this.limits.idleMs) {
      this.entries.delete(id);
      return undefined;
    }
    e.lastUsed = this.now();
    return e.state;
  }

  get size(): number {
    return this.entries.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, e] of this.entries) if (now - e.lastUsed > this.limits.idleMs) this.entries.delete(id);
  }
}
