/** What the core looks at before it answers a new call. */
export interface NodeLoad {
  /** Calls the core is handling now (answered or being answered). */
  activeCalls: number;
  /** The event loop's recent delay (p99 of the last second), in ms. */
  loopLagMs: number;
  /** Post-call jobs waiting to run. */
  jobsWaiting: number;
}

/** The limits past which a new caller is refused before answering; 0 turns one off. */
export interface AdmissionLimits {
  maxCalls: number;
  maxLoopLagMs: number;
  maxJobsWaiting: number;
}

/**
 * Whether a new call may be answered. A node past its knee answers seconds late and risks
 * what callers say; refusing before the answer (SIP 503) lets the carrier or Kamailio try
 * another node or take its own message. Calls already answered are never affected.
 * Returns why the call is refused, or undefined to answer it.
 */
export function refusalReason(load: NodeLoad, limits: AdmissionLimits): string | undefined {
  if (limits.maxCalls > 0 && load.activeCalls >= limits.maxCalls) return `${load.activeCalls} calls in progress (limit ${limits.maxCalls})`;
  if (limits.maxLoopLagMs > 0 && load.loopLagMs > limits.maxLoopLagMs) return `event loop ${Math.round(load.loopLagMs)} ms behind (limit ${limits.maxLoopLagMs} ms)`;
  if (limits.maxJobsWaiting > 0 && load.jobsWaiting >= limits.maxJobsWaiting) return `${load.jobsWaiting} post-call jobs waiting (limit ${limits.maxJobsWaiting})`;
  return undefined;
}
