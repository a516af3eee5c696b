// The PBX port: the few ARI operations and event fields the call flows use, shaped by the
// product rather than by any ARI library (the core's own clients in pbx/ari/ implement it).

export interface ChannelSnapshot {
  id: string;
  name: string;
  state: string;
  caller: { name: string; number: string };
  dialplan: { context: string; exten: string; app_name?: string; app_data?: string };
  /** Asterisk time the channel was created, e.g. 2024-01-01T12:00:00.123+0000. */
  creationtime: string;
}

export interface PlaybackSnapshot {
  id: string;
  state: 'queued' | 'playing' | 'continuing' | 'done' | 'failed';
  media_uri: string;
  target_uri: string;
}

export interface RecordingSnapshot {
  name: string;
  state: 'queued' | 'recording' | 'paused' | 'done' | 'failed' | 'canceled';
  target_uri: string;
  /** Whole seconds. */
  duration?: number;
  /** Whole seconds of sound; only reported when maxSilenceSeconds was set. */
  talking_duration?: number;
  silence_duration?: number;
  cause?: string;
}

/** An ARI event as it came over /ari/events (only the fields the flows read are typed). */
export interface AriEvent {
  type: string;
  timestamp: string;
  application?: string;
  args?: string[];
  channel?: ChannelSnapshot;
  playback?: PlaybackSnapshot;
  recording?: RecordingSnapshot;
  digit?: string;
  cause?: number;
  duration?: number;
}

export interface RecordOptions {
  name: string;
  format: 'wav';
  maxDurationSeconds: number;
  maxSilenceSeconds: number;
  ifExists: 'fail' | 'overwrite' | 'append';
  beep: boolean;
  terminateOn: 'none' | 'any' | '*' | '#';
}

/** POST /channels: a call out, placed into the Stasis app `app` when it is answered. */
interface OriginateOptions {
  endpoint: string;
  app: string;
  appArgs: string;
  callerId: string;
  /** Seconds to ring before Asterisk gives up. */
  timeoutSeconds: number;
  channelId: string;
  /** Channel variables set before the call is placed, e.g. PJSIP_HEADER(add,…) for the INVITE's headers. */
  variables?: Record<string, string>;
}

type HangupReason = 'normal' | 'busy' | 'congestion' | 'no_answer' | 'unallocated' | 'rejected';

/** ARI REST as the flows use it. Every call settles within its timeout. */
export interface AriRest {
  answer(channelId: string): Promise<void>;
  play(channelId: string, media: string, playbackId: string): Promise<void>;
  stopPlayback(playbackId: string): Promise<void>;
  record(channelId: string, opts: RecordOptions): Promise<void>;
  hangup(channelId: string, reason?: HangupReason): Promise<void>;
  /** null when Asterisk no longer has the channel. */
  getChannel(channelId: string): Promise<ChannelSnapshot | null>;
  /** A channel variable or dialplan function read (GET /channels/{id}/variable); null when it has no value. */
  getVariable(channelId: string, variable: string): Promise<string | null>;
  /** Ids of the channels currently in the Stasis app (kept by Asterisk across socket drops). */
  appChannelIds(app: string): Promise<string[]>;
  /** Sets a dialplan global variable (POST /asterisk/variable); an empty value clears it. */
  setGlobalVariable(variable: string, value: string): Promise<void>;
  /** Asks Asterisk to send the app only these event types (pbx/ari/event-filter.ts). */
  filterEvents(app: string, types: readonly string[]): Promise<void>;
  getPlayback(playbackId: string): Promise<PlaybackSnapshot | null>;
  getLiveRecording(name: string): Promise<RecordingSnapshot | null>;
  storedRecordingExists(name: string): Promise<boolean>;
  fetchStoredRecording(name: string): Promise<Buffer>;
  deleteStoredRecording(name: string): Promise<void>;
  /** Places a call; its events (ringing, answer as StasisStart, hang-up cause) arrive on the app. */
  originate(opts: OriginateOptions): Promise<void>;
  createBridge(bridgeId: string): Promise<void>;
  addToBridge(bridgeId: string, channelIds: string[]): Promise<void>;
  removeFromBridge(bridgeId: string, channelIds: string[]): Promise<void>;
  /** Gone already counts as done. */
  destroyBridge(bridgeId: string): Promise<void>;
}

/** Any refusal from ARI; `status` is the HTTP status when Asterisk answered at all. */
export class AriRequestError extends Error {
  override name = 'AriRequestError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The resource is gone (ARI 404): a hung-up channel, a finished playback. */
export class AriNotFoundError extends AriRequestError {
  override name = 'AriNotFoundError';
}

/** ARI did not answer in time. */
export class AriTimeoutError extends Error {
  override name = 'AriTimeoutError';
  constructor(
    message: string,
    /** How long the answer was waited for (after sending). */
    readonly waitedMs?: number,
    /** False when the request never left (every socket busy): Asterisk cannot carry it out late. */
    readonly sent = true,
  ) {
    super(message);
  }
}
