import { eq } from 'drizzle-orm';
import type { Log } from '../../contract/log.js';
import { mayDial, type DialFacts, type DialVerdict, type TryOutcome } from '../call-backs/may-dial.js';
import { claimDueCallBacks, postponeCallBack, recordCallBackTry, releaseStuckCallBacks } from '../call-backs-store/claim.js';
import { closeCallBack, type CloseAs } from '../call-backs-store/sweep-rows.js';
import { ownerDid } from '../call-handling/store.js';
import type { Db } from '../db/client.js';
import { tablesOf, type CallBackRow } from '../db/schema.js';
import { errorMessage } from '../jobs/retryable.js';
import type { OutboundAllowList } from '../outbound/dialable.js';
import type { CallBackDial, CallBackDialler, CallBackDialResult } from '../ports/call-back-dialler.js';
import { afterTry, type AfterTryDeps } from './after-try.js';
import { gatherDialFacts, type FirstCall } from './facts.js';
import { recordOwnerWindow } from './owner-window.js';
import { recordVoicemailWish } from '../call-backs-wish/voicemail-wish.js';

// The core's call-back dialler (issue 56): every CALL_BACK_SWEEP_MS it claims the call-backs
// that fall due (one statement, so two cores never take one row), asks the rules (mayDial)
// with the facts read now, and hands each that may go to the PBX through the port. What the
// rules hold back goes back to waiting at the instant they name; what they forbid closes.

export interface SweepDeps extends AfterTryDeps {
  db: Db;
  now: () => Date;
  log: Pick<Log, 'info' | 'warn' | 'error'>;
  allow: OutboundAllowList;
  /** How long a call-back waits when the PBX had no slot for it or its link was down (no try counted). */
  noSlotWaitMs: number;
  /** The core's hook of finished calls (core/deps.ts): the owner's window rows are recorded from it. */
  callFinished: Array<(callId: number) => void>;
  /** The core's hook of settled calls (core/deps.ts): a voicemail's "ring me back" is read from its transcript then. */
  callSettled: Array<(callId: number) => void>;
}

/**
 * Call-backs this core rings at once. Each is a whole conversation on an agent slot; the PBX's
 * admission says 'no-slot' when inbound callers need them, so this only bounds how many rows one
 * core holds as 'calling' at a time.
 */
const MAX_DIALS_AT_ONCE = 4;

/**
 * A call-back 'calling' for longer than this was left by a core that stopped mid-dial. Far longer
 * than any ring and conversation, as nothing else tells a lost dial from a long call on another
 * core; a row this core is still dialling is never released.
 */
export const STUCK_CALLING_MS = 4 * 3600_000;

/** What a sweep did with each call-back it claimed, for the log and the tests. */
export type SweepStep = { id: number; did: 'dialled' | 'postponed' | 'closed' | 'no-slot' };

const CLOSE_AS: Record<string, CloseAs> = {
  'owner-dealt': { state: 'done', doneBy: 'owner' },
  'tries-used': { state: 'no-answer', doneBy: 'agent' },
};
const CLOSED_BY_RULES: CloseAs = { state: 'cancelled', doneBy: 'agent' };

export class CallBackSweep {
  private dialler: CallBackDialler | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The sweep in progress: one at a time per core, a second waits for it. */
  private running: Promise<unknown> = Promise.resolve();
  /** The dials in progress on this core, by call-back id. */
  private readonly dials = new Map<number, Promise<void>>();
  private subscribed = false;

  constructor(private readonly deps: SweepDeps) {}

  /**
   * Sweeps every `everyMs` with this dialler, and records the owner's window rows of the calls
   * that finish here; without a dialler (no PBX, or no agent mode) nothing is claimed or recorded.
   */
  start(dialler: CallBackDialler | undefined, everyMs: number): boolean {
    if (!dialler || this.timer) return false;
    if (!this.subscribed) {
      this.subscribed = true;
      const { db, now, log } = this.deps;
      this.deps.callFinished.push((callId) => {
        // Only while dialling: a wish recorded on a core that will not ring would wait for nobody.
        if (this.dialler) void recordOwnerWindow(db, callId, now(), log).catch((err: unknown) => log.error({ callId, err: errorMessage(err) }, "owner's window call-back not recorded"));
      });
      this.deps.callSettled.push((callId) => {
        if (this.dialler) void recordVoicemailWish(this.deps, callId).catch((err: unknown) => log.error({ callId, err: errorMessage(err) }, "the voicemail's call-back not recorded"));
      });
    }
    this.dialler = dialler;
    this.timer = setInterval(() => void this.sweep().catch((err: unknown) => this.deps.log.error({ err: errorMessage(err) }, 'call-back sweep failed')), everyMs);
    this.timer.unref();
    return true;
  }

  /** Whether this core dials call-backs (it was started with a dialler). */
  get dialling(): boolean {
    return this.dialler !== undefined;
  }

  /** One pass: resolves once each claimed call-back is postponed, closed, or handed to the dialler (see settled()). */
  sweep(): Promise<SweepStep[]> {
    const next = this.running.then(() => this.pass());
    this.running = next.catch(() => undefined);
    return next;
  }

