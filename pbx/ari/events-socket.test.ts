import http from 'node:http';
import type net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { describeFailure, eventsUrl, openAriEvents, type AriEventsSocket, type AriSocketFailure } from './events-socket.js';
import type { AriEvent } from './types.js';

/** Something listening at ARI_URL that answers the upgrade as told: an HTTP status, or a real socket. */
async function fakeAri() {
  let answer: number | 'accept' = 401;
  const upgrades: string[] = [];
  const sockets: WebSocket[] = [];
  const wss = new WebSocketServer({ noServer: true });
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket: net.Socket, head) => {
    upgrades.push(req.url ?? '');
    // Node's server stops listening for errors on a socket it hands to 'upgrade', and the core
    // drops the connection as soon as it has read a refusal's status: the reset that follows
    // (ECONNRESET, sooner on a loaded machine) must not be an uncaught error in the test run.
    socket.on('error', () => undefined);
    if (answer === 'accept') return wss.handleUpgrade(req, socket, head, (ws) => sockets.push(ws));
    socket.end(`HTTP/1.1 ${answer} No\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    upgrades,
    sockets,
    answerWith: (a: number | 'accept') => void (answer = a),
    close: () => new Promise<void>((r) => (sockets.forEach((s) => s.terminate()), server.closeAllConnections(), server.close(() => r()))),
  };
}

/**
 * vi.waitFor's default second is a few attempts' worth on a quiet machine; beside other work
 * (load 20) three refused upgrades took longer. The conditions still end the waits.
 */
const WAIT = { timeout: 60_000, interval: 20 };

const opened: AriEventsSocket[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

/** `onDown`: runs after each report, when the socket has scheduled its next attempt. */
function open(url: string, app = 'call-answering', onDown?: () => void) {
  const downs: AriSocketFailure[] = [];
  const news: boolean[] = [];
  const events: AriEvent[] = [];
  const warnings: string[] = [];
  let opens = 0;
  const socket = openAriEvents(
    { url, username: 'core', password: 's3cret', apps: [app], backoff: { baseMs: 5, maxMs: 20 } },
    { open: () => (opens += 1), down: (f, isNews) => (downs.push(f), news.push(isNews), onDown?.()), event: (e) => events.push(e), warn: (m) => warnings.push(m) },
  );
  opened.push(socket);
  return { socket, downs, news, events, warnings, opens: () => opens };
}

describe('ARI events socket', { timeout: 180_000 }, () => {
  it('survives a 401, a 404 and a refused connection, says what to check for each, and opens once ARI accepts', async () => {
    const ari = await fakeAri();
    const s = open(ari.url);
    await vi.waitFor(() => expect(s.downs.length).toBeGreaterThanOrEqual(3), WAIT);
    expect(s.downs.every((d) => d.kind === 'refused-credentials' && d.status === 401)).toBe(true);
    expect(s.downs[0]!.message).toMatch(/HTTP 401.*check ARI_PASSWORD/);
    // Only a new reason is news: the repeats of the 401 are not worth a log line each.
    expect(s.news.slice(0, 3)).toEqual([true, false, false]);
    ari.answerWith(404);
    await vi.waitFor(() => expect(s.downs.at(-1)?.kind).toBe('not-found'), WAIT);
    expect(s.news[s.downs.findIndex((d) => d.kind === 'not-found')]).toBe(true);
    expect(s.downs.at(-1)!.message).toMatch(/ARI is not loaded yet.*ARI_URL's path is wrong/);
    ari.answerWith(503);
    await vi.waitFor(() => expect(s.downs.at(-1)?.status).toBe(503), WAIT);
    ari.answerWith('accept');
    await vi.waitFor(() => expect(s.opens()).toBe(1), WAIT);
    expect(s.socket.isOpen).toBe(true);
    // The upgrade registers the app with the credentials as api_key, as ari-client did.
    expect(new URL(ari.upgrades.at(-1)!, 'http://x').searchParams.get('app')).toBe('call-answering');
    expect(new URL(ari.upgrades.at(-1)!, 'http://x').searchParams.get('api_key')).toBe('core:s3cret');
    // No message carries the password.
    expect(s.downs.filter((d) => d.message.includes('s3cret'))).toEqual([]);
    await ari.close();
    await vi.waitFor(() => expect(s.downs.at(-1)?.kind).toBe('unreachable'), WAIT);
    expect(s.downs.some((d) => d.kind === 'dropped')).toBe(true);
    expect(s.downs.at(-1)!.message).toMatch(/connection refused.*Asterisk is not running yet/);
    expect(s.socket.isOpen).toBe(false);
  });

  it('delivers events in order and skips frames that are not events, and a throwing handler, without losing the socket', async () => {
    const ari = await fakeAri();
    ari.answerWith('accept');
    const events: string[] = [];
    const warnings: string[] = [];
    let opens = 0;
    const socket = openAriEvents(
      { url: `${ari.url}/ari`, username: 'core', password: 'x', apps: ['a', 'b'], subscribeAll: true },
      {
        open: () => (opens += 1),
        down: () => undefined,
        event: (e) => {
          if (e.type === 'Boom') throw new Error('handler bug');
          events.push(e.type);
        },
        warn: (m) => warnings.push(m),
      },
    );
    opened.push(socket);
    await vi.waitFor(() => expect(ari.sockets).toHaveLength(1), WAIT);
    const server = ari.sockets[0]!;
    for (const frame of ['{"type":"StasisStart"}', 'not json', '{"no":"type"}', '{"type":"Boom"}', '{"type":"ChannelFutureFeature"}', '{"type":"StasisEnd"}']) server.send(frame);
    await vi.waitFor(() => expect(events).toEqual(['StasisStart', 'ChannelFutureFeature', 'StasisEnd']), WAIT);
    expect(warnings).toEqual(['ignored an ARI frame that is not JSON', 'ignored an ARI frame without an event type', 'ARI event handling failed']);
    expect(opens).toBe(1);
    expect(socket.isOpen).toBe(true);
    const query = new URL(ari.upgrades[0]!, 'http://x');
    expect(query.pathname).toBe('/ari/events');
    expect(query.searchParams.get('app')).toBe('a,b');
    expect(query.searchParams.get('subscribeAll')).toBe('true');
    socket.close();
    await ari.close();
  });

  it('stays closed once closed: no further attempt and no report', async () => {
    const ari = await fakeAri();
    // Closed from its first report, its retry already scheduled. Closed at a moment of the test's
    // choosing, an attempt could be on its way and reach the fake after the count was taken
    // (seen on a loaded machine).
    const s = open(ari.url, 'call-answering', () => s.socket.close());
    await vi.waitFor(() => expect(s.downs).toHaveLength(1), WAIT);
    const mine = () => ari.upgrades.filter((u) => u.includes('app=call-answering')).length;
    // Proof of no further attempt: another socket on the same back-off is retried meanwhile, the closed one is not.
    const other = open(ari.url, 'other');
    await vi.waitFor(() => expect(other.downs.length).toBeGreaterThanOrEqual(4), WAIT);
    expect(mine()).toBe(1);
    expect(s.downs).toHaveLength(1);
    await ari.close();
  });
});

describe('describeFailure', () => {
  const at = eventsUrl({ url: 'http://asterisk:8088/ari/', apps: ['call-answering'] });
  it('names the socket without credentials', () => {
    expect(at).toBe('ws://asterisk:8088/ari/events?app=call-answering');
    expect(eventsUrl({ url: 'https://pbx.example', apps: ['x'] }, { username: 'u', password: 'p w' })).toBe('wss://pbx.example/ari/events?app=x&api_key=u%3Ap+w');
  });
  it('says what to check for each answer', () => {
    expect(describeFailure({ status: 403 }, at).message).toMatch(/check ARI_PASSWORD/);
    expect(describeFailure({ error: Object.assign(new Error('getaddrinfo ENOTFOUND asterisk'), { code: 'ENOTFOUND' }) }, at).message).toMatch(/does not resolve.*check ARI_URL/);
    expect(describeFailure({ error: new Error('Opening handshake has timed out') }, at)).toMatchObject({ kind: 'timeout' });
    expect(describeFailure({ closeCode: 1006 }, at).message).toBe(`the events WebSocket at ${at} closed (code 1006): Asterisk stopped or restarted, or the network dropped it`);
  });
});
