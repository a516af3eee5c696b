import { afterEach, describe, expect, it } from 'vitest';
import { EnginePool } from '../pool/engine-pool.js';
import { LanguageModelError, type ReplyStreamer } from './language-model.js';
import { pooledReplyStreamer } from './pooled.js';

const pools: EnginePool[] = [];
afterEach(() => pools.splice(0).forEach((p) => p.close()));

function twoHosts(): EnginePool {
  const p = new EnginePool({ engine: 'ollama', endpoints: [{ url: 'a', slots: 1 }, { url: 'b', slots: 1 }], backoffMs: () => 60_000 });
  pools.push(p);
  return p;
}

/** A streamer per host: `dead` hosts fail after `after` pieces. */
function hosts(dead: Record<string, number>): (host: string) => ReplyStreamer {
  return (host) => ({
    name: `fake ${host}`,
    async *stream() {
      const failAfter = dead[host];
      for (let i = 0; i < 3; i++) {
        if (failAfter === i) throw new LanguageModelError(`${host} is unreachable`, true);
        yield `${host}${i} `;
      }
    },
  });
}

async function collect(s: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const piece of s) out += piece;
  return out;
}

describe('pooledReplyStreamer', () => {
  it('moves a turn whose endpoint fails before its first piece to the other endpoint, and takes the dead one out', async () => {
    const pool = twoHosts();
    const streamer = pooledReplyStreamer(pool, 'live', hosts({ a: 0 }));
    expect(await collect(streamer.stream([]))).toBe('b0 b1 b2 ');
    expect(pool.stats().endpoints.map((e) => e.healthy)).toEqual([false, true]);
    // The next turn goes straight to the live endpoint.
    expect(await collect(streamer.stream([]))).toBe('b0 b1 b2 ');
    expect(pool.stats().endpoints.map((e) => e.inUse)).toEqual([0, 0]);
  });

  it('does not replay a reply already under way: the failure is the turn’s', async () => {
    const pool = twoHosts();
    const streamer = pooledReplyStreamer(pool, 'live', hosts({ a: 1 }));
    const heard: string[] = [];
    await expect(
      (async () => {
        for await (const piece of streamer.stream([])) heard.push(piece);
      })(),
    ).rejects.toThrow('a is unreachable');
    expect(heard).toEqual(['a0 ']);
    expect(pool.stats().endpoints.map((e) => [e.healthy, e.inUse])).toEqual([
      [false, 0],
      [true, 0],
    ]);
  });

  it('gives the slot back when the listener stops early (barge-in)', async () => {
    const pool = twoHosts();
    const streamer = pooledReplyStreamer(pool, 'live', hosts({}));
    for await (const piece of streamer.stream([])) {
      expect(piece).toBe('a0 ');
      break;
    }
    expect(pool.stats().endpoints.map((e) => [e.healthy, e.inUse])).toEqual([
      [true, 0],
      [true, 0],
    ]);
  });
});
