import ari from 'ari-client';
import { AriNotFoundError, AriRequestError, type AriEvent, type AriRest, type ChannelSnapshot, type PlaybackSnapshot, type RecordingSnapshot } from './types.js';
import { withTimeout } from './with-timeout.js';

// The one module that knows ari-client 2.2.0. Its faults on Node 20 (shared/ari/NOTES.md)
// are contained here: every REST call gets a timeout, unknown event types are dropped
// before ari-client's handler throws on them, StoredRecording#getStoredFile is never used,
// and WebSocketMaxRetries is reported so the link can start over.

export interface AriConnectOptions {
  url: string;
  username: string;
  password: string;
  app: string;
  /** Per REST call (default 5 s). */
  requestTimeoutMs?: number;
  /** For loading the API declarations (default 15 s). */
  connectTimeoutMs?: number;
}

export interface AriConnectionEvents {
  event(e: AriEvent): void;
  /** The socket is up again after ari-client reconnected it: events in between are lost. */
  reconnected(): void;
  /** ari-client is retrying the socket. */
  reconnecting(): void;
  /** ari-client stopped retrying (WebSocketMaxRetries): this connection is dead. */
  gaveUp(): void;
  /** Something ari-client would have crashed on, handled. */
  warn(msg: string, detail?: unknown): void;
}

export interface AriConnection {
  rest: AriRest;
  close(): void;
}

/** The slice of ari-client's dynamic Client we use (built at runtime from the Swagger files). */
interface RawClient {
  on(event: string, fn: (...args: any[]) => void): void;
  removeAllListeners(): void;
  start(app: string): Promise<void>;
  stop(): void;
  _ws?: RawSocket & { __guarded?: boolean };
  _swagger: { apis: { events: { models: Record<string, unknown> } } };
  channels: Record<string, (params: Record<string, unknown>) => Promise<any>>;
  playbacks: Record<string, (params: Record<string, unknown>) => Promise<any>>;
  recordings: Record<string, (params: Record<string, unknown>) => Promise<any>>;
  applications: Record<string, (params: Record<string, unknown>) => Promise<any>>;
}

interface RawSocket {
  listeners(event: string): Array<(...args: unknown[]) => void>;
  removeAllListeners(event: string): void;
  on(event: string, fn: (...args: unknown[]) => void): void;
}

/** ari-client rejects with Error(<raw response body>) and no status: classify by Asterisk's message. */
function classify(err: unknown, what: string): Error {
  const raw = err instanceof Error ? err.message : String(err);
  let message = raw;
  try {
    message = (JSON.parse(raw) as { message?: string }).message ?? raw;
  } catch {
    // not JSON: a transport error
  }
  if (/not found/i.test(message)) return new AriNotFoundError(`${what}: ${message}`);
  return new AriRequestError(`${what}: ${message}`);
}

/**
 * Plain data from ari-client's resource objects: they carry methods and a `_client`
 * back-reference (circular), so only public data fields are kept.
 */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key.startsWith('_') || typeof v === 'function' ? undefined : v))) as T;
}

