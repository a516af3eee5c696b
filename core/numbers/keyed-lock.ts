/**
 * One-at-a-time per key inside this process: a second purchase click by the same owner waits for
 * the first to finish and then sees its result, instead of buying a second number in parallel.
 * (The database check inside the assignment transaction is the backstop across processes.)
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      done();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work queued or running (for tests). */
  get size(): number {
    return this.tails.size;
  }
}

/**
 * Keeps one value for `ttlMs` and shares a load in flight, so the console's refreshes (and several
 * admins) do not each hit the provider. Failures are not cached.
 */
export class TtlCache<T> {
  private value: { at: number; v: T } | undefined;
  private inflight: Promise<T> | undefined;

  constructor(
    private readonly ttlMs: number,
    private readonly clock: () => Date,
  ) {}

  get(load: () => Promise<T>): Promise<T> {
    const now = this.clock().getTime();
    if (this.value && now - this.value.at < this.ttlMs) return Promise.resolve(this.value.v);
    this.inflight ??= load()
      .then((v) => {
        this.value = { at: this.clock().getTime(), v };
        return v;
      })
      .finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  clear(): void {
    this.value = undefined;
  }
}
