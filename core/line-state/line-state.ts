// What the line's state is now (issue 44), from what the core already holds: the PBX's health
// reports (services.health 'pbx', the ARI link's state, and 'trunk', the SIP trunk's registration
// as pbx/trunk-watch.ts reads it from Asterisk), the engine pools' endpoints, and the
// owner's last finished forwarding check. No table of its own: a restart starts the clock again.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { ApiAdminLineState, ApiOwnerLineState } from '../../contract/api.js';
import type { LINE_PART_STATES } from '../../contract/schemas/line-state.js';
import { tablesOf } from '../db/schema.js';
import type { Services } from '../services.js';
import { StateSince } from './since.js';
import { operatorContact } from '../config/operator-contact.js';

type PartState = (typeof LINE_PART_STATES)[number];

const ENGINE_NAMES: Record<string, string> = { ollama: 'Language model (Ollama)', whisper: 'Speech to text (Whisper)', tts: 'Voice (Piper)' };

/** How often the parts are looked at when nobody asks, so "since" is right to within this. */
const LINE_STATE_TICK_MS = 5_000;
/** How often a network engine is asked whether it answers, beside what calls find (issue 57 item 7). */
const ENGINE_CHECK_MS = 60_000;

const londonTime = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', day: 'numeric', month: 'short' });

export class LineState {
  private readonly since: StateSince<PartState>;
  private timer: NodeJS.Timeout | undefined;
  private checkTimer: NodeJS.Timeout | undefined;

  constructor(private readonly services: Pick<Services, 'config' | 'health' | 'agentEngines' | 'database' | 'now'>) {
    this.since = new StateSince(services.now());
  }

  start(): void {
    this.timer = setInterval(() => this.admin(), LINE_STATE_TICK_MS);
    this.timer.unref();
    void this.checkEngines();
    this.checkTimer = setInterval(() => void this.checkEngines(), ENGINE_CHECK_MS);
    this.checkTimer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    clearInterval(this.checkTimer);
  }

  /** Resolves once every network engine was asked whether it answers (tests wait on it). */
  async checkEngines(): Promise<void> {
    const { pools } = this.services.agentEngines;
    await Promise.all([pools.llm, pools.stt, pools.tts].map((p) => p?.check()));
  }

  /** The phone system: off without ARI_URL, otherwise up while the ARI link is connected. */
  private phoneSystem(now: Date): ApiAdminLineState['phoneSystem'] {
    const report = this.services.config.ari.url ? this.services.health.get('pbx')?.() : undefined;
    const state: PartState = !this.services.config.ari.url ? 'off' : report?.ok ? 'up' : 'down';
    const detail =
      state === 'off'
        ? 'Not set up on this box (ARI_URL is not set): calls are not answered'
        : state === 'up'
          ? 'Connected to Asterisk: calls are answered'
          : `Not connected to Asterisk: calls are not answered${report?.detail ? ` (${report.detail})` : ''}`;
    return { name: 'Phone system', state, since: this.since.see('pbx', state, now).toISOString(), detail };
  }

  /**
   * The SIP trunk, while the phone system is up (otherwise nothing can be known of it): up when
   * registered (or set up without registration), down when the registration is refused or
   * unanswered, off when the box has none. Not yet reported (the PBX has not asked Asterisk
   * once) counts as neither: no owner is told of a fault nobody has seen.
   */
  private trunk(pbx: ApiAdminLineState['phoneSystem'], now: Date): ApiAdminLineState['trunk'] & { known: boolean } {
    const report = pbx.state === 'up' ? this.services.health.get('trunk')?.() : undefined;
    const state: PartState = pbx.state === 'off' || report?.notSetUp ? 'off' : pbx.state === 'down' ? 'down' : !report || report.ok ? 'up' : 'down';
    const detail =
      pbx.state === 'off'
        ? 'Not set up on this box (no phone system)'
        : pbx.state === 'down'
          ? 'Not known while the phone system is not connected'
          : (report?.detail ?? 'Not checked yet: the phone system has not reported its trunk');
    return { name: 'Phone line (SIP trunk)', state, since: this.since.see('trunk', state, now).toISOString(), detail, known: report !== undefined };
  }

