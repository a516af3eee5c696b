import { afterEach, describe, expect, it, vi } from 'vitest';
import { EngineError } from '../engine-error.js';
import { admitAll, EnginePool, type EnginePoolOptions } from './engine-pool.js';

const pools: EnginePool[] = [];
function pool(endpoints: Array<[string, number]>, extra: Partial<EnginePoolOptions> = {}): EnginePool {
  const p = new EnginePool({ engine: 'ollama', endpoints: endpoints.map(([url, slots]) => ({ url, slots })), backoffMs: () => 1000, ...extra });
  pools.push(p);
  return p;
}
afterEach(() => {
  pools.splice(0).forEach((p) => p.close());
  vi.useRealTimers();
});

const down = () => new EngineError('Ollama is unreachable', true);
const inUse = (p: EnginePool) => p.stats().endpoints.map((e) => e.inUse);

describe('EnginePool: choosing an endpoint', () => {
  it('sends each request to the least busy healthy endpoint, by share of its slots', async () => {
    const p = pool([['a', 1], ['b', 4]]);
    const leases = [];
    for (let i = 0; i < 4; i++) leases.push(await p.acquire('live'));
    // a wins the tie at 0; then b's share (1/4, 2/4, 3/4) stays below a's 1/1.
    expect(leases.map((l) => l.url).sort()).toEqual(['a', 'b', 'b', 'b']);
    expect(inUse(p)).toEqual([1, 3]);
  });

  it('queues beyond the slots and grants in arrival order as slots free', async () => {
    const p = pool([['a', 1]]);
    const first = await p.acquire('live');
    const order: string[] = [];
    const second = p.acquire('live').then((l) => (order.push('second'), l));
    const third = p.acquire('live').then((l) => (order.push('third'), l));
    expect(p.stats().waiting.live).toBe(2);
    first.done();
    (await second).done();
    (await third).done();
    expect(order).toEqual(['second', 'third']);
  });

  it('serves a waiting live request before a background one that came first', async () => {
    const p = pool([['a', 1]]);
    const busy = await p.acquire('live');
    const order: string[] = [];
    const bg = p.acquire('background').then((l) => (order.push('background'), l.done()));
    const live = p.acquire('live').then((l) => (order.push('live'), l.done()));
    busy.done();
    await Promise.all([bg, live]);
    expect(order).toEqual(['live', 'background']);
  });

  it('gives up waiting when the caller cancels, leaving the queue empty', async () => {
    const p = pool([['a', 1]]);
    await p.acquire('live');
    const stop = new AbortController();
    const waiting = p.acquire('live', stop.signal);
    stop.abort(new Error('caller hung up'));
    await expect(waiting).rejects.toThrow('caller hung up');
    expect(p.stats().waiting.live).toBe(0);
  });
});

describe('EnginePool: live conversations first', () => {
  it('keeps a background request off the slot an admitted conversation may need', async () => {
    const p = pool([['a', 2]]);
    const conversation = p.admit()!;
    // One slot is owed to the conversation, one is free for a summary.
    const summary = await p.acquire('background');
    let second = false;
    const next = p.acquire('background').then((l) => ((second = true), l));
    await Promise.resolve();
    expect(second).toBe(false);
    // The conversation's own request still finds its slot at once.
    const turn = await p.acquire('live');
    expect(turn.url).toBe('a');
    turn.done();
    summary.done();
    expect(second).toBe(false); // still owed to the conversation
    conversation.release();
    (await next).done();
    expect(second).toBe(true);
  });

  it('admits conversations up to the healthy slots, refuses the next, and counts the refusal', () => {
    const p = pool([['a', 2], ['b', 1]]);
    const admitted = [p.admit(), p.admit(), p.admit()];
    expect(admitted.every(Boolean)).toBe(true);
    expect(p.admit()).toBeNull();
    expect(p.stats().refusals).toBe(1);
    admitted[0]!.release();
    admitted[0]!.release(); // idempotent
    expect(p.stats().conversations).toBe(2);
    expect(p.admit()).not.toBeNull();
  });

  it('admits several conversations per slot for an engine a turn uses briefly, and still keeps their slot from background work', async () => {
    const p = pool([['w', 1]], { callsPerSlot: 4 });
    const admitted = [1, 2, 3, 4].map(() => p.admit());
    expect(admitted.every(Boolean)).toBe(true);
    expect(p.admit()).toBeNull();
    let summarised = false;
    const summary = p.acquire('background').then((l) => ((summarised = true), l));
    await Promise.resolve();
    expect(summarised).toBe(false);
    admitted.forEach((a) => a!.release());
    (await summary).done();
    expect(summarised).toBe(true);
  });

  it('admitAll holds no claim on any pool when one of them is full', () => {
    const llm = pool([['a', 2]]);
    const stt = new EnginePool({ engine: 'whisper', endpoints: [{ url: 'w', slots: 1 }], backoffMs: () => 1000 });
    pools.push(stt);
    const first = admitAll([llm, stt]);
    expect(first).not.toBeNull();
    expect(admitAll([llm, stt])).toBeNull();
    expect(llm.stats().conversations).toBe(1);
    first!.release();
    expect([llm.stats().conversations, stt.stats().conversations]).toEqual([0, 0]);
  });

  /**
   * A one-slot engine busy with a background request (a website page's drafts) when a caller's
   * turn arrives: the background request run() holds is stopped and the turn served first, the
   * background request then run again; without `preemptBackground` the turn waits for it.
   */
  function slowBackground(p: EnginePool, order: string[]) {
    let finishFirst = () => {};
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    let attempts = 0;
    const result = p.run('background', (_url, signal) =>
      new Promise<string>((resolve, reject) => {
        attempts++;
        if (attempts > 1) return order.push('background again'), resolve('again');
        signal?.addEventListener('abort', () => reject(signal.reason));
        finishFirst = () => {
          if (signal?.aborted) return;
          order.push('background first try');
          resolve('first');
        };
        markStarted();
      }),
    );
    return { started, finish: () => finishFirst(), result };
  }

  it('serves a live request before a background one already holding the only slot, which then runs again (preemptBackground)', async () => {
    const p = pool([['a', 1]], { preemptBackground: true });
    const order: string[] = [];
    const bg = slowBackground(p, order);
    await bg.started;
    const live = p.acquire('live').then((l) => (order.push('live'), l));
    bg.finish(); // the draft would have finished now, had it not been stopped
    (await live).done();
    expect(await bg.result).toBe('again');
    expect(order).toEqual(['live', 'background again']);
    // Stopped for a caller is not the endpoint's fault.
    expect(p.stats().endpoints[0]).toMatchObject({ healthy: true, faults: 0 });
  });

  it('without preemptBackground, a live request waits for the background one in flight', async () => {
    const p = pool([['a', 1]]);
    const order: string[] = [];
    const bg = slowBackground(p, order);
    await bg.started;
    const live = p.acquire('live').then((l) => (order.push('live'), l));
    bg.finish();
    (await live).done();
    expect(await bg.result).toBe('first');
    expect(order).toEqual(['background first try', 'live']);
  });
});