  /** Resolves when the dials in progress have ended and been recorded. */
  async settled(): Promise<void> {
    while (this.dials.size) await Promise.all([...this.dials.values()]);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.settled();
    this.dialler = undefined;
  }

  private async pass(): Promise<SweepStep[]> {
    const dialler = this.dialler;
    const room = MAX_DIALS_AT_ONCE - this.dials.size;
    if (!dialler || room <= 0) return [];
    const { db, now, log } = this.deps;
    const released = await releaseStuckCallBacks(db, now(), new Date(now().getTime() - STUCK_CALLING_MS), [...this.dials.keys()]);
    if (released.length) log.warn({ callBackIds: released }, 'call-backs left calling by a core that stopped: back to waiting, that dial counted as a failed try');
    const claimed = await claimDueCallBacks(db, now(), room);
    const steps: SweepStep[] = [];
    for (const row of claimed) {
      try {
        steps.push({ id: row.id, did: await this.decide(row, dialler) });
      } catch (err) {
        // Back to waiting shortly rather than stuck as 'calling': the next sweep reads the facts again.
        this.deps.log.error({ callBackId: row.id, err: errorMessage(err) }, 'call-back not dialled: reading its facts failed');
        await postponeCallBack(db, row.id, new Date(now().getTime() + this.deps.noSlotWaitMs), now());
        steps.push({ id: row.id, did: 'postponed' });
      }
    }
    return steps;
  }

  private async decide(row: CallBackRow, dialler: CallBackDialler): Promise<SweepStep['did']> {
    const { db, now, log, allow } = this.deps;
    const { facts, firstCall } = await gatherDialFacts(db, row, now(), allow);
    const verdict = mayDial(facts);
    if ('wait' in verdict) {
      await postponeCallBack(db, row.id, verdict.wait, now());
      log.info({ callBackId: row.id, until: verdict.wait, why: verdict.why }, 'call-back waits');
      return 'postponed';
    }
    if ('never' in verdict) {
      await closeCallBack(db, row.id, CLOSE_AS[verdict.never] ?? CLOSED_BY_RULES, now());
      log.info({ callBackId: row.id, why: verdict.never, detail: verdict.message }, 'call-back closed without a dial');
      return 'closed';
    }
    const from = await ownerDid(db, row.userId);
    if (!from) {
      // Presenting any other number would be a stranger ringing: nothing to ring from, nothing rung.
      await closeCallBack(db, row.id, CLOSED_BY_RULES, now());
      log.warn({ callBackId: row.id, userId: row.userId }, 'call-back closed: the business has no number of its own to ring from');
      return 'closed';
    }
    const dial = this.dial(row, dialler, facts, firstCall, from);
    this.dials.set(row.id, dial);
    void dial.finally(() => this.dials.delete(row.id));
    return 'dialled';
  }

  /** One try through the port, then its record and what follows it. Never throws. */
  private async dial(row: CallBackRow, dialler: CallBackDialler, facts: DialFacts, firstCall: FirstCall, from: string): Promise<void> {
    const { db, now, log } = this.deps;
    try {
      const { users } = tablesOf(db);
      const owner = (await db.select({ businessName: users.businessName }).from(users).where(eq(users.id, row.userId)).limit(1))[0];
      const at = now();
      let result: CallBackDialResult;
      try {
        const dial: CallBackDial = {
          callBackId: row.id, userId: row.userId, to: row.callerNumber, from, businessName: owner?.businessName ?? null,
          firstCallSummary: firstCall.summary, firstCallId: row.firstCallId, ...(firstCall.language ? { language: firstCall.language } : {}),
        };
        result = await dialler(dial);
      } catch (err) {
        log.warn({ callBackId: row.id, err: errorMessage(err) }, 'call-back dial failed in the PBX: treated as the link down');
        result = { placed: false, why: 'pbx-down' };
      }
      if (!result.placed) {
        const until = new Date(now().getTime() + this.deps.noSlotWaitMs);
        await postponeCallBack(db, row.id, until, now());
        log.info({ callBackId: row.id, why: result.why, until }, 'call-back not placed: it waits, no try counted');
        return;
      }
      const retryAt = retryTime(facts, at, result.outcome, now());
      const done = await recordCallBackTry(db, row.id, { outcome: result.outcome, at, callId: result.callId, retryAt }, now());
      if (!done) return;
      await afterTry(this.deps, { row: done, tryNumber: done.tries, outcome: result.outcome, from, callId: result.callId, retryAt: done.state === 'waiting' ? retryAt : null });
    } catch (err) {
      log.error({ callBackId: row.id, err: errorMessage(err) }, 'call-back try not recorded');
    }
  }
}

/**
 * When the next try is due after one that ended `outcome` (the rules asked again with this try
 * counted): 30 minutes after a first try nobody answered, moved to the opening if the business
 * has closed by then; null when there is none (answered, a machine, a second try, wrong number).
 */
function retryTime(facts: DialFacts, at: Date, outcome: TryOutcome, now: Date): Date | null {
  const verdict: DialVerdict = mayDial({
    ...facts,
    now,
    tries: facts.tries + 1,
    lastTry: { at, outcome },
    dials: { owner: [...facts.dials.owner, at], box: [...facts.dials.box, at] },
  });
  if ('wait' in verdict) return verdict.wait;
  return 'dial' in verdict ? now : null;
}
