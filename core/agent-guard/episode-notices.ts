/**
 * Who is told what about the slow-box guard, once per episode (issue 60 item 4), pure: no clock,
 * no I/O. An episode runs from the guard closing to its opening again.
 *
 * - The admins are told when it closes (with the median that closed it) and when it opens.
 * - An owner is told at their first call turned to voicemail by the guard in the episode, and not
 *   again in that episode. "The owners affected" read that way names exactly the owners whose
 *   callers lost the assistant, and no one whose calls this node never answered; an owner with no
 *   agent-mode call during the episode hears nothing of it.
 * - Owners are not told of the recovery: their notice already says it resumes by itself.
 *
 * Closing while closed, opening while open and a refusal while open tell no one (a guard
 * restarted with the process starts open, in a new episode).
 */
export type GuardNotice =
  | { to: 'admins'; kind: 'paused'; episode: number; p50Ms: number; limitMs: number }
  | { to: 'admins'; kind: 'recovered'; episode: number; p50Ms: number; limitMs: number }
  | { to: 'owner'; kind: 'paused'; episode: number; ownerId: number };

export interface GuardState {
  state: 'open' | 'closed';
  /** While closed: the median that closed it. */
  p50Ms?: number;
  limitMs: number;
  /** When it last closed or opened (absent before the first episode). */
  since?: Date;
}

export class EpisodeNotices {
  /** 0 before the first episode; each closing starts the next. */
  private episode = 0;
  private closedNow = false;
  private closingP50 = 0;
  private changedAt: Date | undefined;
  private readonly toldOwners = new Set<number>();

  constructor(private readonly limitMs: number) {}

  closed(p50Ms: number, at: Date): GuardNotice[] {
    if (this.closedNow) return [];
    this.episode += 1;
    this.closedNow = true;
    this.closingP50 = p50Ms;
    this.changedAt = at;
    this.toldOwners.clear();
    return [{ to: 'admins', kind: 'paused', episode: this.episode, p50Ms, limitMs: this.limitMs }];
  }

  opened(p50Ms: number, at: Date): GuardNotice[] {
    if (!this.closedNow) return [];
    this.closedNow = false;
    this.changedAt = at;
    return [{ to: 'admins', kind: 'recovered', episode: this.episode, p50Ms, limitMs: this.limitMs }];
  }

  /** A new agent-mode call of this owner was answered in voicemail mode by the guard. */
  turnedAway(ownerId: number): GuardNotice[] {
    if (!this.closedNow || this.toldOwners.has(ownerId)) return [];
    this.toldOwners.add(ownerId);
    return [{ to: 'owner', kind: 'paused', episode: this.episode, ownerId }];
  }

  state(): GuardState {
    return {
      state: this.closedNow ? 'closed' : 'open',
      ...(this.closedNow ? { p50Ms: this.closingP50 } : {}),
      limitMs: this.limitMs,
      ...(this.changedAt ? { since: this.changedAt } : {}),
    };
  }
}
