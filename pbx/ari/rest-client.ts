import { eventFilterBody } from './event-filter.js';
import { seg, type AriHttp } from './http.js';
import { AriNotFoundError, type AriRest, type ChannelSnapshot, type PlaybackSnapshot, type RecordingSnapshot } from './types.js';

// The flows' AriRest port as plain ARI REST calls. Paths and parameters follow
// shared/ari/api-docs (channels.json, playbacks.json, recordings.json, applications.json);
// the ARI simulator checks every request against those same declarations.

async function orNull<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof AriNotFoundError) return null;
    throw err;
  }
}

export function createAriRest(http: AriHttp): AriRest {
  const ch = (id: string) => `/channels/${seg(id)}`;
  return {
    answer: (channelId) => http.json<void>('POST', `${ch(channelId)}/answer`),
    play: (channelId, media, playbackId) => http.json<void>('POST', `${ch(channelId)}/play`, { media, playbackId }),
    stopPlayback: (playbackId) => http.json<void>('DELETE', `/playbacks/${seg(playbackId)}`),
    record: (channelId, o) =>
      http.json<void>('POST', `${ch(channelId)}/record`, {
        name: o.name,
        format: o.format,
        maxDurationSeconds: o.maxDurationSeconds,
        maxSilenceSeconds: o.maxSilenceSeconds,
        ifExists: o.ifExists,
        beep: o.beep,
        terminateOn: o.terminateOn,
      }),
    hangup: (channelId, reason = 'normal') => http.json<void>('DELETE', ch(channelId), { reason }),
    getChannel: (channelId) => orNull(http.json<ChannelSnapshot>('GET', ch(channelId))),
    getVariable: async (channelId, variable) => (await orNull(http.json<{ value?: string }>('GET', `${ch(channelId)}/variable`, { variable })))?.value || null,
    appChannelIds: async (app) => (await http.json<{ channel_ids?: string[] }>('GET', `/applications/${seg(app)}`)).channel_ids ?? [],
    setGlobalVariable: (variable, value) => http.json<void>('POST', '/asterisk/variable', { variable, value }),
    filterEvents: (app, types) => http.json<void>('PUT', `/applications/${seg(app)}/eventFilter`, undefined, eventFilterBody(types)),
    getPlayback: (playbackId) => orNull(http.json<PlaybackSnapshot>('GET', `/playbacks/${seg(playbackId)}`)),
    getLiveRecording: (name) => orNull(http.json<RecordingSnapshot>('GET', `/recordings/live/${seg(name)}`)),
    storedRecordingExists: async (name) => (await orNull(http.json('GET', `/recordings/stored/${seg(name)}`))) !== null,
    fetchStoredRecording: (name) => http.bytes(`/recordings/stored/${seg(name)}/file`),
    deleteStoredRecording: (name) => http.json<void>('DELETE', `/recordings/stored/${seg(name)}`),
    originate: (o) =>
      http.json<void>('POST', '/channels', {
        endpoint: o.endpoint,
        app: o.app,
        appArgs: o.appArgs,
        callerId: o.callerId,
        timeout: o.timeoutSeconds,
        channelId: o.channelId,
      }, o.variables && Object.keys(o.variables).length > 0 ? { variables: o.variables } : undefined),
    createBridge: (bridgeId) => http.json<void>('POST', `/bridges/${seg(bridgeId)}`, { type: 'mixing', name: bridgeId }),
    addToBridge: (bridgeId, channelIds) => http.json<void>('POST', `/bridges/${seg(bridgeId)}/addChannel`, { channel: channelIds.join(',') }),
    removeFromBridge: (bridgeId, channelIds) => http.json<void>('POST', `/bridges/${seg(bridgeId)}/removeChannel`, { channel: channelIds.join(',') }),
    destroyBridge: async (bridgeId) => void (await orNull(http.json<void>('DELETE', `/bridges/${seg(bridgeId)}`))),
  };
}
