import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { withTrialChecked } from '../accounts/users.js';
import { SESSION_COOKIE, userForSession } from '../auth/sessions.js';
import type { App } from '../http/fastify-types.js';
import type { CallMyLineRegistry } from './registry.js';
import { CALL_MY_LINE_WS_PREFIX } from './routes.js';
import { inspectSip } from './sip-guard.js';

/** Asterisk answers its /ws upgrade at once on loopback or a compose network; past this it is not coming. */
const ASTERISK_HANDSHAKE_MS = 10_000;
/**
 * What the proxy holds for a browser while Asterisk's /ws has not answered: a call's first
 * messages (an INVITE with its offer, perhaps a CANCEL) are a few KiB; a browser that sends
 * more before there is anywhere to send it is refused rather than buffered without end.
 */
const PENDING_MAX_FRAMES = 16;
const PENDING_MAX_BYTES = 64 * 1024;
/** The names the registry gives (tc- and hex): anything else in the path is not a test call. */
const CALL_NAME = /^tc-[0-9a-f]{1,64}$/;

/**
 * A kind of one-call browser line the proxy carries: Call my line's test calls, and the live
 * calls' listen and take-over lines (issue 54, core/live-control). Each has its own path, names
 * and registry; the checks (origin, session, one call, the methods a call uses) are the same.
 */
export interface SipLineKind {
  prefix: string;
  name: RegExp;
  /** The signed-in login's own, unexpired, unused line: true once claimed. */
  claim(name: string, userId: number): boolean;
  release(name: string): Promise<void>;
  closeAll(): Promise<void>;
  /** The refusals' words: a path that is not a line of this kind, and a line expired or used. */
  badName: string;
  expired: string;
}

/**
 * The browser's SIP WebSocket (RFC 7118) on the console's own origin, forwarded to Asterisk's
 * /ws, which is never published: the upgrade is taken only from the console's origin, for a
 * signed-in owner whose account is active, with this call's unused credentials (its name in
 * the path, claimed once). Every frame passes inspectSip (one call per connection, only the
 * methods a call uses); which number may be rung is Asterisk's to enforce (pbx/call-my-line/lines.ts).
 * Media does not come this way: it goes to Asterisk's RTP ports, as a phone's does.
 */
export function attachCallMyLineProxy(app: App, registry: CallMyLineRegistry, asteriskWs: string, more: SipLineKind[] = []): void {
  const kinds: SipLineKind[] = [
    {
      prefix: CALL_MY_LINE_WS_PREFIX,
      name: CALL_NAME,
      claim: (name, userId) => registry.claim(name, userId) !== undefined,
      release: (name) => registry.release(name),
      closeAll: () => registry.closeAll(),
      badName: 'This is not a test call’s address: press Call my line again.',
      expired: 'These call details have expired or were used: press Call my line again.',
    },
    ...more,
  ];
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has('sip') ? 'sip' : false), maxPayload: 64 * 1024 });
  const open = new Set<WebSocket>();

  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const path = (req.url ?? '').split('?')[0]!;
      const kind = kinds.find((k) => path.startsWith(k.prefix));
      if (!kind) return refuse(socket, 404, 'Not found.');
      const refusal = await whoMayConnect(app, req);
      if (typeof refusal === 'string') return refuse(socket, refusal === 'origin' ? 403 : 401, refusal === 'origin' ? 'Cross-site requests are not accepted.' : 'Please log in to continue.');
      // Taken as it is, never %-decoded: a name is a prefix and hex, and a malformed escape is the client's mistake, not the server's.
      const name = path.slice(kind.prefix.length);
      if (!kind.name.test(name)) return refuse(socket, 400, kind.badName);
      if (!kind.claim(name, refusal.userId)) return refuse(socket, 403, kind.expired);
      wss.handleUpgrade(req, socket, head, (browser) => {
        open.add(browser);
        bridge(browser, name, kind);
      });
    })().catch((err: unknown) => {
      app.log.error({ err }, 'Call my line proxy: upgrade failed');
      refuse(socket, 500, 'Something went wrong.');
    });
  });

  function bridge(browser: WebSocket, name: string, kind: SipLineKind): void {
    const log = app.log.child({ endpoint: name });
    const asterisk = new WebSocket(asteriskWs, 'sip', { handshakeTimeout: ASTERISK_HANDSHAKE_MS });
    const pending: string[] = [];
    let pendingBytes = 0;
    let call: string | undefined;
    let ended = false;
    // 1011 (internal error) when Asterisk fails the call's socket, 1008 (policy) for a browser that floods it.
    const end = (code = 1000, reason = '') => {
      if (ended) return;
      ended = true;
      open.delete(browser);
      pending.length = 0;
      browser.close(code, reason);
      asterisk.terminate();
      void kind.release(name);
    };
    asterisk.on('open', () => {
      for (const f of pending.splice(0)) asterisk.send(f);
      pendingBytes = 0;
    });
    asterisk.on('message', (data) => browser.send(data.toString()));
    asterisk.on('close', () => end());
    asterisk.on('error', (err) => {
      if (ended) return; // our own terminate() of a socket still connecting
      log.warn({ err }, 'Call my line proxy: Asterisk’s SIP WebSocket failed');
      end(1011, 'The phone system did not answer: try again in a minute.');
    });
    browser.on('close', () => end());
    browser.on('error', () => end());
    browser.on('message', (data) => {
      const frame = data.toString();
      const verdict = inspectSip(frame, call);
      if (!verdict.forward) {
        log.info({ reason: verdict.reason }, 'Call my line proxy: refused a SIP message');
        if (verdict.reply) browser.send(verdict.reply);
        return;
      }
      call ??= verdict.callId;
      if (asterisk.readyState === WebSocket.OPEN) return asterisk.send(frame);
      pendingBytes += Buffer.byteLength(frame);
      pending.push(frame);
      if (pending.length > PENDING_MAX_FRAMES || pendingBytes > PENDING_MAX_BYTES) {
        log.warn({ frames: pending.length, bytes: pendingBytes }, 'Call my line proxy: the browser sent more than a call’s first messages before Asterisk answered; closing');
        end(1008, 'Too much sent before the phone system answered.');
      }
    });
  }

  app.addHook('onClose', async () => {
    for (const ws of open) ws.terminate();
    await Promise.all(kinds.map((k) => k.closeAll()));
  });
}

/** The owner this upgrade is for, or why not ('origin' or 'session'). */
async function whoMayConnect(app: App, req: IncomingMessage): Promise<{ userId: number } | 'origin' | 'session'> {
  const { config, database, now } = app.services;
  // A WebSocket is not bound by CORS: a page on another site could open one with the
  // owner's cookie. Browsers always send Origin on an upgrade; it must be the console's.
  const origin = req.headers.origin;
  const host = req.headers.host;
  const allowed = new Set([new URL(config.publicUrl).origin, ...(host ? [`http://${host}`, `https://${host}`] : [])]);
  if (!origin || !allowed.has(origin)) return 'origin';
  const sid = app.parseCookie(req.headers.cookie ?? '')[SESSION_COOKIE];
  if (!sid) return 'session';
  const found = await userForSession(database.db, sid, now());
  if (!found) return 'session';
  const user = await withTrialChecked(database.db, found, now());
  return user.accountStatus === 'active' ? { userId: user.id } : 'session';
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' };

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ message });
  socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
