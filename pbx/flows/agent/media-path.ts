import dns from 'node:dns/promises';
import net from 'node:net';
import type { MediaFormat } from '../../media/codecs.js';
import { PacedPlayer } from '../../media/paced-player.js';
import { RtpEndpoint } from '../../media/rtp-endpoint.js';
import type { FlowContext } from '../types.js';
import type { Cleanup } from './cleanup.js';
import type { AriMediaRest } from './media-rest.js';

// The agent call's media path: the caller bridged with an externalMedia (RTP) channel to our
// own RTP endpoint, the bridge recorded for the whole call.

export interface RtpSettings {
  /** Local address the RTP socket binds to. */
  bindHost: string;
  /** Address Asterisk reaches it on (external_host), when it differs (containers, NAT). */
  advertiseHost?: string;
  format: MediaFormat;
}

export interface MediaPath {
  endpoint: RtpEndpoint;
  player: PacedPlayer;
}

/** The agent's bridge recording name on Asterisk: the same as a voicemail's, one per call row. */
export const agentRecordingName = (callId: number) => `call-${callId}`;

/** The agent's externalMedia channel for a caller's channel: a take-over (pbx/live-control) hangs it up to take the agent off the call. */
export const agentMediaChannelId = (callerChannelId: string) => `agent-media-${callerChannelId}`;

/** Asterisk is given an IP address for external_host: a name is resolved here, where it is known. */
async function asAddress(host: string): Promise<string> {
  if (net.isIP(host)) return host;
  return (await dns.lookup(host, { family: 4 })).address;
}

/**
 * Sets the path up step by step, each step's undo on `cleanup`; throws when a step fails
 * (what was set up so far is the caller's to undo, with `cleanup.run()`).
 */
export async function openMediaPath(
  deps: { media: AriMediaRest; rtp: RtpSettings },
  ctx: Pick<FlowContext, 'session' | 'callId'>,
  bridgeId: string,
  cleanup: Cleanup,
): Promise<MediaPath> {
  const endpoint = await RtpEndpoint.open({ format: deps.rtp.format, host: deps.rtp.bindHost });
  cleanup.push(() => endpoint.close());
  const player = new PacedPlayer({ frameSamples: endpoint.info.frameSamples, send: (f) => endpoint.sendFrame(f) });
  cleanup.push(() => player.close());
  const port = endpoint.address.split(':').pop();
  const ext = await deps.media.externalMedia({
    externalHost: `${await asAddress(deps.rtp.advertiseHost ?? deps.rtp.bindHost)}:${port}`,
    format: deps.rtp.format,
    channelId: agentMediaChannelId(ctx.session.channelId),
  });
  cleanup.push(() => deps.media.hangupChannel(ext.id));
  if (ext.localAddress) endpoint.setRemote(ext.localAddress.host, ext.localAddress.port);
  await deps.media.createBridge(bridgeId);
  cleanup.push(() => deps.media.destroyBridge(bridgeId));
  await deps.media.addToBridge(bridgeId, [ctx.session.channelId, ext.id]);
  await deps.media.recordBridge(bridgeId, agentRecordingName(ctx.callId));
  return { endpoint, player };
}

/**
 * The longest the greeting waits for the bridge's media to flow. Normally ~0.6 s; a loaded box
 * can take over 2 s, and a greeting started sooner loses its first words (the disclosure's
 * "Hello, you've reached…"). A phone that sends no audio at all until spoken to is the case
 * this bound is for.
 */
export const MEDIA_READY_MAX_MS = 4000;

/** Resolves true on the bridge's first frame, false when `maxMs` passed without one. */
export function firstFrame(endpoint: RtpEndpoint, maxMs: number): Promise<boolean> {
  if (endpoint.packetsIn > 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => (clearTimeout(timer), off(), resolve(ready));
    const timer = setTimeout(() => done(false), maxMs);
    const off = endpoint.onFrame(() => done(true));
  });
}
