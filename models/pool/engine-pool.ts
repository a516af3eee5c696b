import { EngineError } from '../engine-error.js';

/**
 * Who is asking: a caller waiting on the line (`live`), or the post-call pipeline
 * (`background`), which may wait minutes without anyone noticing.
 */
export type Priority = 'live' | 'background';

interface PoolEndpointConfig {
  url: string;
  /** Requests this endpoint serves at once (Ollama's OLLAMA_NUM_PARALLEL, whisper-server's parallel workers). */
  slots: number;
}

export interface EnginePoolOptions {
  /** 'ollama', 'whisper', 'tts': names the pool in errors and metrics. */
  engine: string;
  endpoints: PoolEndpointConfig[];
  /**
   * Conversations one slot serves within the latency budget (default 1): 1 for a language
   * model, whose reply holds the slot for most of a turn; more for an engine a turn uses
   * only briefly (a caller's few seconds of speech transcribe in a fraction of a second).
   */
  callsPerSlot?: number;
  /**
   * Background work never takes the last free slot when there are several (the speech engine:
   * a caller waits at most for another call's sentence, never behind previews). Off for a
   * one-slot engine, whose background work (transcribing messages) must still run.
   */
  keepLastSlotForLive?: boolean;
  /**
   * A live request that finds every slot taken stops a background request run() holds (its
   * work's signal aborts) and takes its slot; the background request runs again afterwards.
   * For the language model, whose background requests (a website page's drafts, a summary) hold
   * a slot many times longer than a caller's turn: on a one-slot engine a caller would otherwise
   * wait for the whole of one (bench/website-crawl.ts).
   */
  preemptBackground?: boolean;
  /**
   * The wait before an endpoint taken out is probed again, after `failures` failures in a row.
   * The project's one back-off (core/pipeline/backoff.ts), handed in: models/ does not import core/.
   */
  backoffMs(failures: number): number;
  /** Whether an endpoint taken out answers again; without it the endpoint is tried again once the back-off passed. */
  probe?(url: string): Promise<boolean>;
  /** Whether a failure is the endpoint's (down, stalled, overloaded) rather than the request's. */
  isEndpointFault?(err: unknown): boolean;
  now?: () => number;
}

/** One endpoint's figures, for metrics and /healthz. */
interface EndpointStats {
  url: string;
  slots: number;
  inUse: number;
  healthy: boolean;
  /** Failures in a row (0 when healthy). */
  failures: number;
  /** Requests it failed, ever: each took it out of the pool. */
  faults: number;
  served: number;
  /**
   * Whether it answered the last request or check it was asked (null: not asked yet). "In the
   * pool" is only where requests go; this is what the Line Status card calls up (issue 57).
   */
  answered: boolean | null;
}

export interface PoolStats {
  engine: string;
  endpoints: EndpointStats[];
  /** Whether its endpoints can be checked without a request (a network engine's probe). */
  checkable: boolean;
  waiting: Record<Priority, number>;
  conversations: number;
  /** Conversations this pool refused (admit() returned null), ever. */
  refusals: number;
  /** Requests that had to wait for a slot, and their waits summed, ever (the metrics' summary). */
  waited: Record<Priority, { count: number; seconds: number }>;
}

/** A slot on one endpoint; `done` gives it back, with the error if the request failed. */
export interface Lease {
  readonly url: string;
  done(err?: unknown): void;
}

/** A conversation's claim on one slot for as long as it lasts; `release` is idempotent. */
export interface Admission {
  release(): void;
}

interface Endpoint extends EndpointStats {
  retryTimer?: NodeJS.Timeout;
}

interface Waiter {
  priority: Priority;
  since: number;
  grant(lease: Lease): void;
  fail(err: unknown): void;
}

const defaultFault = (err: unknown) => err instanceof EngineError && err.retryable;

/**
 * Several endpoints of one engine behind slots. A request takes a slot on the least busy
 * healthy endpoint, or waits its turn (live requests before background ones). An endpoint
 * whose request fails with a fault of its own is taken out and probed back in after the
 * back-off. Admitted conversations each hold a claim on one slot: background work only
 * takes a slot that no admitted conversation could need, so a summary never makes a caller
 * wait; and a new conversation is admitted only while every admitted one still has its slot.
 */
