import type { Log } from '../../contract/log.js';
import { backoffDelayMs, type BackoffPolicy } from '../../core/jobs/backoff.js';
import type { AriConnection, AriConnectionEvents } from './ari-client-adapter.js';
import { AriRequestError, type AriEvent, type AriRest } from './types.js';

export type LinkState = 'connecting' | 'connected' | 'reconnecting' | 'down' | 'stopped';

export interface AriLinkOptions {
  /** Opens one connection (ari-client in production). */
  connect(events: AriConnectionEvents): Promise<AriConnection>;
  onEvent(e: AriEvent): void;
  /** Called after every (re)connection, first = false afterwards: the app reconciles its calls. */
  onReady(info: { first: boolean }): void;
  log: Pick<Log, 'info' | 'warn'>;
  /** Back-off between fresh connection attempts (defaults 500 ms doubling to 30 s). */
  backoff?: BackoffPolicy;
}

/**
 * Keeps one live ARI connection. ari-client retries a dropped socket 10 times (about 43 s)
 * and then gives up for good; the link then starts over with a fresh client, with a
 * back-off bounded at maxMs, for as long as the core runs.
 */
export class AriLink {
  state: LinkState = 'connecting';
  detail = '';
  /** How often ari-client gave up and the link started over (for health and tests). */
  freshStarts = 0;
  private connection: AriConnection | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private attempt = 0;
  private everConnected = false;
  private readonly backoff: BackoffPolicy;

  /** REST through whichever connection is current. */
  readonly rest: AriRest;

  constructor(private readonly opts: AriLinkOptions) {
    this.backoff = opts.backoff ?? { baseMs: 500, maxMs: 30_000 };
    const current = () => {
      if (!this.connection) throw new AriRequestError(`ARI is ${this.state}: no connection to Asterisk`);
      return this.connection.rest;
    };
    // Each method looks the connection up when called, so a session outlives a fresh client.
    this.rest = new Proxy({} as AriRest, {
      get: (_t, prop: keyof AriRest) => async (...args: unknown[]) => (current()[prop] as (...a: unknown[]) => Promise<unknown>)(...args),
    });
  }

  start(): void {
    void this.open();
  }

  stop(): void {
    this.state = 'stopped';
    clearTimeout(this.retryTimer);
    this.connection?.close();
    this.connection = undefined;
  }

  private async open(): Promise<void> {
    if (this.state === 'stopped') return;
    let conn: AriConnection | undefined;
    const events: AriConnectionEvents = {
      event: (e) => this.opts.onEvent(e),
      reconnecting: () => {
        if (this.connection !== conn) return;
        if (this.state !== 'reconnecting') this.opts.log.warn({}, 'ARI WebSocket lost; ari-client is reconnecting');
        this.set('reconnecting', 'events socket lost, retrying');
      },
      reconnected: () => {
        if (this.connection !== conn) return;
        this.set('connected', '');
        this.opts.log.info({}, 'ARI WebSocket back');
        this.opts.onReady({ first: false });
      },
      gaveUp: () => {
        if (this.connection !== conn) return;
        this.opts.log.warn({}, 'ari-client gave up reconnecting (WebSocketMaxRetries); starting a fresh connection');
        conn?.close();
        this.connection = undefined;
        this.freshStarts += 1;
        this.set('down', 'ari-client gave up; reconnecting from scratch');
        this.schedule();
      },
      warn: (msg, detail) => this.opts.log.warn({ detail }, msg),
    };
    try {
      this.set(this.everConnected ? 'reconnecting' : 'connecting', this.detail);
      conn = await this.opts.connect(events);
    } catch (err) {
      this.set('down', `cannot reach Asterisk: ${err instanceof Error ? err.message : String(err)}`);
      if (this.attempt === 0) this.opts.log.warn({ err }, 'cannot connect to ARI; will keep trying');
      return this.schedule();
    }
    if (this.isStopped()) return conn.close();
    this.connection = conn;
    this.attempt = 0;
    const first = !this.everConnected;
    this.everConnected = true;
    this.set('connected', '');
    this.opts.log.info({ first }, 'ARI connected');
    this.opts.onReady({ first });
  }

  /** A method, not a field read: stop() may have run while awaiting, which narrowing cannot see. */
  private isStopped(): boolean {
    return this.state === 'stopped';
  }

  private schedule(): void {
    if (this.state === 'stopped') return;
    this.attempt += 1;
    const delay = backoffDelayMs(this.attempt, this.backoff);
    this.retryTimer = setTimeout(() => void this.open(), delay);
  }

  private set(state: LinkState, detail: string): void {
    if (this.state === 'stopped') return;
    this.state = state;
    this.detail = detail;
  }
}
