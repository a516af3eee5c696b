/**
 * Since when each part of the line has been in its state, as the core saw it. The parts report
 * their state on demand (the ARI link, the engine pools): `see` is called on every read and by a
 * short timer, so a change is dated within one tick even when nobody is looking.
 */
export class StateSince<S extends string> {
  private readonly seen = new Map<string, { state: S; since: Date }>();

  constructor(private readonly startedAt: Date) {}

  /** Records `state` for `part` at `now`; answers since when it has held. Unseen parts date from the core's start. */
  see(part: string, state: S, now: Date): Date {
    const last = this.seen.get(part);
    if (last && last.state === state) return last.since;
    const since = last ? now : this.startedAt;
    this.seen.set(part, { state, since });
    return since;
  }
}
