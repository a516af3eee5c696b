import { describe, expect, it } from 'vitest';
import type { AriEventsHandlers, AriSocketFailure } from './events-socket.js';
import { AriLink } from './link.js';
import type { AriRest } from './types.js';

/** A scripted events socket: the test says when it opens and why it goes down. */
function fakeSocket() {
  const s = { handlers: undefined as AriEventsHandlers | undefined, closed: false, opened: 0 };
  return {
    s,
    openEvents: (handlers: AriEventsHandlers) => {
      s.handlers = handlers;
      s.opened += 1;
      return { isOpen: false, close: () => void (s.closed = true) };
    },
  };
}

const refused: AriSocketFailure = { kind: 'refused-credentials', status: 401, message: 'ARI refused the credentials (HTTP 401): check ARI_PASSWORD' };
const notLoaded: AriSocketFailure = { kind: 'not-found', status: 404, message: "ARI answered HTTP 404: Asterisk's ARI is not loaded yet" };
const dropped: AriSocketFailure = { kind: 'dropped', message: 'the events WebSocket closed (code 1006)' };

function recordingLog() {
  const lines: Array<{ level: string; msg: string }> = [];
  return { lines, log: { info: (_o: object, msg: string) => lines.push({ level: 'info', msg }), warn: (_o: object, msg: string) => lines.push({ level: 'warn', msg }) } };
}

const rest = { answer: async () => undefined } as unknown as AriRest;

describe('AriLink', () => {
  it('is down with the reason while ARI refuses, logs only news, and reports ready on open', () => {
    const sock = fakeSocket();
    const { lines, log } = recordingLog();
    const ready: boolean[] = [];
    const link = new AriLink({ openEvents: sock.openEvents, rest, onEvent: () => undefined, onReady: ({ first }) => ready.push(first), log });
    link.start();
    expect(link.state).toBe('connecting');
    for (let i = 0; i < 5; i++) sock.s.handlers!.down(refused, i === 0);
    expect(link.state).toBe('down');
    expect(link.detail).toMatch(/check ARI_PASSWORD/);
    sock.s.handlers!.down(notLoaded, true);
    sock.s.handlers!.down(notLoaded, false);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
      expect.stringMatching(/HTTP 401.*check ARI_PASSWORD/),
      expect.stringMatching(/HTTP 404.*not loaded yet/),
    ]);
    sock.s.handlers!.open();
    expect(link.state).toBe('connected');
    expect(ready).toEqual([true]);
    link.stop();
    expect(sock.s.closed).toBe(true);
    expect(link.state).toBe('stopped');
  });

  it('reconnecting after a drop keeps REST going, and reconciles again once the socket is back', async () => {
    const sock = fakeSocket();
    const ready: boolean[] = [];
    const link = new AriLink({ openEvents: sock.openEvents, rest, onEvent: () => undefined, onReady: ({ first }) => ready.push(first), log: recordingLog().log });
    link.start();
    sock.s.handlers!.open();
    sock.s.handlers!.down(dropped, true);
    expect(link.state).toBe('reconnecting');
    expect(link.detail).toMatch(/closed \(code 1006\)/);
    await expect(link.rest.answer('1')).resolves.toBeUndefined();
    sock.s.handlers!.open();
    expect(link.state).toBe('connected');
    expect(link.reconnects).toBe(1);
    expect(ready).toEqual([true, false]);
    expect(sock.s.opened).toBe(1); // one socket object retried by itself, never opened twice over
    link.stop();
    // A late report from the closed socket changes nothing.
    sock.s.handlers!.open();
    expect(link.state).toBe('stopped');
  });

  it('rejects REST at once before Asterisk was ever reached, instead of hanging', async () => {
    const sock = fakeSocket();
    const link = new AriLink({ openEvents: sock.openEvents, rest, onEvent: () => undefined, onReady: () => undefined, log: recordingLog().log });
    link.start();
    await expect(link.rest.answer('1')).rejects.toThrow(/ARI is connecting: no connection to Asterisk/);
    sock.s.handlers!.down(refused, true);
    await expect(link.rest.answer('1')).rejects.toThrow(/ARI is down/);
    link.stop();
  });
});
