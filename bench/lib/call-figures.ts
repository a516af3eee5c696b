// The figures of one batch of calls on a RealNode (bench/lib/real-node.ts), from what each
// side saw: SIPp's own clock for INVITE → final answer, the ARI proxy's log for the core's part
// and for how many calls were in progress at once, the accounting for what was kept, /proc for
// CPU. Shared by the real-PBX voicemail benches so each figure is computed one way.
import type { TapEntry } from '../../test/pbx-real/ari-tap.js';
import type { CallAccount, RealNode } from './real-node.js';
import { percentile } from './report.js';

/** An answer later than this is late: the caller hears ringing for seconds (issue 30's knee). */
export const LATE_ANSWER_MS = 2000;
/** A refusal must come at once, so the carrier or Kamailio fails over while the caller waits. */
export const PROMPT_REFUSAL_MS = 100;

export interface CallFigures {
  calls: number;
  answered: number;
  refused: number;
  neverAnswered: number;
  /** INVITE → 200 OK, ms, per answered call (SIPp's clock). */
  inviteTo200: number[];
  /** INVITE → 503, ms, per refused call (SIPp's clock). */
  inviteTo503: number[];
  /** Answers later than LATE_ANSWER_MS. */
  late: number;
  /** StasisStart → the core's answer request, ms (the core's part, at the ARI proxy). */
  answerMs: number[];
  /** Most answered calls in progress at once (StasisStart → StasisEnd at the proxy). */
  peakInProgress: number;
  /** Mean StasisStart → StasisEnd of the answered calls, s: how long a call lasted. */
  meanCallSeconds: number;
  stored: number;
  lost: number;
  /** Answered, yet the caller heard no greeting (nothing to speak after). */
  noGreeting: number;
  /** Stored messages texted to the owner exactly once / more than once. */
  textedOnce: number;
  textedTwice: number;
  /** CPU ms per call placed: Asterisk, the core, SIPp, and this process (callers' audio, ARI proxy). */
  cpuPerCallMs: { asterisk: number; core: number; sipp: number; bench: number };
  /** Asterisk's threads woken per call placed, and its CPU µs per wake-up (bench/lib/thread-wakeups.ts). */
  asteriskWakeUpsPerCall: number;
  asteriskUsPerWakeUp: number;
  /** The longest the process carrying the callers' audio was held up (event-loop delay), ms. */
  callersLongestStallMs: number;
}

export function callFigures(result: Awaited<ReturnType<RealNode['call']>>, accounts: CallAccount[], tapLog: TapEntry[]): CallFigures {
  const n = result.specs.length;
  const sig = result.sipp.signalling;
  const inviteTo200 = sig.filter((s) => s.final === 200).map((s) => s.inviteToFinalMs!);
  const inviteTo503 = sig.filter((s) => s.final === 503).map((s) => s.inviteToFinalMs!);
  const answerRequested = new Map<string, number>();
  for (const e of tapLog) if (e.kind === 'request' && e.what === 'POST /channels/{id}/answer' && e.channel && !answerRequested.has(e.channel)) answerRequested.set(e.channel, e.at);
  const answerMs: number[] = [];
  const began = new Map<string, number>();
  const lengths: number[] = [];
  let inProgress = 0;
  let peakInProgress = 0;
  for (const e of tapLog) {
    // Calls the core answered: one it refused (admission) passes through Stasis unanswered.
    if (e.kind !== 'event' || !e.channel || !answerRequested.has(e.channel)) continue;
    if (e.what === 'StasisStart' && !began.has(e.channel)) {
      began.set(e.channel, e.at);
      peakInProgress = Math.max(peakInProgress, ++inProgress);
      const answered = answerRequested.get(e.channel);
      if (answered !== undefined) answerMs.push(answered - e.at);
    } else if (e.what === 'StasisEnd' && began.has(e.channel)) {
      inProgress--;
      lengths.push((e.at - began.get(e.channel)!) / 1000);
    }
  }
  const count = (v: CallAccount['verdict']) => accounts.filter((a) => a.verdict === v).length;
  const perCall = (s: number) => (s / Math.max(1, n)) * 1000;
  return {
    calls: n,
    answered: inviteTo200.length,
    refused: inviteTo503.length,
    neverAnswered: n - inviteTo200.length - inviteTo503.length,
    inviteTo200,
    inviteTo503,
    late: inviteTo200.filter((ms) => ms > LATE_ANSWER_MS).length,
    answerMs,
    peakInProgress,
    meanCallSeconds: lengths.length ? lengths.reduce((a, b) => a + b, 0) / lengths.length : NaN,
    stored: count('stored'),
    lost: count('LOST MESSAGE'),
    noGreeting: count('no greeting heard'),
    textedOnce: accounts.filter((a) => a.verdict === 'stored' && a.texts === 1).length,
    textedTwice: accounts.filter((a) => a.texts > 1).length,
    cpuPerCallMs: { asterisk: perCall(result.cpu.asterisk), core: perCall(result.cpu.core), sipp: perCall(result.cpu.sipp), bench: perCall(result.cpu.bench) },
    asteriskWakeUpsPerCall: result.asteriskWakeUps / Math.max(1, n),
    asteriskUsPerWakeUp: (result.cpu.asterisk * 1e6) / Math.max(1, result.asteriskWakeUps),
    callersLongestStallMs: result.callersLongestStallMs,
  };
}

/** "p50 / p95 / max" of a sample, in whole ms; "-" when empty. */
export function spread(ms: number[], digits = 0): string {
  if (!ms.length) return '-';
  return `${percentile(ms, 50).toFixed(digits)} / ${percentile(ms, 95).toFixed(digits)} / ${Math.max(...ms).toFixed(digits)}`;
}
