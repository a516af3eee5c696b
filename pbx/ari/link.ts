import type { Log } from '../../contract/log.js';
import type { AriEventsHandlers, AriEventsSocket } from './events-socket.js';
import { AriRequestError, type AriEvent, type AriRest } from './types.js';

export type LinkState = 'connecting' | 'connected' | 'reconnecting' | 'down' | 'stopped';

export interface AriLinkOptions {
  /** Opens the events socket, which retries by itself until closed (openAriEvents in production). */
  openEvents(handlers: AriEventsHandlers): AriEventsSocket;
  /** ARI REST (pbx/ari/rest-client.ts in production): one client for the link's lifetime. */
  rest: AriRest;
  onEvent(e: AriEvent): void;
  /** Called after every (re)connection, first = false afterwards: the app reconciles its calls. */
  onReady(info: { first: boolean }): void;
  log: Pick<Log, 'info' | 'warn'>;
}

/**
 * The core's one link to Asterisk: the events socket (the Stasis app's registration) and REST.
 * Its state is what /healthz shows under `pbx`: only `connected` is healthy; `detail` says why
 * not, in the operator's words. Each new reason is logged once, not on every attempt, so a box
 * left with a wrong ARI_PASSWORD says so without filling its log.
 */
export class AriLink {
  state: LinkState = 'connecting';
  detail = '';
  /** How often the socket was lost and opened again (for health and tests). */
  reconnects = 0;
  private socket: AriEventsSocket | undefined;
  private everConnected = false;

  /**
   * REST while the link has (or had, and is reopening) a socket. Before the first open there is
   * no Asterisk to talk to, so a request fails at once instead of waiting for its timeout; while
   * reopening, REST still goes out: the calls in progress on Asterisk carry on meanwhile.
   */
  readonly rest: AriRest;

  constructor(private readonly opts: AriLinkOptions) {
    const usable = () => {
      if (this.state !== 'connected' && this.state !== 'reconnecting') throw new AriRequestError(`ARI is ${this.state}: no connection to Asterisk`);
      return opts.rest;
    };
    this.rest = new Proxy({} as AriRest, {
      get: (_t, prop: keyof AriRest) => async (...args: unknown[]) => (usable()[prop] as (...a: unknown[]) => Promise<unknown>)(...args),
    });
  }

  start(): void {
    if (this.socket || this.state === 'stopped') return;
    this.socket = this.opts.openEvents({
      open: () => this.opened(),
      down: (failure, news) => this.lost(failure.message, news),
      event: (e) => this.opts.onEvent(e),
      warn: (msg, detail) => this.opts.log.warn({ detail }, msg),
    });
  }

  stop(): void {
    this.state = 'stopped';
    this.socket?.close();
    this.socket = undefined;
  }

  private opened(): void {
    if (this.state === 'stopped') return;
    const first = !this.everConnected;
    if (!first) this.reconnects += 1;
    this.everConnected = true;
    this.set('connected', '');
    this.opts.log.info({ first }, first ? 'ARI connected' : 'ARI WebSocket back');
    this.opts.onReady({ first });
  }

  private lost(why: string, news: boolean): void {
    if (this.state === 'stopped') return;
    this.set(this.everConnected ? 'reconnecting' : 'down', why);
    if (news) this.opts.log.warn({}, `ARI not connected: ${why}. Retrying with back-off; new calls cannot reach the core until then`);
  }

  private set(state: LinkState, detail: string): void {
    if (this.state === 'stopped') return;
    this.state = state;
    this.detail = detail;
  }
}
