// What a queue hands a worker and takes from a caller.

/** A job as a worker holds it: `attempt` is this run's number (1-based) and doubles as the fencing token. */
export interface ClaimedJob {
  id: number;
  kind: string;
  key: string;
  payload: Record<string, unknown>;
  attempt: number;
  maxAttempts: number;
}

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
}
