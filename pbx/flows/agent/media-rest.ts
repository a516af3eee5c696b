// The ARI operations the agent needs beyond the flows' AriRest port: an externalMedia
// channel, a mixing bridge and a bridge recording. A thin typed client over ARI's REST
// API (shared/ari/NOTES.md: "a thin typed client over the same REST API could replace
// ari-client"), so the pbx port stays as it is. Every request has its own timeout: an
// unreachable Asterisk must not hang a call.

export interface AriMediaConfig {
  url: string;
  username: string;
  password: string;
  app: string;
  requestTimeoutMs?: number;
}

export interface ExternalMediaChannel {
  id: string;
  name: string;
  /** Where Asterisk sends the RTP from (channelvars UNICASTRTP_LOCAL_ADDRESS/PORT). */
  localAddress?: { host: string; port: number };
}

export interface AriMediaRest {
  externalMedia(opts: { externalHost: string; format: 'slin16' | 'ulaw'; channelId?: string }): Promise<ExternalMediaChannel>;
  createBridge(bridgeId: string): Promise<void>;
  addToBridge(bridgeId: string, channelIds: string[]): Promise<void>;
  recordBridge(bridgeId: string, name: string): Promise<void>;
  destroyBridge(bridgeId: string): Promise<void>;
  hangupChannel(channelId: string): Promise<void>;
}

export class AriMediaError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AriMediaError';
  }
}

export function createAriMediaRest(cfg: AriMediaConfig, fetchImpl: typeof fetch = fetch): AriMediaRest {
  const auth = `Basic ${Buffer.from(`${cfg.username}:${cfg.password}`).toString('base64')}`;
  const base = `${cfg.url.replace(/\/+$/, '')}/ari`;

  async function call(method: string, path: string, query: Record<string, string | undefined> = {}): Promise<any> {
    const qs = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)).toString();
    let res: Response;
    try {
      res = await fetchImpl(`${base}${path}${qs ? `?${qs}` : ''}`, {
        method,
        headers: { authorization: auth },
        signal: AbortSignal.timeout(cfg.requestTimeoutMs ?? 5000),
      });
    } catch (err) {
      throw new AriMediaError(`ARI ${method} ${path}: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // not JSON
      }
      throw new AriMediaError(`ARI ${method} ${path} answered ${res.status}: ${message}`, res.status);
    }
    return text ? JSON.parse(text) : undefined;
  }

  return {
    async externalMedia({ externalHost, format, channelId }) {
      const ch = await call('POST', '/channels/externalMedia', {
        app: cfg.app,
        external_host: externalHost,
        format,
        encapsulation: 'rtp',
        transport: 'udp',
        direction: 'both',
        channelId,
      });
      const vars = (ch?.channelvars ?? {}) as Record<string, string>;
      const host = vars.UNICASTRTP_LOCAL_ADDRESS;
      const port = Number(vars.UNICASTRTP_LOCAL_PORT);
      return { id: ch.id, name: ch.name, localAddress: host && port ? { host, port } : undefined };
    },
    async createBridge(bridgeId) {
      await call('POST', `/bridges/${encodeURIComponent(bridgeId)}`, { type: 'mixing', name: bridgeId });
    },
    async addToBridge(bridgeId, channelIds) {
      await call('POST', `/bridges/${encodeURIComponent(bridgeId)}/addChannel`, { channel: channelIds.join(',') });
    },
    async recordBridge(bridgeId, name) {
      await call('POST', `/bridges/${encodeURIComponent(bridgeId)}/record`, { name, format: 'wav', ifExists: 'overwrite', beep: 'false', terminateOn: 'none' });
    },
    async destroyBridge(bridgeId) {
      await call('DELETE', `/bridges/${encodeURIComponent(bridgeId)}`).catch((err) => {
        if (!(err instanceof AriMediaError && err.status === 404)) throw err;
      });
    },
    async hangupChannel(channelId) {
      await call('DELETE', `/channels/${encodeURIComponent(channelId)}`, { reason: 'normal' }).catch((err) => {
        if (!(err instanceof AriMediaError && err.status === 404)) throw err;
      });
    },
  };
}