export async function connectAri(opts: AriConnectOptions, on: AriConnectionEvents): Promise<AriConnection> {
  const requestTimeout = opts.requestTimeoutMs ?? 5000;
  const connectTimeout = opts.connectTimeoutMs ?? 15_000;
  const client = (await withTimeout(ari.connect(opts.url, opts.username, opts.password), connectTimeout, 'connect')) as unknown as RawClient;
  const knownEvents = new Set(Object.keys(client._swagger.apis.events.models));
  let closed = false;

  // ari-client looks each event's model up in events.json and throws a TypeError inside the
  // socket's message handler when the type is missing; the socket then stops handling
  // close frames. So on every (re)opened socket its message handler is replaced by ours:
  // unknown types are skipped, and known events go straight to the app as plain JSON
  // (ari-client's per-event resource objects are not needed and cost CPU per call).
  // ari-client keeps owning the socket's lifecycle (open, close, reconnect).
  const guardSocket = () => {
    const ws = client._ws;
    if (!ws || ws.__guarded) return;
    ws.__guarded = true;
    ws.removeAllListeners('message');
    ws.on('message', (data: unknown) => {
      let event: AriEvent;
      try {
        event = JSON.parse(String(data)) as AriEvent;
      } catch {
        return on.warn('ignored an ARI event that is not JSON');
      }
      if (!event?.type || !knownEvents.has(event.type)) return on.warn('ignored an ARI event type missing from events.json', { type: event?.type });
      if (closed) return;
      try {
        on.event(event);
      } catch (err) {
        on.warn('ARI event handling failed', { type: event.type, err });
      }
    });
  };

  let started = false;
  client.on('WebSocketConnected', () => {
    guardSocket();
    if (started && !closed) on.reconnected();
  });
  client.on('WebSocketReconnecting', () => !closed && on.reconnecting());
  client.on('WebSocketMaxRetries', () => !closed && on.gaveUp());
  client.on('error', (err: unknown) => on.warn('ari-client error', err));

  try {
    // start() settles by itself: open, or WebSocketMaxRetries after ~43 s. Abandoning it
    // sooner would leave ari-client retrying in the background, and a late success would
    // take the app's registration from our live socket. The bound only covers a socket
    // that hangs without ever failing.
    await withTimeout(client.start(opts.app), 60_000, 'events WebSocket');
  } catch (err) {
    closed = true;
    try {
      client.stop();
    } catch {
      // never opened
    }
    client.removeAllListeners();
    throw err;
  }
  started = true;

  const call = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await withTimeout(work(), requestTimeout, what);
    } catch (err) {
      if (err instanceof Error && err.name === 'AriTimeoutError') throw err;
      throw classify(err, what);
    }
  };
  const orNull = async <T>(work: Promise<T>): Promise<T | null> => {
    try {
      return await work;
    } catch (err) {
      if (err instanceof AriNotFoundError) return null;
      throw err;
    }
  };

  const rest: AriRest = {
    answer: (channelId) => call('answer', () => client.channels.answer!({ channelId })),
    play: (channelId, media, playbackId) => call('play', () => client.channels.play!({ channelId, media, playbackId })),
    stopPlayback: (playbackId) => call('stop playback', () => client.playbacks.stop!({ playbackId })),
    record: (channelId, o) => call('record', () => client.channels.record!({ channelId, ...o })),
    hangup: (channelId, reason = 'normal') => call('hangup', () => client.channels.hangup!({ channelId, reason })),
    getChannel: (channelId) => orNull(call('get channel', () => client.channels.get!({ channelId }).then((c) => plain<ChannelSnapshot>(c)))),
    appChannelIds: async (app) => {
      const found = await call('get application', () => client.applications.get!({ applicationName: app }));
      return (found as { channel_ids?: string[] }).channel_ids ?? [];
    },
    getPlayback: (playbackId) => orNull(call('get playback', () => client.playbacks.get!({ playbackId }).then((p) => plain<PlaybackSnapshot>(p)))),
    getLiveRecording: (name) =>
      orNull(call('get live recording', () => client.recordings.getLive!({ recordingName: name }).then((r) => plain<RecordingSnapshot>(r)))),
    storedRecordingExists: async (name) =>
      (await orNull(call('get stored recording', () => client.recordings.getStored!({ recordingName: name })))) !== null,
    // client.recordings.getStoredFile returns the bytes as a Buffer; StoredRecording#getStoredFile
    // JSON-parses the audio and crashes the process, so it is never used.
    fetchStoredRecording: (name) => call('fetch stored recording', () => client.recordings.getStoredFile!({ recordingName: name }) as Promise<Buffer>),
    deleteStoredRecording: (name) => call('delete stored recording', () => client.recordings.deleteStored!({ recordingName: name })),
  };

  return {
    rest,
    close() {
      if (closed) return;
      closed = true;
      try {
        client.stop();
      } catch {
        // the socket was already gone
      }
      client.removeAllListeners();
    },
  };
}
