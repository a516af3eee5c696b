import { seg, type AriHttp, type Query } from '../../ari/http.js';
import { createAriRest } from '../../ari/rest-client.js';
import { AriNotFoundError } from '../../ari/types.js';
import type { MediaApp } from './media-app.js';

// The ARI operations the agent needs beyond the flows' AriRest port: an externalMedia
// channel, a mixing bridge and a bridge recording. Every request has its own timeout:
// an unreachable Asterisk must not hang a call.

interface ExternalMediaChannel {
  id: string;
  name: string;
  /** Where Asterisk sends the RTP from (channelvars UNICASTRTP_LOCAL_ADDRESS/PORT). */
  localAddress?: { host: string; port: number };
}

export interface AriMediaRest {
  /** A channel in the media app, ready to bridge: resolves only after its StasisStart. */
  externalMedia(opts: { externalHost: string; format: 'slin16' | 'ulaw'; channelId?: string }): Promise<ExternalMediaChannel>;
  createBridge(bridgeId: string): Promise<void>;
  addToBridge(bridgeId: string, channelIds: string[]): Promise<void>;
  recordBridge(bridgeId: string, name: string): Promise<void>;
  destroyBridge(bridgeId: string): Promise<void>;
  hangupChannel(channelId: string): Promise<void>;
}

/** Normally a few ms; the bound is for a media app whose events socket dropped meanwhile. */
const STASIS_START_MAX_MS = 5000;

/** Over the core's one ARI requester (pbx/ari/http.ts); the media app is the Stasis app its channels enter. */
export function createAriMediaRest(http: AriHttp, app: Pick<MediaApp, 'name' | 'whenInStasis'>): AriMediaRest {
  const call = <T = unknown>(method: 'POST' | 'DELETE', path: string, query?: Query) => http.json<T>(method, path, query);
  const gone = (err: unknown) => {
    if (!(err instanceof AriNotFoundError)) throw err;
  };

  const bridges = createAriRest(http);
  return {
    async externalMedia({ externalHost, format, channelId }) {
      const ch = await call<{ id: string; name: string; channelvars?: Record<string, string> }>('POST', '/channels/externalMedia', {
        app: app.name,
        external_host: externalHost,
        format,
        encapsulation: 'rtp',
        transport: 'udp',
        direction: 'both',
        channelId,
      });
      if (!(await app.whenInStasis(ch.id, STASIS_START_MAX_MS))) {
        await call('DELETE', `/channels/${seg(ch.id)}`, { reason: 'normal' }).catch(() => undefined);
        throw new Error(`externalMedia channel ${ch.id} did not enter ${app.name} within ${STASIS_START_MAX_MS} ms`);
      }
      const vars = (ch?.channelvars ?? {}) as Record<string, string>;
      const host = vars.UNICASTRTP_LOCAL_ADDRESS;
      const port = Number(vars.UNICASTRTP_LOCAL_PORT);
      return { id: ch.id, name: ch.name, localAddress: host && port ? { host, port } : undefined };
    },
    createBridge: bridges.createBridge,
    addToBridge: bridges.addToBridge,
    async recordBridge(bridgeId, name) {
      await call('POST', `/bridges/${seg(bridgeId)}/record`, { name, format: 'wav', ifExists: 'overwrite', beep: 'false', terminateOn: 'none' });
    },
    destroyBridge: bridges.destroyBridge,
    async hangupChannel(channelId) {
      await call('DELETE', `/channels/${seg(channelId)}`, { reason: 'normal' }).catch(gone);
    },
  };
}