  /**
   * Every engine pool: a network engine is up only while an endpoint answered the last request
   * or check it was asked (not merely because nothing has failed yet); the voice, a program on
   * this box, while it is in the pool.
   */
  admin(): ApiAdminLineState {
    const now = this.services.now();
    const { pools } = this.services.agentEngines;
    const engines = [pools.llm, pools.stt, pools.tts]
      .filter((p) => p !== undefined)
      .map((p) => {
        const { engine, endpoints, checkable } = p.stats();
        const count = `${endpoints.length} ${endpoints.length === 1 ? 'server' : 'servers'}`;
        const up = endpoints.filter((e) => e.healthy && (!checkable || e.answered === true)).length;
        const state: PartState = up > 0 ? 'up' : 'down';
        const detail = !checkable
          ? `${up} of ${count} up`
          : endpoints.every((e) => e.answered === null)
            ? 'Not checked yet: asked when the box starts and every minute'
            : `${up} of ${count} answering`;
        return { name: ENGINE_NAMES[engine] ?? engine, state, since: this.since.see(`engine:${engine}`, state, now).toISOString(), detail };
      });
    const phoneSystem = this.phoneSystem(now);
    const { known: _, ...trunk } = this.trunk(phoneSystem, now);
    return { phoneSystem, trunk, engines };
  }

  /** The owner's view: what stops their calls being answered, in their words. */
  async owner(userId: number): Promise<ApiOwnerLineState> {
    const now = this.services.now();
    const pbx = this.phoneSystem(now);
    const operator = operatorContact(this.services.config.support);
    const problems: ApiOwnerLineState['problems'] = [];
    const at = (iso: string) => londonTime.format(new Date(iso));
    if (pbx.state === 'down')
      problems.push({
        id: 'pbx-down',
        since: pbx.since,
        message: `Your line is not answering calls: the phone system has been down since ${at(pbx.since)}. Callers get no answer and no message is taken until it is back. Your operator, ${operator}, sees this on their status page; if it lasts, contact them.`,
      });
    const trunk = this.trunk(pbx, now);
    if (pbx.state === 'up' && trunk.known && trunk.state === 'off')
      problems.push({
        id: 'no-trunk',
        since: trunk.since,
        message: `Your line cannot take calls yet: this box has no phone line from a provider (SIP trunk) set up, so no call can reach it. Your operator sets this up; contact them: ${operator}.`,
      });
    if (pbx.state === 'up' && trunk.known && trunk.state === 'down')
      problems.push({
        id: 'trunk-down',
        since: trunk.since,
        message: `Your line is not answering calls: the phone line provider has not accepted this box since ${at(trunk.since)}, so calls to your number cannot reach it and no message is taken. Your operator, ${operator}, sees this on their status page; if it lasts, contact them.`,
      });
    const { forwardingChecks } = tablesOf(this.services.database.db);
    const [check] = await this.services.database.db
      .select({ state: forwardingChecks.state, finishedAt: forwardingChecks.finishedAt, startedAt: forwardingChecks.startedAt })
      .from(forwardingChecks)
      .where(and(eq(forwardingChecks.userId, userId), inArray(forwardingChecks.state, ['works', 'not-reaching'])))
      .orderBy(desc(forwardingChecks.startedAt))
      .limit(1);
    if (check?.state === 'not-reaching') {
      const since = (check.finishedAt ?? check.startedAt).toISOString();
      problems.push({
        id: 'not-forwarding',
        since,
        message: `Your business line was not forwarding to us when you last checked (${at(since)}). Dial your forwarding code again from Phone Numbers, then press "Check my forwarding".`,
      });
    }
    return { problems, testCallAvailable: pbx.state === 'up' };
  }
}
