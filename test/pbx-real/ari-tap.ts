import http from 'node:http';
import type net from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

// A logging proxy between the core and an ARI server (the simulator or a real Asterisk):
// every REST request and every event the core receives passes through it unchanged and is
// written down in order. The differential test compares the two logs call by call.

export interface TapEntry {
  kind: 'request' | 'event';
  /** "POST /channels/{id}/play" for requests, the event type for events. */
  what: string;
  /** The channel the entry is about (path segment, query channel, or the event's channel/target). */
  channel?: string;
  status?: number;
  /**
   * What the entry says about the call, for reading a call's story afterwards: the caller's
   * number (StasisStart), the media and state (playbacks, and the play request's media),
   * the recording's state and Asterisk's figures in seconds (recordings).
   */
  detail?: string;
  /** performance.now() when the proxy saw it (request: sent upstream; event: arrived). */
  at: number;
}

export interface AriTap {
  url: string;
  log: TapEntry[];
  close(): Promise<void>;
}

export interface AriTapOptions {
  /**
   * Requests Asterisk carries out but whose answer reaches the core too late (an overloaded
   * box): each one matched is sent on at once and its answer withheld until the core gives up.
   */
  answerTooLate?: (entry: Omit<TapEntry, 'at'>) => boolean;
  /** An event the core gets late (a loaded box): passed on when the returned promise settles; later events are not held up. */
  holdEvent?: (event: { type: string; playback?: { media_uri?: string } }) => Promise<unknown> | undefined;
}

export async function startAriTap(target: string, opts: AriTapOptions = {}): Promise<AriTap> {
  const log: TapEntry[] = [];
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const sentAt = performance.now();
      const fwd = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: `${upstream.hostname}:${upstream.port}` } },
        (up) => {
          const entry = describeRequest(req.method!, req.url!);
          if (entry) log.push({ ...entry, status: up.statusCode, at: sentAt });
          if (entry && opts.answerTooLate?.(entry)) {
            up.resume(); // the answer is read from Asterisk and never passed on
            return;
          }
          res.writeHead(up.statusCode!, up.headers);
          up.pipe(res);
        },
      );
      fwd.on('error', () => res.destroy());
      fwd.end(Buffer.concat(chunks));
    });
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket: net.Socket, head) => {
    const up = new WebSocket(`ws://${upstream.host}${req.url}`, req.headers['sec-websocket-protocol']?.split(',').map((p) => p.trim()));
    up.once('open', () =>
      wss.handleUpgrade(req, socket, head, (client) => {
        up.on('message', (data) => {
          const e = JSON.parse(String(data)) as TappedEvent;
          const target = e.playback?.target_uri ?? e.recording?.target_uri;
          const held = opts.holdEvent?.(e);
          const pass = () => {
            log.push({ kind: 'event', what: e.type, channel: e.channel?.id ?? target?.replace(/^channel:/, ''), detail: eventDetail(e), at: performance.now() });
            if (client.readyState === WebSocket.OPEN) client.send(String(data));
          };
          if (held) void held.finally(pass);
          else pass();
        });
        up.on('close', () => client.close());
        client.on('close', () => up.close());
      }),
    );
    up.once('error', () => socket.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise((resolve) => {
        for (const c of wss.clients) c.terminate();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface TappedEvent {
  type: string;
  channel?: { id: string; caller?: { number?: string } };
  playback?: { target_uri?: string; media_uri?: string; state?: string };
  recording?: { target_uri?: string; name?: string; state?: string; duration?: number; talking_duration?: number; silence_duration?: number };
}

function eventDetail(e: TappedEvent): string | undefined {
  if (e.type === 'StasisStart') return e.channel?.caller?.number;
  if (e.playback) return `${e.playback.media_uri} ${e.playback.state}`;
  const r = e.recording;
  if (r) return `${r.name} ${r.state}${r.duration === undefined ? '' : ` duration ${r.duration} talking ${r.talking_duration} silence ${r.silence_duration}`}`;
  return undefined;
}

/** "POST /channels/{id}/play" with the channel named; undefined for the api-docs the client loads. */
function describeRequest(method: string, url: string): Omit<TapEntry, 'at'> | undefined {
  const u = new URL(url, 'http://x');
  if (!u.pathname.startsWith('/ari/') || u.pathname.startsWith('/ari/api-docs')) return undefined;
  const parts = u.pathname.slice('/ari'.length).split('/').map(decodeURIComponent);
  let channel: string | undefined;
  const template = parts.map((p, i) => {
    const parent = parts[i - 1];
    if (parent === 'channels' && p !== 'externalMedia' && i === 2) return (channel = p), '{id}';
    if (parent === 'playbacks' || parent === 'bridges' || parent === 'stored' || parent === 'live' || parent === 'applications') return '{id}';
    return p;
  });
  const media = u.searchParams.getAll('media').join(',');
  return { kind: 'request', what: `${method} ${template.join('/')}`, channel: channel ?? u.searchParams.get('channel') ?? undefined, ...(media ? { detail: media } : {}) };
}
