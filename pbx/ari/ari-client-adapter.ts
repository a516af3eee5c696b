import ari from 'ari-client';
import { createAriHttp } from './http.js';
import { createAriRest } from './rest-client.js';
import type { AriEvent, AriRest } from './types.js';
import { withTimeout } from './with-timeout.js';

// The one module that knows ari-client 2.2.0, which owns the events WebSocket: its
// connect, reconnect back-off and app registration. Its faults on Node 20
// (shared/ari/NOTES.md) are contained here: unknown event types are dropped before
// ari-client's handler throws on them, and WebSocketMaxRetries is reported so the link can
// start over. REST calls do not go through ari-client (see http.ts): each has its own
// timeout, and StoredRecording#getStoredFile, which crashes on audio, is out of reach.

export interface AriConnectOptions {
  url: string;
  username: string;
  password: string;
  app: string;
  /** Per REST call (default 5 s). */
  requestTimeoutMs?: number;
  /** For loading the API declarations (default 15 s). */
  connectTimeoutMs?: number;
}

export interface AriConnectionEvents {
  event(e: AriEvent): void;
  /** The socket is up again after ari-client reconnected it: events in between are lost. */
  reconnected(): void;
  /** ari-client is retrying the socket. */
  reconnecting(): void;
  /** ari-client stopped retrying (WebSocketMaxRetries): this connection is dead. */
  gaveUp(): void;
  /** Something ari-client would have crashed on, handled. */
  warn(msg: string, detail?: unknown): void;
}

export interface AriConnection {
  rest: AriRest;
  close(): void;
}

/** The slice of ari-client's dynamic Client we use (built at runtime from the Swagger files). */
interface RawClient {
  on(event: string, fn: (...args: any[]) => void): void;
  removeAllListeners(): void;
  start(app: string): Promise<void>;
  stop(): void;
  _ws?: RawSocket & { __guarded?: boolean };
  _swagger: { apis: { events: { models: Record<string, unknown> } } };
}

interface RawSocket {
  listeners(event: string): Array<(...args: unknown[]) => void>;
  removeAllListeners(event: string): void;
  on(event: string, fn: (...args: unknown[]) => void): void;
}

/**
 * swagger-client 2.0 (inside ari-client) prints "This API is using a deprecated version of
 * Swagger!" to stdout on every connect, through a global `log` function it defines for
 * itself. That global is replaced by a silent one: the operator's log stays structured.
 */
function silenceSwaggerLog(): void {
  const g = globalThis as { log?: unknown };
  if (typeof g.log === 'function' && String(g.log).includes('log.history')) g.log = () => undefined;
}

export async function connectAri(opts: AriConnectOptions, on: AriConnectionEvents): Promise<AriConnection> {
  const connectTimeout = opts.connectTimeoutMs ?? 15_000;
  silenceSwaggerLog();
  const client = (await withTimeout(ari.connect(opts.url, opts.username, opts.password), connectTimeout, 'connect')) as unknown as RawClient;
  const knownEvents = new Set(Object.keys(client._swagger.apis.events.models));
  let closed = false;

  // ari-client looks each event's model up in events.json and throws a TypeError inside the
  // socket's message handler when the type is missing; the socket then stops handling
  // close frames. So on every (re)opened socket its message handler is replaced by ours:
  // unknown types are skipped, and known events go straight to the app as plain JSON
  // (ari-client's per-event resource objects are not needed and cost CPU per call).
  // ari-client keeps owning the socket's lifecycle (open, close, reconnect).
  const guardSocket = () => {
    const ws = client._ws;
    if (!ws || ws.__guarded) return;
    ws.__guarded = true;
    ws.removeAllListeners('message');
    ws.on('message', (data: unknown) => {
      let event: AriEvent;
      try {
        event = JSON.parse(String(data)) as AriEvent;
      } catch {
        return on.warn('ignored an ARI event that is not JSON');
      }
      if (!event?.type || !knownEvents.has(event.type)) return on.warn('ignored an ARI event type missing from events.json', { type: event?.type });
      if (closed) return;
      try {
        on.event(event);
      } catch (err) {
        on.warn('ARI event handling failed', { type: event.type, err });
      }
    });
  };

  let started = false;
  client.on('WebSocketConnected', () => {
    guardSocket();
    if (started && !closed) on.reconnected();
  });
  client.on('WebSocketReconnecting', () => !closed && on.reconnecting());
  client.on('WebSocketMaxRetries', () => !closed && on.gaveUp());
  client.on('error', (err: unknown) => on.warn('ari-client error', err));

  try {
    // start() settles by itself: open, or WebSocketMaxRetries after ~43 s. Abandoning it
    // sooner would leave ari-client retrying in the background, and a late success would
    // take the app's registration from our live socket. The bound only covers a socket
    // that hangs without ever failing.
    await withTimeout(client.start(opts.app), 60_000, 'events WebSocket');
  } catch (err) {
    closed = true;
    try {
      client.stop();
    } catch {
      // never opened
    }
    client.removeAllListeners();
    throw err;
  }
  started = true;

  // REST goes through the thin client (pbx/ari/http.ts says why); ari-client keeps the socket.
  const http = createAriHttp({ url: opts.url, username: opts.username, password: opts.password, requestTimeoutMs: opts.requestTimeoutMs });
  const rest = createAriRest(http);

  return {
    rest,
    close() {
      if (closed) return;
      closed = true;
      try {
        client.stop();
      } catch {
        // the socket was already gone
      }
      client.removeAllListeners();
      http.close();
    },
  };
}
