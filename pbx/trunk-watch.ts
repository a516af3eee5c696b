import type { FastifyBaseLogger } from 'fastify';
import { CALL_MY_LINE_ENDPOINT_PREFIX } from '../core/ports/call-my-line.js';
import { LIVE_LINE_ENDPOINT_PREFIX } from '../core/ports/live-listen.js';
import type { HealthReport } from '../core/ports/pbx-host.js';
import type { AriHttp } from './ari/http.js';
import { AriNotFoundError } from './ari/types.js';

// Whether the box's SIP trunk can bring calls in (issue 44's line state), as Asterisk knows it.
// ARI has no registrations resource, and the events it sends carry no registration state; the
// state Asterisk publishes for each outbound registration (Registered, Rejected, Unregistered)
// is kept by res_prometheus and served at /metrics on ARI's own HTTP server, behind ARI's
// credentials (deploy/asterisk/etc/prometheus.conf). Which trunks exist is ARI's PJSIP endpoint
// list, less the console's Call my line endpoints. Read every few seconds while ARI is connected.

/** How often the trunk is looked at: the admin's "since" is right to within this. */
const TRUNK_POLL_MS = 5_000;

/** One outbound registration as res_prometheus reports it. */
interface Registration {
  /** The registration's client_uri (sip:account@provider). */
  account: string;
  /** The registrar's server_uri (sip:provider). */
  server: string;
  status: 'Unregistered' | 'Registered' | 'Rejected';
}

const STATUS_BY_VALUE = ['Unregistered', 'Registered', 'Rejected'] as const;
const REGISTRATION_LINE = /^asterisk_pjsip_outbound_registration_status\{([^}]*)\}\s+(\d+)/gm;

/** Every `asterisk_pjsip_outbound_registration_status` line of a Prometheus text page (0 Unregistered, 1 Registered, 2 Rejected). */
function registrationsIn(metrics: string): Registration[] {
  return [...metrics.matchAll(REGISTRATION_LINE)].map((m) => {
    const labels = Object.fromEntries([...m[1]!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    return { account: labels.username ?? '', server: labels.domain ?? '', status: STATUS_BY_VALUE[Number(m[2])] ?? 'Unregistered' };
  });
}

/** sip:provider.example:5060 → provider.example:5060: what an operator typed in SIP_REG_SERVER. */
const bare = (uri: string) => uri.replace(/^sips?:/, '');

/** The trunk's state in plain words from what Asterisk reported; `notSetUp` when there is no trunk at all. */
function trunkReport(trunks: string[], registrations: Registration[] | { error: string }): HealthReport {
  if (trunks.length === 0) return { ok: false, notSetUp: true, detail: 'No SIP trunk is set up on this box (SIP_TRUNKS is empty): no call can reach it' };
  const named = `${trunks.length === 1 ? 'Trunk' : 'Trunks'} ${trunks.join(', ')}`;
  if ('error' in registrations) return { ok: true, detail: `${named} set up; its registration is not known (${registrations.error})` };
  const failing = registrations.filter((r) => r.status !== 'Registered');
  if (failing.length > 0)
    return {
      ok: false,
      detail: failing
        .map((r) => `Not registered with ${bare(r.server)} (${r.status}): the provider cannot send calls to this box. Asterisk keeps trying; if it lasts, check SIP_REG_SERVER, SIP_REG_USERNAME and SIP_REG_PASSWORD with the provider`)
        .join('. '),
    };
  if (registrations.length > 0) return { ok: true, detail: `Registered with ${registrations.map((r) => bare(r.server)).join(', ')}: calls can reach this box` };
  return { ok: true, detail: `${named} set up (no registration: the provider sends calls to this box's address)` };
}

export class TrunkWatch {
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly opts: {
      http: AriHttp;
      /** Asterisk's /metrics (res_prometheus), on ARI's HTTP server. */
      metricsUrl: string;
      username: string;
      password: string;
      connected: () => boolean;
      /** Each state read from Asterisk (services.health's `trunk`): nothing is published until Asterisk has answered once. */
      publish: (report: HealthReport) => void;
      log: FastifyBaseLogger;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.poll(), TRUNK_POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Asks Asterisk now (also on each ARI (re)connection, so the first state does not wait a tick). */
  async poll(): Promise<void> {
    if (this.polling || !this.opts.connected()) return;
    this.polling = true;
    try {
      // Asterisk answers 404 "No Endpoints found" when PJSIP has none: no trunk.
      const endpoints = await this.opts.http.json<Array<{ resource: string }>>('GET', '/endpoints/PJSIP').catch((err: unknown) => {
        if (err instanceof AriNotFoundError) return [];
        throw err;
      });
      const trunks = trunksAmong(endpoints.map((e) => e.resource));
      this.opts.publish(trunkReport(trunks, await this.registrations()));
    } catch (err) {
      // A slow or refused ARI request says nothing about the trunk: the last state stands (the
      // phone system's own state covers Asterisk being away).
      this.opts.log.debug({ err }, 'could not read the trunk state from Asterisk; keeping the last one');
    } finally {
      this.polling = false;
    }
  }

  private async registrations(): Promise<Registration[] | { error: string }> {
    const authorization = `Basic ${Buffer.from(`${this.opts.username}:${this.opts.password}`).toString('base64')}`;
    try {
      const res = await fetch(this.opts.metricsUrl, { headers: { authorization }, signal: AbortSignal.timeout(5_000) });
      if (!res.ok) return { error: `Asterisk's /metrics answered ${res.status}: load res_prometheus with prometheus.conf as deploy/asterisk does` };
      return registrationsIn(await res.text());
    } catch (err) {
      return { error: `Asterisk's /metrics did not answer: ${(err as Error).message}` };
    }
  }
}

/** The browsers' one-call lines (Call my line's, a listen's or take-over's) are PJSIP endpoints too, but never a trunk. */
const BROWSER_LINE_PREFIXES = [CALL_MY_LINE_ENDPOINT_PREFIX, LIVE_LINE_ENDPOINT_PREFIX];

/** Asterisk's PJSIP endpoints that are trunks: all but the browsers' lines. */
export function trunksAmong(endpoints: readonly string[]): string[] {
  return endpoints.filter((name) => !BROWSER_LINE_PREFIXES.some((prefix) => name.startsWith(prefix)));
}
