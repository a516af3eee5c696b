import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { withTrialChecked } from '../accounts/users.js';
import { SESSION_COOKIE, userForSession } from '../auth/sessions.js';
import type { App } from '../http/fastify-types.js';
import type { TestCallRegistry } from './registry.js';
import { TEST_CALL_WS_PREFIX } from './routes.js';
import { inspectSip } from './sip-guard.js';

/**
 * The browser's SIP WebSocket (RFC 7118) on the console's own origin, forwarded to Asterisk's
 * /ws, which is never published: the upgrade is taken only from the console's origin, for a
 * signed-in owner whose account is active, with this call's unused credentials (its name in
 * the path, claimed once). Every frame passes inspectSip (one call per connection, only the
 * methods a call uses); which number may be rung is Asterisk's to enforce (pbx/test-call/lines.ts).
 * Media does not come this way: it goes to Asterisk's RTP ports, as a phone's does.
 */
export function attachTestCallProxy(app: App, registry: TestCallRegistry, asteriskWs: string): void {
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has('sip') ? 'sip' : false), maxPayload: 64 * 1024 });
  const open = new Set<WebSocket>();

  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const path = (req.url ?? '').split('?')[0]!;
      if (!path.startsWith(TEST_CALL_WS_PREFIX)) return refuse(socket, 404, 'Not found.');
      const refusal = await whoMayConnect(app, req);
      if (typeof refusal === 'string') return refuse(socket, refusal === 'origin' ? 403 : 401, refusal === 'origin' ? 'Cross-site requests are not accepted.' : 'Please log in to continue.');
      const name = decodeURIComponent(path.slice(TEST_CALL_WS_PREFIX.length));
      const call = registry.claim(name, refusal.userId);
      if (!call) return refuse(socket, 403, 'These test-call details have expired or were used: press Call my line again.');
      wss.handleUpgrade(req, socket, head, (browser) => {
        open.add(browser);
        bridge(browser, name);
      });
    })().catch((err: unknown) => {
      app.log.error({ err }, 'test-call proxy: upgrade failed');
      refuse(socket, 500, 'Something went wrong.');
    });
  });

  function bridge(browser: WebSocket, name: string): void {
    const log = app.log.child({ testCall: name });
    const asterisk = new WebSocket(asteriskWs, 'sip');
    const pending: string[] = [];
    let call: string | undefined;
    const end = () => {
      open.delete(browser);
      browser.close();
      asterisk.close();
      void registry.release(name);
    };
    asterisk.on('open', () => {
      for (const f of pending.splice(0)) asterisk.send(f);
    });
    asterisk.on('message', (data) => browser.send(data.toString()));
    asterisk.on('close', end);
    asterisk.on('error', (err) => (log.warn({ err }, 'test-call proxy: Asterisk’s SIP WebSocket failed'), end()));
    browser.on('close', end);
    browser.on('error', end);
    browser.on('message', (data) => {
      const frame = data.toString();
      const verdict = inspectSip(frame, call);
      if (!verdict.forward) {
        log.info({ reason: verdict.reason }, 'test-call proxy: refused a SIP message');
        if (verdict.reply) browser.send(verdict.reply);
        return;
      }
      call ??= verdict.callId;
      if (asterisk.readyState === WebSocket.OPEN) asterisk.send(frame);
      else pending.push(frame);
    });
  }

  app.addHook('onClose', async () => {
    for (const ws of open) ws.terminate();
    await registry.closeAll();
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

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ message });
  socket.end(`HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : status === 403 ? 'Forbidden' : status === 401 ? 'Unauthorized' : 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
