import WebSocket from 'ws';
import { backoffDelayMs, type BackoffPolicy } from '../../core/ports/retry.js';
import type { AriEvent } from './types.js';

// ARI's events WebSocket, on the `ws` package: the one thing the project used `ari-client` for
// (its REST is pbx/ari/http.ts). A Stasis app exists on Asterisk only while a socket naming it
// is open (shared/ari/NOTES.md), so this socket is the app's registration: it is opened at
// once and reopened with the project's back-off for as long as it is not closed on purpose.
// Whatever Asterisk (or whatever else listens at ARI_URL) answers, whether an HTTP status on the
// upgrade, a refused connection or a dropped socket, ends as one `down` report with a sentence for the
// operator and another attempt: nothing here throws into the process (issue 39, M3).

export interface AriEventsOptions {
  /** Asterisk's HTTP base (ARI_URL), with or without the trailing /ari. */
  url: string;
  username: string;
  password: string;
  /** The Stasis apps the socket registers (`app=a,b`). */
  apps: string[];
  /** Events for every resource, not only those the apps subscribed to (`subscribeAll=true`). */
  subscribeAll?: boolean;
  /** Between attempts; the count starts again after each successful open. */
  backoff?: BackoffPolicy;
  /** How long an upgrade may go unanswered before the attempt counts as failed (default 10 s). */
  handshakeTimeoutMs?: number;
}

/**
 * Reopening the socket: 500 ms doubling to 10 s, without end. While the socket is closed no
 * call can enter the app, so after Asterisk restarts the wait is kept short (ari-client's own
 * cap was 10 s too); an attempt costs one TCP connection.
 */
export const ARI_RECONNECT: BackoffPolicy = { baseMs: 500, maxMs: 10_000 };

export interface AriEventsHandlers {
  /** The socket is open: the apps are registered, and events flow from here on. */
  open(): void;
  /**
   * An attempt failed or the open socket was lost; the next attempt is scheduled already.
   * `news` is false when the previous report since the last open said the same: log only news,
   * and a box left with a wrong password says so once instead of on every attempt.
   */
  down(failure: AriSocketFailure, news: boolean): void;
  event(e: AriEvent): void;
  /** A frame that was not an event, or an event whose handling threw: skipped, the socket goes on. */
  warn(msg: string, detail?: unknown): void;
}

export interface AriEventsSocket {
  readonly isOpen: boolean;
  /** Closes the socket for good: no further attempt, no further report. */
  close(): void;
}

/** Why the socket is not open, as the operator should read it. */
export interface AriSocketFailure {
  kind: 'refused-credentials' | 'not-found' | 'http-status' | 'unreachable' | 'timeout' | 'dropped' | 'error';
  /** The HTTP status Asterisk answered the upgrade with, when it answered one. */
  status?: number;
  message: string;
}

/** What went wrong on one attempt, as `ws` and Node report it. */
export interface AttemptOutcome {
  status?: number;
  error?: NodeJS.ErrnoException;
  /** The socket had opened and then closed, with this close code. */
  closeCode?: number;
}

/** The socket's address for messages: the credentials (api_key) never appear in it. */
export function eventsUrl(opts: Pick<AriEventsOptions, 'url' | 'apps' | 'subscribeAll'>, credentials?: { username: string; password: string }): string {
  const base = new URL(`${opts.url.replace(/\/+$/, '').replace(/\/ari$/, '')}/ari/events`);
  base.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  base.searchParams.set('app', opts.apps.join(','));
  if (opts.subscribeAll) base.searchParams.set('subscribeAll', 'true');
  // api_key, as shared/ari/NOTES.md gives the events URL (and as ari-client sent it).
  if (credentials) base.searchParams.set('api_key', `${credentials.username}:${credentials.password}`);
  return base.toString();
}