export class EnginePool {
  readonly engine: string;
  private readonly endpoints: Endpoint[];
  private readonly queue: Waiter[] = [];
  private readonly now: () => number;
  private conversations = 0;
  /** Slots held by live requests right now (each belongs to an admitted conversation, or a preview). */
  private liveInFlight = 0;
  private refusals = 0;
  private readonly waited: PoolStats['waited'] = { live: { count: 0, seconds: 0 }, background: { count: 0, seconds: 0 } };
  private closed = false;
  private readonly callsPerSlot: number;
  /** Background requests run() holds a slot for that a waiting live request may stop (preemptBackground). */
  private readonly preemptible = new Set<AbortController>();

  constructor(private readonly opts: EnginePoolOptions) {
    if (opts.endpoints.length === 0) throw new Error(`the ${opts.engine} pool needs at least one endpoint`);
    this.engine = opts.engine;
    this.now = opts.now ?? Date.now;
    this.callsPerSlot = opts.callsPerSlot ?? 1;
    this.endpoints = opts.endpoints.map((e) => ({ url: e.url, slots: e.slots, inUse: 0, healthy: true, failures: 0, faults: 0, served: 0, answered: null }));
  }

  /** Slots on healthy endpoints. */
  capacity(): number {
    return this.endpoints.reduce((n, e) => n + (e.healthy ? e.slots : 0), 0);
  }

  /** Conversations the healthy endpoints serve at once within the latency budget. */
  conversationCapacity(): number {
    return this.capacity() * this.callsPerSlot;
  }