describe('EnginePool: faults and probes', () => {
  it('takes a failing endpoint out, retries the request on the other, and refuses conversations beyond what is left', async () => {
    const p = pool([['a', 2], ['b', 2]]);
    const tried: string[] = [];
    const answer = await p.run('live', async (url) => {
      tried.push(url);
      if (url === 'a') throw down();
      return `answered by ${url}`;
    });
    expect(answer).toBe('answered by b');
    expect(tried).toEqual(['a', 'b']);
    expect(p.stats().endpoints.map((e) => [e.url, e.healthy, e.faults])).toEqual([
      ['a', false, 1],
      ['b', true, 0],
    ]);
    expect(p.capacity()).toBe(2);
    expect(p.admit()).not.toBeNull();
    expect(p.admit()).not.toBeNull();
    expect(p.admit()).toBeNull();
  });

  it('does not retry or take out an endpoint for an error that is the request’s own', async () => {
    const p = pool([['a', 1], ['b', 1]]);
    const rejected = new EngineError('Ollama answered 404: model not found', false, 404);
    let calls = 0;
    await expect(p.run('background', async () => (calls++, Promise.reject(rejected)))).rejects.toBe(rejected);
    expect(calls).toBe(1);
    expect(p.capacity()).toBe(2);
  });

  it('keeps the last healthy endpoint in: a lone server that failed a request is still tried for the next', async () => {
    const p = pool([['a', 1], ['b', 1]]);
    (await p.acquire('live')).done(down()); // a out
    (await p.acquire('live')).done(down()); // b failed too, but it is all there is
    expect(p.stats().endpoints.map((e) => [e.url, e.healthy, e.failures])).toEqual([
      ['a', false, 1],
      ['b', true, 1],
    ]);
    const next = await p.acquire('live');
    expect(next.url).toBe('b');
    next.done();
    expect(p.stats().endpoints[1]!.failures).toBe(0);
  });

  it('probes an endpoint back in after the back-off, waiting longer after each failed probe', async () => {
    vi.useFakeTimers();
    const waits: number[] = [];
    let answering = false;
    const p = pool([['a', 1], ['b', 1]], {
      backoffMs: (n) => (waits.push(n), 1000 * 2 ** (n - 1)),
      probe: async () => answering,
    });
    (await p.acquire('live')).done(down());
    const a = () => p.stats().endpoints[0]!;
    expect(a().healthy).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(a().healthy).toBe(false);
    answering = true;
    await vi.advanceTimersByTimeAsync(2000);
    expect(a().healthy).toBe(true);
    expect(waits).toEqual([1, 2]);
    // Its first good answer clears the record.
    const lease = await p.acquire('live');
    expect(lease.url).toBe('a');
    lease.done();
    expect(a().failures).toBe(0);
  });
});
