import http from 'node:http';
import https from 'node:https';
import { AriNotFoundError, AriRequestError, AriTimeoutError } from './types.js';

// The HTTP requester for the core's ARI REST calls. ari-client, the ARI library the core once
// used, built each request through swagger-client and shred (≈ 3 ms of CPU per call, measured
// in bench/calls-100.ts), which alone put 100 simultaneous answers ≈ 0.3 s behind their
// StasisStart; this sends them with a few µs of work over a small pool of kept-alive sockets.

export interface AriHttpConfig {
  /** Asterisk's HTTP base, with or without the trailing /ari. */
  url: string;
  username: string;
  password: string;
  /** Per request, from when it is sent on a socket (default 5 s); a wait for a free socket is bounded apart. */
  requestTimeoutMs?: number;
  /**
   * Sockets kept open to Asterisk. Asterisk's http.conf `sessionlimit` (default 100) counts
   * every open connection, the events WebSocket included, so the pool stays well below it.
   */
  maxSockets?: number;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface AriHttp {
  /** The parsed JSON answer (undefined for 204). 404 → AriNotFoundError, other refusals → AriRequestError. */
  json<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, query?: Query, body?: unknown): Promise<T>;
  /** The answer's raw bytes (a stored recording's file). */
  bytes(path: string): Promise<Buffer>;
  /** Closes the kept-alive sockets. */
  close(): void;
}

/** Asterisk closes an idle HTTP session after session_keep_alive (15 s by default): let go first. */
const IDLE_SOCKET_MS = 10_000;
/** The longest a request may wait for a free socket before it is given up unsent. */
const QUEUE_BOUND_MS = 30_000;

export function createAriHttp(cfg: AriHttpConfig): AriHttp {
  const base = new URL(`${cfg.url.replace(/\/+$/, '').replace(/\/ari$/, '')}/ari`);
  const secure = base.protocol === 'https:';
  const transport = secure ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: cfg.maxSockets ?? 32, maxFreeSockets: cfg.maxSockets ?? 32, timeout: IDLE_SOCKET_MS });
  const authorization = `Basic ${Buffer.from(`${cfg.username}:${cfg.password}`).toString('base64')}`;
  const timeoutMs = cfg.requestTimeoutMs ?? 5000;
  const basePath = base.pathname;

  function send(method: string, path: string, query: Query | undefined, retried: boolean, payload?: Buffer): Promise<{ status: number; body: Buffer }> {
    let qs = '';
    if (query) {
      for (const [k, v] of Object.entries(query)) if (v !== undefined) qs += `${qs ? '&' : '?'}${k}=${encodeURIComponent(String(v))}`;
    }
    const what = `ARI ${method} ${path}`;
    return new Promise((resolve, reject) => {
      const req = transport.request({
        agent,
        host: base.hostname,
        port: base.port || (secure ? 443 : 80),
        method,
        path: `${basePath}${path}${qs}`,
        headers: payload ? { authorization, 'content-type': 'application/json', 'content-length': payload.length } : { authorization, 'content-length': 0 },
      });
      // The answer is awaited for timeoutMs from when the request goes out on a socket: in a
      // burst, requests queue for the pool's sockets, and one timed out before it was even sent
      // could never be carried out late (steps.ts waits for the late ones' events). The queue
      // has its own bound, so an unreachable Asterisk still never hangs a call.
      let timer = setTimeout(() => {
        req.destroy(new AriTimeoutError(`${what}: not sent within ${QUEUE_BOUND_MS} ms (every socket to Asterisk busy)`, 0, false));
      }, QUEUE_BOUND_MS);
      req.once('socket', () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          req.destroy(new AriTimeoutError(`${what}: no answer within ${timeoutMs} ms`, timeoutMs));
        }, timeoutMs);
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
        });
        res.on('error', (err) => (clearTimeout(timer), reject(transportError(what, err))));
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        // A kept-alive socket the server closed just as we reused it: the request never
        // reached Asterisk, so sending it once more on a fresh socket is safe.
        if (req.reusedSocket && !retried && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
          send(method, path, query, true, payload).then(resolve, reject);
          return;
        }
        reject(transportError(what, err));
      });
      req.end(payload);
    });
  }

  async function request(method: string, path: string, query?: Query, payload?: unknown): Promise<Buffer> {
    const { status, body } = await send(method, path, query, false, payload === undefined ? undefined : Buffer.from(JSON.stringify(payload)));
    if (status >= 200 && status < 300) return body;
    const what = `ARI ${method} ${path}`;
    const message = errorMessage(body);
    if (status === 404) throw new AriNotFoundError(`${what}: ${message}`, status);
    throw new AriRequestError(`${what} answered ${status}: ${message}`, status);
  }

  return {
    async json<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, query?: Query, payload?: unknown): Promise<T> {
      const body = await request(method, path, query, payload);
      return (body.length ? JSON.parse(body.toString('utf8')) : undefined) as T;
    },
    bytes: (path) => request('GET', path),
    close: () => agent.destroy(),
  };
}

/** Asterisk's error bodies are {"message": "..."}; anything else is quoted as it came. */
function errorMessage(body: Buffer): string {
  const text = body.toString('utf8');
  try {
    return (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {
    return text.slice(0, 200) || '(empty body)';
  }
}

function transportError(what: string, err: Error): Error {
  if (err instanceof AriTimeoutError) return err;
  return new AriRequestError(`${what}: ${err.message}`);
}

/** A path segment: ids and names may hold characters that are not URL-safe. */
export const seg = encodeURIComponent;
