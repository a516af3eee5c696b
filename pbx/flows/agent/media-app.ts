import WebSocket from 'ws';
import { backoffDelayMs, type BackoffPolicy } from '../../../core/pipeline/backoff.js';

// externalMedia channels must live in a Stasis app, and each gets its own StasisStart.
// Putting them in the call-answering app would make it treat them as inbound calls, so
// they go to a second app, `<app>-media`, registered by this events socket alone
// (an app exists only while a socket is connected: shared/ari/NOTES.md). Its events are
// not needed; the socket only keeps the app registered, reconnecting with back-off.

export interface MediaAppOptions {
  url: string;
  username: string;
  password: string;
  app: string;
  log?: { warn(o: object, m: string): void };
}

export interface MediaApp {
  readonly name: string;
  /** True while the app is registered on Asterisk. */
  readonly connected: boolean;
  /** Resolves once the app is registered (the socket is open), or rejects after `ms`. */
  ready(ms?: number): Promise<void>;
  close(): void;
}

/** Re-registering after the socket closed: 200 ms doubling to 10 s. */
const RECONNECT: BackoffPolicy = { baseMs: 200, maxMs: 10_000 };

export function mediaAppName(app: string): string {
  return `${app}-media`;
}

export function openMediaApp(opts: MediaAppOptions): MediaApp {
  const name = mediaAppName(opts.app);
  const wsUrl = `${opts.url.replace(/^http/, 'ws').replace(/\/+$/, '')}/ari/events?app=${encodeURIComponent(name)}&api_key=${encodeURIComponent(`${opts.username}:${opts.password}`)}`;
  let ws: WebSocket | undefined;
  let closed = false;
  let failures = 0;
  let open = false;
  let waiters: Array<() => void> = [];

  const connect = () => {
    if (closed) return;
    const socket = new WebSocket(wsUrl, 'ari');
    ws = socket;
    socket.on('open', () => {
      open = true;
      failures = 0;
      for (const w of waiters.splice(0)) w();
    });
    socket.on('message', () => undefined);
    socket.on('error', (err) => opts.log?.warn({ err: (err as Error).message }, 'agent media app socket error'));
    socket.on('close', () => {
      open = false;
      if (closed) return;
      setTimeout(connect, backoffDelayMs(++failures, RECONNECT)).unref();
    });
  };
  connect();

  return {
    name,
    get connected() {
      return open;
    },
    ready(ms = 5000) {
      if (open) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => {
          waiters = waiters.filter((w) => w !== done);
          reject(new Error(`ARI media app ${name} could not register within ${ms} ms`));
        }, ms);
        const done = () => (clearTimeout(t), resolve());
        waiters.push(done);
      });
    },
    close() {
      closed = true;
      ws?.terminate();
    },
  };
}
