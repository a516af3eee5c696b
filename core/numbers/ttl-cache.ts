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
