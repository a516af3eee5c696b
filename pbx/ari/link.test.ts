import { describe, expect, it, vi } from 'vitest';
import type { AriConnection, AriConnectionEvents } from './ari-client-adapter.js';
import { AriLink } from './link.js';
import type { AriRest } from './types.js';

const quietLog = { info: () => undefined, warn: () => undefined };

function fakeConnection(): AriConnection & { closed: boolean } {
  const conn = { closed: false, rest: { answer: async () => undefined } as unknown as AriRest, close: () => void (conn.closed = true) };
  return conn;
}

describe('AriLink', () => {
  it('keeps trying with a bounded back-off until Asterisk answers, then reports ready once', async () => {
    const attempts: number[] = [];
    const ready: boolean[] = [];
    const link = new AriLink({
      connect: async () => {
        attempts.push(Date.now());
        if (attempts.length < 5) throw new Error('ECONNREFUSED');
        return fakeConnection();
      },
      onEvent: () => undefined,
      onReady: ({ first }) => ready.push(first),
      log: quietLog,
      backoff: { baseMs: 10, maxMs: 40 },
    });
    link.start();
    await vi.waitFor(() => expect(link.state).toBe('connected'));
    expect(ready).toEqual([true]);
    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
    expect(gaps.every((g) => g < 200)).toBe(true); // capped near 40 ms, never growing without bound
    link.stop();
    expect(link.state).toBe('stopped');
  });

  it('starts a fresh connection when ari-client gives up, and reconciles again', async () => {
    const conns: Array<{ conn: ReturnType<typeof fakeConnection>; events: AriConnectionEvents }> = [];
    const ready: boolean[] = [];
    const link = new AriLink({
      connect: async (events) => {
        const conn = fakeConnection();
        conns.push({ conn, events });
        return conn;
      },
      onEvent: () => undefined,
      onReady: ({ first }) => ready.push(first),
      log: quietLog,
      backoff: { baseMs: 5, maxMs: 20 },
    });
    link.start();
    await vi.waitFor(() => expect(link.state).toBe('connected'));
    conns[0]!.events.reconnecting();
    expect(link.state).toBe('reconnecting');
    conns[0]!.events.gaveUp();
    expect(conns[0]!.conn.closed).toBe(true);
    await vi.waitFor(() => expect(conns).toHaveLength(2));
    await vi.waitFor(() => expect(link.state).toBe('connected'));
    expect(link.freshStarts).toBe(1);
    expect(ready).toEqual([true, false]);
    // A late event from the abandoned connection changes nothing.
    conns[0]!.events.gaveUp();
    expect(link.state).toBe('connected');
    link.stop();
  });

  it('rejects REST at once while there is no connection, instead of hanging', async () => {
    const link = new AriLink({ connect: () => new Promise(() => undefined), onEvent: () => undefined, onReady: () => undefined, log: quietLog });
    link.start();
    await expect(link.rest.answer('1')).rejects.toThrow(/no connection to Asterisk/);
    link.stop();
  });
});
