import { and, eq } from 'drizzle-orm';
import type { Log } from '../../contract/log.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { errorMessage } from '../jobs/retryable.js';
import { agentPausedAdminMail, agentPausedOwnerMail, agentRecoveredAdminMail } from '../mail/agent-guard-mail.js';
import type { Mailer } from '../mail/mailer.js';
import type { Brand, MailMessage } from '../mail/templates.js';
import { EpisodeNotices, type GuardNotice, type GuardState } from './episode-notices.js';

/** What the node's slow-box guard (pbx/admission/slow-box-guard.ts) reports; each call returns at once. */
export interface AgentGuardReports {
  /** The guard closed on a median of `p50Ms` over the last `windowTurns` turns. */
  closed(p50Ms: number, windowTurns: number): void;
  opened(p50Ms: number): void;
  /** A new agent-mode call of this owner was answered in voicemail mode by the guard. */
  turnedAway(ownerId: number): void;
}

export interface AgentGuardDeps {
  db: Db;
  mailer: Mailer;
  brand: Brand;
  log: Pick<Log, 'info' | 'error'>;
  now: () => Date;
  /** NODE_NAME: the admin's notices say which node. */
  node: string;
  /** AGENT_SLOW_P50_MS. */
  limitMs: number;
}

/**
 * The slow-box guard's state for the admin API, and its notices by e-mail (the box's channel for
 * service notices: admins at their login address, owners where their call e-mails go, as the
 * weekly digest). Who is told is decided by EpisodeNotices; the mails go out one after another
 * off the call path: a report never waits on the mail relay, and a slow or failing relay only
 * delays or loses a notice (logged), never a call. The dashboard shows the state regardless.
 */
export class AgentGuard implements AgentGuardReports {
  private readonly notices: EpisodeNotices;
  private queue: Promise<void> = Promise.resolve();
  private lastWindowTurns = 20;

  constructor(private readonly deps: AgentGuardDeps) {
    this.notices = new EpisodeNotices(deps.limitMs);
  }

  closed(p50Ms: number, windowTurns: number): void {
    this.lastWindowTurns = windowTurns;
    this.deliver(this.notices.closed(Math.round(p50Ms), this.deps.now()));
  }

  opened(p50Ms: number): void {
    this.deliver(this.notices.opened(Math.round(p50Ms), this.deps.now()));
  }

  turnedAway(ownerId: number): void {
    this.deliver(this.notices.turnedAway(ownerId));
  }

  state(): Omit<GuardState, 'since'> & { since?: string } {
    const { since, ...rest } = this.notices.state();
    return { ...rest, ...(since ? { since: since.toISOString() } : {}) };
  }

  /** Resolves once every notice decided so far was sent or given up on (tests), or after `boundMs` (shutdown: never a stuck relay's minutes). */
  settled(boundMs?: number): Promise<void> {
    if (boundMs === undefined) return this.queue;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs).unref()));
    return Promise.race([this.queue, bound]).finally(() => clearTimeout(timer));
  }

  private deliver(notices: GuardNotice[]): void {
    for (const n of notices) this.queue = this.queue.then(() => this.send(n));
  }

  private async send(n: GuardNotice): Promise<void> {
    let mails: MailMessage[] = [];
    try {
      mails = await this.mailsFor(n);
      if (mails.length === 0) this.deps.log.info({ notice: n }, 'slow-box guard: nobody to tell (no active admin, or the owner is gone)');
    } catch (err) {
      this.deps.log.error({ err, notice: n }, 'slow-box guard: could not look up whom to tell; the admin dashboard still shows the state');
    }
    for (const mail of mails) {
      try {
        await this.deps.mailer.send(mail);
      } catch (err) {
        this.deps.log.error({ to: mail.to, subject: mail.subject, error: errorMessage(err) }, 'slow-box guard: the notice could not be sent (not retried: it would arrive out of date); the admin dashboard still shows the state');
      }
    }
  }

  private async mailsFor(n: GuardNotice): Promise<MailMessage[]> {
    const { users } = tablesOf(this.deps.db);
    const { brand, node } = this.deps;
    if (n.to === 'admins') {
      const admins = await this.deps.db.select({ email: users.email }).from(users).where(and(eq(users.role, 'admin'), eq(users.accountStatus, 'active')));
      return admins.map((a) =>
        n.kind === 'paused'
          ? agentPausedAdminMail(brand, a.email, { node, p50Ms: n.p50Ms, limitMs: n.limitMs, windowTurns: this.lastWindowTurns })
          : agentRecoveredAdminMail(brand, a.email, { node, p50Ms: n.p50Ms, limitMs: n.limitMs }),
      );
    }
    const [owner] = await this.deps.db.select({ email: users.email, summaryEmail: users.summaryEmail, businessName: users.businessName }).from(users).where(eq(users.id, n.ownerId)).limit(1);
    return owner ? [agentPausedOwnerMail(brand, owner.summaryEmail ?? owner.email, owner.businessName)] : [];
  }
}