  /**
   * Claims a slot for a new conversation, or null when the admitted ones already take every
   * healthy slot. Counters only: no I/O, so the decision is immediate.
   */
  admit(): Admission | null {
    if (this.conversations >= this.conversationCapacity()) {
      this.refusals++;
      return null;
    }
    this.conversations++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.conversations--;
        this.schedule();
      },
    };
  }

  /** A slot for one request: at once when one is free, else in turn; `signal` gives up waiting. */
  acquire(priority: Priority, signal?: AbortSignal): Promise<Lease> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // Nobody ahead of it: a live request only queues behind live ones, a background one behind any.
    const ahead = priority === 'live' ? this.queue.some((w) => w.priority === 'live') : this.queue.length > 0;
    const endpoint = ahead ? undefined : this.pick(priority);
    if (endpoint) return Promise.resolve(this.lease(endpoint, priority));
    return new Promise<Lease>((resolve, reject) => {
      const onAbort = () => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        priority,
        since: this.now(),
        grant: (lease) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(lease);
        },
        fail: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      if (priority === 'live') this.preemptOne();
    });
  }

  /** Stops the newest background request in flight that may be stopped (it has done the least work). */
  private preemptOne(): void {
    const last = [...this.preemptible].at(-1);
    if (!last) return;
    this.preemptible.delete(last);
    last.abort(new EngineError(`a live request took this ${this.engine} slot; the background request runs again`, true));
  }

  /**
   * Runs `work` on a slot; when the endpoint fails it, on another healthy endpoint, at most
   * once per endpoint. Errors that are the request's own (or the caller's cancel) are not retried.
   */
  async run<T>(priority: Priority, work: (url: string, signal?: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const lease = await this.acquire(priority, signal);
      const stop = priority === 'background' && this.opts.preemptBackground ? new AbortController() : undefined;
      if (stop) this.preemptible.add(stop);
      try {
        const result = await work(lease.url, stop ? (signal ? AbortSignal.any([signal, stop.signal]) : stop.signal) : signal);
        lease.done();
        return result;
      } catch (err) {
        if (stop?.signal.aborted && !signal?.aborted && !this.closed) {
          // Stopped for a live request: not the endpoint's fault, and not an attempt used up.
          lease.done();
          attempt--;
          continue;
        }
        const fault = !signal?.aborted && this.isFault(err);
        lease.done(fault ? err : undefined);
        if (!fault || attempt >= this.endpoints.length) throw err;
      } finally {
        if (stop) this.preemptible.delete(stop);
      }
    }
  }

  /** Whether `err` takes an endpoint out (the pool's rule, for callers that hold a lease themselves). */
  isFault(err: unknown): boolean {
    return (this.opts.isEndpointFault ?? defaultFault)(err);
  }

  stats(): PoolStats {
    const waiting = { live: 0, background: 0 };
    for (const w of this.queue) waiting[w.priority]++;
    return {
      engine: this.engine,
      endpoints: this.endpoints.map(({ url, slots, inUse, healthy, failures, faults, served, answered }) => ({ url, slots, inUse, healthy, failures, faults, served, answered })),
      checkable: Boolean(this.opts.probe),
      waiting,
      conversations: this.conversations,
      refusals: this.refusals,
      waited: { live: { ...this.waited.live }, background: { ...this.waited.background } },
    };
  }

  /**
   * Asks every endpoint once whether it answers (the probe), so the status says what the engine
   * did and not what the pool assumes; where requests go does not change. Nothing without a probe.
   */
  async check(): Promise<void> {
    const { probe } = this.opts;
    if (!probe) return;
    await Promise.all(
      this.endpoints.map(async (e) => {
        e.answered = await probe(e.url).catch(() => false);
      }),
    );
  }

  close(): void {
    this.closed = true;
    for (const e of this.endpoints) clearTimeout(e.retryTimer);
    for (const w of this.queue.splice(0)) w.fail(new EngineError(`the ${this.engine} pool is closing`, true));
  }

  /** The least busy healthy endpoint with a free slot that `priority` may take, if any. */
  private pick(priority: Priority): Endpoint | undefined {
    const open = this.endpoints.filter((e) => e.healthy && e.inUse < e.slots);
    if (open.length === 0) return undefined;
    if (priority === 'background') {
      const free = open.reduce((n, e) => n + (e.slots - e.inUse), 0);
      // Admitted conversations not in a request right now may start one at any moment.
      const owed = Math.max(0, Math.ceil(this.conversations / this.callsPerSlot) - this.liveInFlight);
      const total = this.endpoints.reduce((n, e) => n + (e.healthy ? e.slots : 0), 0);
      const reserved = this.opts.keepLastSlotForLive && total > 1 ? 1 : 0;
      if (free - 1 < Math.max(owed, reserved)) return undefined;
    }
    return open.reduce((best, e) => (e.inUse / e.slots < best.inUse / best.slots ? e : best));
  }

  private lease(endpoint: Endpoint, priority: Priority): Lease {
    endpoint.inUse++;
    if (priority === 'live') this.liveInFlight++;
    let done = false;
    return {
      url: endpoint.url,
      done: (err?: unknown) => {
        if (done) return;
        done = true;
        endpoint.inUse--;
        if (priority === 'live') this.liveInFlight--;
        if (err === undefined) {
          endpoint.served++;
          endpoint.answered = true;
          if (endpoint.healthy) endpoint.failures = 0;
        } else this.takeOut(endpoint);
        this.schedule();
      },
    };
  }

  /** Grants waiting requests what is free now: every live one first, then background ones, in arrival order. */
  private schedule(): void {
    for (const priority of ['live', 'background'] as const) {
      for (let i = 0; i < this.queue.length; ) {
        const w = this.queue[i]!;
        if (w.priority !== priority) {
          i++;
          continue;
        }
        const endpoint = this.pick(priority);
        if (!endpoint) break;
        this.queue.splice(i, 1);
        this.waited[priority].count++;
        this.waited[priority].seconds += (this.now() - w.since) / 1000;
        w.grant(this.lease(endpoint, priority));
      }
      // A live request still waiting keeps background ones waiting too.
      if (priority === 'live' && this.queue.some((w) => w.priority === 'live')) return;
    }
  }

  private takeOut(endpoint: Endpoint): void {
    endpoint.faults++;
    endpoint.answered = false;
    if (!endpoint.healthy) return; // already out: its probe is scheduled
    endpoint.failures++;
    // The last one stays in: with nowhere better to send a request, trying it (a crashed
    // Ollama runner restarts on the next request) beats refusing every caller until a probe.
    if (!this.endpoints.some((e) => e !== endpoint && e.healthy)) return;
    endpoint.healthy = false;
    this.retryLater(endpoint);
  }

  private retryLater(endpoint: Endpoint): void {
    if (this.closed) return;
    endpoint.retryTimer = setTimeout(() => void this.probe(endpoint), this.opts.backoffMs(endpoint.failures));
    endpoint.retryTimer.unref();
  }

  private async probe(endpoint: Endpoint): Promise<void> {
    const up = this.opts.probe ? await this.opts.probe(endpoint.url).catch(() => false) : true;
    if (this.closed) return;
    endpoint.answered = up;
    if (!up) {
      endpoint.failures++;
      return this.retryLater(endpoint);
    }
    // Back in; `failures` stays until a request succeeds, so a flapping endpoint waits longer each time.
    endpoint.healthy = true;
    this.schedule();
  }
}

/**
 * One claim on every pool a conversation needs, or null (and no claim on any) when one of
 * them is full.
 */
export function admitAll(pools: EnginePool[]): Admission | null {
  const held: Admission[] = [];
  for (const pool of pools) {
    const a = pool.admit();
    if (!a) {
      for (const h of held) h.release();
      return null;
    }
    held.push(a);
  }
  return { release: () => held.forEach((h) => h.release()) };
}