/** One attempt's outcome as a sentence that says what to check (pure: unit-tested). */
export function describeFailure(outcome: AttemptOutcome, at: string): AriSocketFailure {
  const { status, error, closeCode } = outcome;
  if (status === 401 || status === 403) {
    return { kind: 'refused-credentials', status, message: `ARI refused the credentials (HTTP ${status}) at ${at}: check ARI_PASSWORD and ARI_USERNAME against the user in Asterisk's ari.conf` };
  }
  if (status === 404) {
    return {
      kind: 'not-found',
      status,
      message: `ARI answered HTTP 404 at ${at}: Asterisk's ARI is not loaded yet (res_ari still starting, or not enabled in ari.conf/http.conf), or ARI_URL's path is wrong (give Asterisk's HTTP base, e.g. http://asterisk:8088)`,
    };
  }
  if (status !== undefined) return { kind: 'http-status', status, message: `ARI answered HTTP ${status} to the events WebSocket at ${at} instead of accepting it: check ARI_URL and that Asterisk's ARI is enabled` };
  if (error) {
    const code = error.code;
    if (code === 'ECONNREFUSED') return { kind: 'unreachable', message: `nothing listens at ${at} (connection refused): Asterisk is not running yet, or ARI_URL's host or port is wrong` };
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'unreachable', message: `ARI_URL's host does not resolve (${code}) for ${at}: check ARI_URL` };
    if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return { kind: 'unreachable', message: `no route to ${at} (${code}): check ARI_URL and the network between the core and Asterisk` };
    if (/handshake has timed out/i.test(error.message)) return { kind: 'timeout', message: `no answer to the events WebSocket upgrade at ${at}: Asterisk is hung or overloaded, or ARI_URL points at something else` };
    return { kind: 'error', message: `the events WebSocket at ${at} failed: ${error.message}` };
  }
  return { kind: 'dropped', message: `the events WebSocket at ${at} closed${closeCode === undefined ? '' : ` (code ${closeCode})`}: Asterisk stopped or restarted, or the network dropped it` };
}

export function openAriEvents(opts: AriEventsOptions, on: AriEventsHandlers): AriEventsSocket {
  const url = eventsUrl(opts, opts);
  const shown = eventsUrl(opts);
  const backoff = opts.backoff ?? ARI_RECONNECT;
  let socket: WebSocket | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let isOpen = false;
  let closed = false;
  let lastReport = '';

  const deliver = (data: WebSocket.RawData) => {
    let event: AriEvent;
    try {
      event = JSON.parse(String(data)) as AriEvent;
    } catch {
      return on.warn('ignored an ARI frame that is not JSON');
    }
    if (typeof event?.type !== 'string') return on.warn('ignored an ARI frame without an event type');
    // A throw here would surface inside ws's frame parser and stop the socket's handling:
    // one bad event must not cost the calls that follow it.
    try {
      on.event(event);
    } catch (err) {
      on.warn('ARI event handling failed', { type: event.type, err });
    }
  };

  const attempt = () => {
    if (closed) return;
    const outcome: AttemptOutcome = {};
    let opened = false;
    const ws = new WebSocket(url, 'ari', { handshakeTimeout: opts.handshakeTimeoutMs ?? 10_000 });
    socket = ws;
    // Listening here keeps ws from turning an HTTP answer into a bare "Unexpected server
    // response" error: the status is kept, and the handshake is abandoned by hand.
    ws.on('unexpected-response', (_req, res) => {
      outcome.status = res.statusCode;
      res.resume();
      ws.terminate();
    });
    ws.on('open', () => {
      if (closed) return ws.terminate();
      opened = true;
      isOpen = true;
      failures = 0;
      lastReport = '';
      on.open();
    });
    ws.on('message', deliver);
    ws.on('error', (err: NodeJS.ErrnoException) => {
      // The status, when there was one, says more than the abort that followed it.
      if (outcome.status === undefined && !opened) outcome.error ??= err;
    });
    ws.on('close', (code) => {
      if (socket === ws) socket = undefined;
      isOpen = false;
      if (closed) return;
      failures += 1;
      // unref: a socket waiting to retry is no reason for the process to stay up.
      retryTimer = setTimeout(attempt, backoffDelayMs(failures, backoff)).unref();
      const failure = describeFailure(opened ? { closeCode: code } : outcome, shown);
      const news = failure.message !== lastReport;
      lastReport = failure.message;
      on.down(failure, news);
    });
  };
  attempt();

  return {
    get isOpen() {
      return isOpen;
    },
    close() {
      closed = true;
      isOpen = false;
      clearTimeout(retryTimer);
      socket?.terminate();
      socket = undefined;
    },
  };
}
