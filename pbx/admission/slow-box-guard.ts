import type { Log } from '../../contract/log.js';
import type { AgentGuardReports } from '../../core/ports/pbx-host.js';
import { SLOW_BOX_DEFAULTS, SlowBoxRule } from './slow-box-rule.js';

/** The node's slow-box guard as the agent flow uses it: the rule (slow-box-rule.ts), its log lines, and its reports to the core (who is told, the admin API). */
export interface SlowBoxGuard {
  /** A turn's end of speech → first audio (TurnMetrics.totalMs), from any agent call on this node. */
  record(totalMs: number): void;
  /** Whether this owner's new agent-mode call gets the assistant (false: voicemail mode with the owner's greeting; the owner is reported as affected). */
  admitNew(ownerId: number): boolean;
  readonly closed: boolean;
}

export function createSlowBoxGuard(opts: { p50LimitMs: number; trialEvery: number; log: Pick<Log, 'warn' | 'info'>; reports?: AgentGuardReports }): SlowBoxGuard {
  const rule = new SlowBoxRule({ ...SLOW_BOX_DEFAULTS, limitMs: opts.p50LimitMs, trialEvery: opts.trialEvery });
  return {
    record(totalMs) {
      const p50Before = rule.p50();
      const change = rule.record(totalMs);
      if (change === 'closed') {
        // The window is emptied on closing; the p50 that closed it is the one before, with this turn.
        const p50 = Math.max(p50Before, totalMs);
        opts.log.warn({ p50Ms: Math.round(p50), limitMs: opts.p50LimitMs }, `the assistant is too slow on this box (half of the last ${SLOW_BOX_DEFAULTS.windowTurns} answers took over ${opts.p50LimitMs} ms to start): new agent-mode calls are answered in voicemail mode until it recovers`);
        opts.reports?.closed(p50, SLOW_BOX_DEFAULTS.windowTurns);
      } else if (change === 'opened') {
        opts.log.info({ p50Ms: Math.round(rule.p50()) }, 'the assistant answers in time again: agent mode is back for new calls');
        opts.reports?.opened(rule.p50());
      }
    },
    admitNew(ownerId) {
      if (rule.admitNew()) return true;
      opts.reports?.turnedAway(ownerId);
      return false;
    },
    get closed() {
      return rule.closed;
    },
  };
}
