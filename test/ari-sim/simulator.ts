import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { planRecording, type CallerScript, type RecordingTimeline } from './caller-script.js';
import { resolveMedia } from './media.js';
import { asteriskTime, type ChannelJson, type LiveRecordingJson, type PlaybackJson } from './models.js';
import { SwaggerSpec, type MatchedCall } from './swagger.js';
import { encodeWav, parseWav, SLIN8 } from './wav.js';

export interface AriSimulatorOptions {
  username?: string;
  password?: string;
  /** `sound:<key>/<name>` plays `<dir>/<name>.wav`, e.g. { appliance: '$DATA_DIR/prompts' }. */
  soundDirs?: Record<string, string>;
  /** 1 = real time; 20 = simulated time runs twenty times faster. Event order is unchanged. */
  timeScale?: number;
}

export interface RestLogEntry {
  /** Real (not simulated) time the request arrived, for latency figures. */
  receivedAtMs: number;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  operation?: string;
}

export interface Violation {
  method: string;
  path: string;
  status: number;
  message: string;
}

/** What happened on one simulated call, for the test to assert on. */
export interface CallOutcome {
  channelId: string;
  hungUpBy: 'caller' | 'app';
  /** Media URIs whose playback actually started on this channel, in order. */
  heard: string[];
  /** Media that Asterisk could not find (PlaybackFinished state failed). */
  failedMedia: string[];
  answered: boolean;
  /** Event types delivered to the app for this channel, in order. */
  events: string[];
}

interface SimCommand {
  run(): void;
  abort(): void;
}

interface SimChannel {
  json: ChannelJson;
  app: string;
  script: CallerScript;
  queue: SimCommand[];
  current?: SimCommand;
  vars: Map<string, string>;
  outcome: CallOutcome;
  finished: (o: CallOutcome) => void;
  gone: boolean;
}

interface SimPlayback {
  json: PlaybackJson;
  channel: SimChannel;
  stop(): void;
}

interface SimLiveRecording {
  json: LiveRecordingJson;
  channel: SimChannel;
  stop(state: 'done' | 'canceled'): void;
}

const REALM = 'Asterisk REST Interface';
const FORMATS = new Set(['wav', 'sln']);

/** What Asterisk 20.17's chan_pjsip sets when a call's RTP ends (values are illustrative). */
const RTP_QOS_VARIABLES: Array<[string, string]> = [
  ['RTPAUDIOQOS', 'ssrc=1;themssrc=2;lp=0;rxjitter=0.000000;rxcount=500;txjitter=0.000000;txcount=500;rlp=0;rtt=0.000000;rxmes=86.0;txmes=86.0'],
  ['RTPAUDIOQOSJITTER', 'minrxjitter=0.000000;maxrxjitter=0.000000;avgrxjitter=0.000000;stdevrxjitter=0.000000;mintxjitter=0.000000;maxtxjitter=0.000000;avgtxjitter=0.000000;stdevtxjitter=0.000000;'],
  ['RTPAUDIOQOSLOSS', 'minrxlost=0.000000;maxrxlost=0.000000;avgrxlost=0.000000;stdevrxlost=0.000000;mintxlost=0.000000;maxtxlost=0.000000;avgtxlost=0.000000;stdevtxlost=0.000000;'],
  ['RTPAUDIOQOSRTT', 'minrtt=0.000000;maxrtt=0.000000;avgrtt=0.000000;stdevrtt=0.000000;'],
  ['RTPAUDIOQOSMES', 'minrxmes=86.0;maxrxmes=86.0;avgrxmes=86.0;stdevrxmes=0.0;mintxmes=86.0;maxtxmes=86.0;avgtxmes=86.0;stdevtxmes=0.0;'],
];

/**
 * An Asterisk ARI server double that speaks the real protocol: it serves the real Swagger
 * declarations (basePath rewritten per request, as res_ari does), validates every REST
 * call against them, and emits the real event shapes over /ari/events while simulating
 * channels, playbacks, recordings, DTMF, talk detection and hang-ups.
 */
export class AriSimulator {
  readonly spec = new SwaggerSpec();
  readonly spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ari-sim-spool-'));
  readonly asteriskId = '02:42:ac:11:00:02';
  readonly restLog: RestLogEntry[] = [];
  readonly violations: Violation[] = [];
  /** Every event raised, as the JSON text that goes over the wire (unless the app's event filter drops it). */
  readonly sentEvents: Array<Record<string, unknown>> = [];
  /** Real time (performance.now) each channel's StasisStart was sent, for latency figures. */
  readonly stasisStartSentAt = new Map<string, number>();
  url = '';

  private readonly user: string;
  private readonly pass: string;
  private readonly soundDirs: Record<string, string>;
  private readonly timeScale: number;
  // Asterisk closes an idle kept-alive HTTP session after session_keep_alive, 15 s by default.
  private readonly server = Object.assign(
    http.createServer((req, res) => void this.handle(req, res)),
    { keepAliveTimeout: 15_000 },
  );
  private readonly wss = new WebSocketServer({ noServer: true, handleProtocols: (p) => (p.has('ari') ? 'ari' : false) });
  private readonly sockets = new Map<WebSocket, string[]>();
  /** Dialplan globals set over ARI (POST /asterisk/variable); the simulator has no dialplan to read them. */
  readonly globals = new Map<string, string>();
  /** PUT /applications/{app}/eventFilter, per app: the types allowed (empty: all) and disallowed. */
  private readonly filters = new Map<string, { allowed: string[]; disallowed: string[] }>();
  private readonly channels = new Map<string, SimChannel>();
  private readonly playbacks = new Map<string, SimPlayback>();
  private readonly liveRecordings = new Map<string, SimLiveRecording>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly held = new Set<http.ServerResponse>();
  private readonly realEpoch = Date.now();
  private seq = 0;
  private wsRefused = false;
  /** Events WebSocket upgrades refused while dropWebSocket() was in force. */
  refusedUpgrades = 0;
  private restBlackhole = false;
  private readonly delays = new Map<string, number>();
  private readonly failures = new Map<string, { status: number; times: number; skip: number }>();

  constructor(opts: AriSimulatorOptions = {}) {
    this.user = opts.username ?? 'appliance';
    this.pass = opts.password ?? 'secret';
    this.soundDirs = opts.soundDirs ?? {};
    this.timeScale = opts.timeScale ?? 1;
    this.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
  }

  async start(port = 0): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    const addr = this.server.address();
    this.url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : port}`;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const ws of this.sockets.keys()) ws.terminate();
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    fs.rmSync(this.spoolDir, { recursive: true, force: true });
  }

  get credentials() {
    return { username: this.user, password: this.pass };
  }

  /** Simulated wall clock: starts now and runs timeScale times faster. */
  now(): number {
    return this.realEpoch + (Date.now() - this.realEpoch) * this.timeScale;
  }

  /** Like mounting a folder under /var/lib/asterisk/sounds/<key>: `sound:<key>/<name>` plays `<dir>/<name>.wav`. */
  mountSounds(key: string, dir: string): void {
    this.soundDirs[key] = dir;
  }

  /** True while some WebSocket is registered for the Stasis app. */
  appConnected(app: string): boolean {
    return [...this.sockets.values()].some((apps) => apps.includes(app));
  }

  // ---------------------------------------------------------------- faults

  /** Drops every events WebSocket (like a network cut) and refuses new ones until restored. */
  dropWebSocket(): void {
    this.wsRefused = true;
    for (const ws of this.sockets.keys()) ws.terminate();
    this.sockets.clear();
  }

  restoreWebSocket(): void {
    this.wsRefused = false;
  }

  /** REST requests are accepted but never answered (a hung or firewalled Asterisk). */
  setRestBlackhole(on: boolean): void {
    this.restBlackhole = on;
  }

  /** Answers one operation (e.g. "applications.get") only after `realMs`: a slow Asterisk. */
  delayOperation(operation: string, realMs: number): void {
    this.delays.set(operation, realMs);
  }

  /**
   * Answers `times` calls of one operation (e.g. "channels.record") with an Asterisk error,
   * after letting the first `skip` through (skip 1 on channels.play: the greeting plays, the beep fails).
   */
  failOperation(operation: string, status = 500, times = 1, skip = 0): void {
    this.failures.set(operation, { status, times, skip });
  }

  /** Sends an event of a type absent from events.json (e.g. from a newer Asterisk). */
  sendUnknownEvent(app: string, type = 'ChannelFutureFeature'): void {
    this.emit(app, type, { detail: 'not in events.json' });
  }

  // ---------------------------------------------------------------- callers

  /**
   * A call arrives on a trunk and the dialplan runs Stasis(app, did). Fails at once, as the
   * dialplan does, when no WebSocket is registered for the app.
   */
  call(opts: { app: string; from: string; did: string; script?: CallerScript; context?: string }): {
    channelId: string;
    done: Promise<CallOutcome>;
  } {
    if (!this.appConnected(opts.app)) throw new Error(`Stasis app ${opts.app} is not registered (no WebSocket)`);
    const created = this.now();
    const id = `${Math.floor(created / 1000)}.${++this.seq}`;
    let finished!: (o: CallOutcome) => void;
    const done = new Promise<CallOutcome>((r) => (finished = r));
    const channel: SimChannel = {
      json: {
        id,
        protocol_id: crypto.randomUUID(),
        name: `PJSIP/trunk-${this.seq.toString(16).padStart(8, '0')}`,
        state: 'Ring',
        caller: { name: '', number: opts.from },
        connected: { name: '', number: '' },
        accountcode: '',
        dialplan: {
          context: opts.context ?? 'from-trunk',
          exten: opts.did,
          priority: 1,
          app_name: 'Stasis',
          app_data: `${opts.app},${opts.did}`,
        },
        creationtime: asteriskTime(created),
        language: 'en',
      },
      app: opts.app,
      script: opts.script ?? {},
      queue: [],
      vars: new Map(),
      outcome: { channelId: id, hungUpBy: 'caller', heard: [], failedMedia: [], answered: false, events: [] },
      finished,
      gone: false,
    };
    this.channels.set(id, channel);
    this.emitFor(channel, 'StasisStart', { args: [opts.did], channel: channel.json });
    this.stasisStartSentAt.set(id, performance.now());
    const script = channel.script;
    if (script.hangupAfterMs !== undefined) this.later(script.hangupAfterMs, () => this.hangup(channel, 'caller'));
    this.later(script.patienceMs ?? 600_000, () => this.hangup(channel, 'caller'));
    return { channelId: id, done };
  }

  /** The caller hangs up now. */
  hangupCaller(channelId: string): void {
    const c = this.channels.get(channelId);
    if (c) this.hangup(c, 'caller');
  }

  /** Channels currently alive (in any app). */
  liveChannelIds(): string[] {
    return [...this.channels.keys()];
  }

  storedRecordingNames(): string[] {
    return fs.readdirSync(this.spoolDir).map((f) => f.replace(/\.[^.]+$/, ''));
  }

  // ---------------------------------------------------------------- events

  private later(simMs: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, simMs / this.timeScale);
    this.timers.add(t);
    return t;
  }

  private emit(app: string, type: string, payload: Record<string, unknown>): void {
    const event = { type, timestamp: asteriskTime(this.now()), ...payload, asterisk_id: this.asteriskId, application: app };
    const text = JSON.stringify(event);
    this.sentEvents.push(event);
    if (!this.allowedFor(app, type)) return;
    for (const [ws, apps] of this.sockets) {
      // Events raised while the app has no socket are lost, as in Asterisk.
      if (apps.includes(app) && ws.readyState === ws.OPEN) ws.send(text);
    }
  }

  /** Asterisk's rule (res/stasis/app.c): disallowed wins; an empty allowed list allows every type. */
  private allowedFor(app: string, type: string): boolean {
    const f = this.filters.get(app);
    if (!f) return true;
    if (f.disallowed.includes(type)) return false;
    return f.allowed.length === 0 || f.allowed.includes(type);
  }

  private emitFor(channel: SimChannel, type: string, payload: Record<string, unknown>): void {
    channel.outcome.events.push(type);
    this.emit(channel.app, type, payload);
  }

  // ---------------------------------------------------------------- channel behaviour

  private enqueue(channel: SimChannel, command: SimCommand): void {
    channel.queue.push(command);
    if (!channel.current) this.next(channel);
  }

  private next(channel: SimChannel): void {
    channel.current = channel.queue.shift();
    // Asterisk runs a channel's control commands one after another.
    if (channel.current) setImmediate(() => channel.current?.run());
  }

  private hangup(channel: SimChannel, by: 'caller' | 'app', cause = 16): void {
    if (channel.gone) return;
    channel.gone = true;
    channel.outcome.hungUpBy = by;
    // A caller's BYE tears the SIP channel's RTP down while it is still in the app: Asterisk
    // 20.17 then sets its five call-quality variables, each a ChannelVarset (seen on the real PBX).
    if (by === 'caller') {
      for (const [variable, value] of RTP_QOS_VARIABLES) this.emitFor(channel, 'ChannelVarset', { variable, value, channel: channel.json });
    }
    this.emitFor(channel, 'ChannelHangupRequest', { cause, channel: channel.json });
    channel.queue = [];
    channel.current?.abort();
    channel.current = undefined;
    // Media queued behind the current command never starts.
    for (const [id, p] of this.playbacks) if (p.channel === channel) this.playbacks.delete(id);
    for (const [name, r] of this.liveRecordings) if (r.channel === channel) this.liveRecordings.delete(name);
    this.emitFor(channel, 'StasisEnd', { channel: channel.json });
    this.channels.delete(channel.json.id);
    // No ChannelDestroyed: once a channel has left Stasis its app is no longer subscribed to it,
    // and Asterisk sends it nothing more (test/pbx-real/differential.test.ts).
    channel.finished(channel.outcome);
  }

  private startPlayback(channel: SimChannel, id: string, mediaList: string[]): PlaybackJson {
    const json: PlaybackJson = { id, media_uri: mediaList[0]!, target_uri: `channel:${channel.json.id}`, language: 'en', state: 'queued' };
    if (mediaList.length > 1) json.next_media_uri = mediaList[1];
    let timer: NodeJS.Timeout | undefined;
    let index = 0;
    const finish = (state: 'done' | 'failed') => {
      if (timer) clearTimeout(timer), this.timers.delete(timer);
      if (!this.playbacks.has(id)) return;
      this.playbacks.delete(id);
      json.state = state;
      this.emitFor(channel, 'PlaybackFinished', { playback: { ...json } });
      if (channel.current === command) this.next(channel);
    };
    const playItem = () => {
      const media = mediaList[index]!;
      const found = resolveMedia(media, this.soundDirs, this.spoolDir);
      if (!found.ok) {
        channel.outcome.failedMedia.push(media);
        return finish('failed');
      }
      channel.outcome.heard.push(media);
      if (channel.outcome.heard.length === 1 && channel.script.hangupIntoFirstSoundMs !== undefined) {
        this.later(channel.script.hangupIntoFirstSoundMs, () => this.hangup(channel, 'caller'));
      }
      timer = this.later(found.durationMs, () => {
        index += 1;
        if (index >= mediaList.length) return finish('done');
        json.media_uri = mediaList[index]!;
        json.next_media_uri = mediaList[index + 1];
        json.state = 'continuing';
        this.emitFor(channel, 'PlaybackContinuing', { playback: { ...json } });
        playItem();
      });
    };
    const command: SimCommand = {
      run: () => {
        json.state = 'playing';
        this.emitFor(channel, 'PlaybackStarted', { playback: { ...json } });
        playItem();
      },
      // A hang-up ends the playback: Asterisk reports it done.
      abort: () => finish('done'),
    };
    this.playbacks.set(id, { json, channel, stop: () => finish('done') });
    this.enqueue(channel, command);
    return { ...json };
  }

  private startRecording(
    channel: SimChannel,
    opts: { name: string; format: string; maxDurationSeconds: number; maxSilenceSeconds: number; ifExists: string; beep: boolean; terminateOn: string },
  ): LiveRecordingJson {
    const json: LiveRecordingJson = { name: opts.name, format: opts.format, target_uri: `channel:${channel.json.id}`, state: 'queued' };
    const file = path.join(this.spoolDir, `${opts.name}.${opts.format}`);
    let plan: RecordingTimeline | undefined;
    let startedAt = 0;
    const timers: NodeJS.Timeout[] = [];
    const stop = (state: 'done' | 'canceled', at?: number) => {
      if (!this.liveRecordings.has(opts.name)) return;
      this.liveRecordings.delete(opts.name);
      timers.forEach((t) => (clearTimeout(t), this.timers.delete(t)));
      const elapsed = at ?? Math.max(0, this.now() - startedAt);
      const pcm = plan ? plan.pcmUntil(elapsed) : Buffer.alloc(0);
      if (state === 'done') {
        const previous = opts.ifExists === 'append' && fs.existsSync(file) ? parseWav(fs.readFileSync(file)).data : Buffer.alloc(0);
        const audio = Buffer.concat([previous, pcm]);
        fs.writeFileSync(file, opts.format === 'wav' ? encodeWav(audio, SLIN8) : audio);
        const seconds = Math.floor(pcm.length / 16 / 1000);
        json.duration = seconds;
        if (opts.maxSilenceSeconds > 0 && plan) {
          // Asterisk reports whole seconds of sound ("energy") and the rest as silence.
          json.talking_duration = Math.min(seconds, Math.floor(plan.talkingMsUntil(elapsed) / 1000));
          json.silence_duration = seconds - json.talking_duration;
        }
      } else {
        fs.rmSync(file, { force: true });
      }
      json.state = state;
      this.emitFor(channel, 'RecordingFinished', { recording: { ...json } });
      if (channel.current === command) this.next(channel);
    };
    const command: SimCommand = {
      run: () => {
        const begin = () => {
          startedAt = this.now();
          json.state = 'recording';
          this.emitFor(channel, 'RecordingStarted', { recording: { ...json } });
          plan = planRecording(channel.script.onRecord ?? [], {
            maxDurationMs: opts.maxDurationSeconds * 1000,
            maxSilenceMs: opts.maxSilenceSeconds * 1000,
            terminateOn: opts.terminateOn,
          });
          const talkDetect = channel.vars.get('TALK_DETECT(set)');
          for (const e of plan.events) {
            if (plan.endAt !== undefined && e.at > plan.endAt) continue;
            timers.push(
              this.later(e.at, () => {
                if (e.kind === 'dtmf') {
                  this.emitFor(channel, 'ChannelDtmfReceived', { digit: e.digit, duration_ms: 120, channel: channel.json });
                } else if (talkDetect !== undefined && e.kind === 'talk-start') {
                  this.emitFor(channel, 'ChannelTalkingStarted', { channel: channel.json });
                } else if (talkDetect !== undefined && e.kind === 'talk-end') {
                  this.emitFor(channel, 'ChannelTalkingFinished', { duration: e.durationMs, channel: channel.json });
                }
              }),
            );
          }
          if (plan.endAt !== undefined) {
            const endAt = plan.endAt;
            const reason = plan.endReason;
            timers.push(
              this.later(endAt, () => (reason === 'hangup' ? this.hangup(channel, 'caller') : stop('done', endAt))),
            );
          }
        };
        // beep=true: Asterisk plays its beep before capturing audio.
        if (opts.beep) timers.push(this.later(380, begin));
        else begin();
      },
      // A hang-up mid-recording keeps what was said: RecordingFinished (done) before StasisEnd.
      abort: () => stop('done'),
    };
    this.liveRecordings.set(opts.name, { json, channel, stop: (s) => stop(s) });
    this.enqueue(channel, command);
    return { ...json };
  }

  // ---------------------------------------------------------------- HTTP

  private authorised(req: http.IncomingMessage, query: URLSearchParams): boolean {
    const key = query.get('api_key');
    if (key !== null) return key === `${this.user}:${this.pass}`;
    const header = req.headers.authorization;
    if (header?.startsWith('Basic ')) {
      return Buffer.from(header.slice(6), 'base64').toString('utf8') === `${this.user}:${this.pass}`;
    }
    return false;
  }

  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    };
    if (this.wsRefused) {
      this.refusedUpgrades += 1;
      return refuse(503, 'Service Unavailable');
    }
    if (url.pathname !== '/ari/events') return refuse(404, 'Not Found');
    if (!this.authorised(req, url.searchParams)) return refuse(401, 'Unauthorized');
    const apps = (url.searchParams.get('app') ?? '').split(',').filter(Boolean);
    if (apps.length === 0) return refuse(400, 'Bad Request');
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      // A new registration of an app replaces the old socket's (Asterisk sends ApplicationReplaced).
      for (const [other, otherApps] of this.sockets) {
        const taken = otherApps.filter((a) => apps.includes(a));
        for (const app of taken) other.send(JSON.stringify({ type: 'ApplicationReplaced', timestamp: asteriskTime(this.now()), application: app, asterisk_id: this.asteriskId }));
        if (taken.length) this.sockets.set(other, otherApps.filter((a) => !apps.includes(a)));
      }
      this.sockets.set(ws, apps);
      ws.on('close', () => this.sockets.delete(ws));
      ws.on('error', () => this.sockets.delete(ws));
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const receivedAtMs = performance.now();
    const url = new URL(req.url ?? '/', 'http://x');
    const method = req.method ?? 'GET';
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}, operation?: string) => {
      const query = Object.fromEntries(url.searchParams);
      delete query.api_key; // never keep credentials in the log
      this.restLog.push({ receivedAtMs, method, path: url.pathname, query, status, operation });
      if (Buffer.isBuffer(body)) {
        res.writeHead(status, { 'content-length': body.length, ...headers });
        res.end(body);
      } else if (body === undefined) {
        res.writeHead(status, headers);
        res.end();
      } else {
        const text = JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
        res.end(text);
      }
    };
    if (!url.pathname.startsWith('/ari/')) return send(404, { message: 'Not found' });
    if (!this.authorised(req, url.searchParams)) {
      return send(401, { message: 'Authentication required' }, { 'www-authenticate': `Basic realm="${REALM}"` });
    }
    const docs = /^\/ari\/api-docs\/(\w+)\.json$/.exec(url.pathname);
    if (docs && method === 'GET') {
      const doc = this.spec.document(docs[1]!, req.headers.host ?? '127.0.0.1');
      return doc ? send(200, doc) : send(404, { message: 'Resource not found' });
    }
    if (this.restBlackhole) {
      this.held.add(res);
      return; // never answered
    }
    let body: unknown;
    if (rawBody.trim()) {
      try {
        body = JSON.parse(rawBody);
      } catch {
        return this.reject(send, method, url.pathname, 400, 'Failed to parse body as JSON');
      }
    }
    const checked = this.spec.validate(method, url.pathname, url.searchParams, body);
    if (!checked.ok) return this.reject(send, method, url.pathname, checked.status, checked.message);
    const op = `${checked.call.resource}.${checked.call.operation}`;
    const failure = this.failures.get(op);
    if (failure && failure.skip > 0) failure.skip--;
    else if (failure && failure.times > 0) {
      failure.times--;
      // Asterisk's own error shape; not a protocol violation by the client.
      return send(failure.status, { message: 'Internal Server Error' }, undefined, op);
    }
    const delay = this.delays.get(`${checked.call.resource}.${checked.call.operation}`);
    if (delay) await new Promise((r) => setTimeout(r, delay));
    const [status, payload, headers] = this.operate(checked.call);
    send(status, payload, headers, `${checked.call.resource}.${checked.call.operation}`);
  }

  private reject(send: (s: number, b?: unknown) => void, method: string, p: string, status: number, message: string) {
    this.violations.push({ method, path: p, status, message });
    send(status, { message });
  }

  /** Carries out a validated call; answers [status, body, headers] as Asterisk would. */
  private operate(call: MatchedCall): [number, unknown?, Record<string, string>?] {
    const q = call.query;
    const channelOp = (fn: (c: SimChannel) => [number, unknown?]): [number, unknown?] => {
      const c = this.channels.get(call.path.channelId!);
      if (!c) return [404, { message: 'Channel not found' }];
      return fn(c);
    };
    switch (`${call.resource}.${call.operation}`) {
      case 'asterisk.ping':
        return [200, { asterisk_id: this.asteriskId, ping: 'pong', timestamp: asteriskTime(this.now()) }];
      case 'asterisk.getInfo':
        return [200, { system: { version: '20.10.0', entity_id: this.asteriskId } }];
      case 'applications.list':
        return [200, this.appNames().map((n) => this.appJson(n))];
      case 'applications.get':
        return this.appNames().includes(call.path.applicationName!)
          ? [200, this.appJson(call.path.applicationName!)]
          : [404, { message: 'Application not found' }];
      case 'asterisk.setGlobalVar':
        this.globals.set(q.variable!, q.value ?? '');
        return [204];
      case 'applications.filter': {
        const name = call.path.applicationName!;
        if (!this.appNames().includes(name)) return [404, { message: 'Application not found' }];
        const body = (call.body ?? {}) as { allowed?: Array<{ type?: unknown }>; disallowed?: Array<{ type?: unknown }> };
        const types = (list: Array<{ type?: unknown }> | undefined) => list?.map((t) => t.type);
        const allowed = types(body.allowed);
        const disallowed = types(body.disallowed);
        if ([...(allowed ?? []), ...(disallowed ?? [])].some((t) => typeof t !== 'string')) return [400, { message: 'Invalid filter: each entry needs a "type"' }];
        const before = this.filters.get(name) ?? { allowed: [], disallowed: [] };
        // An empty body clears both lists; a list left out keeps its value (applications.json).
        const empty = allowed === undefined && disallowed === undefined;
        this.filters.set(name, { allowed: empty ? [] : ((allowed as string[]) ?? before.allowed), disallowed: empty ? [] : ((disallowed as string[]) ?? before.disallowed) });
        return [200, this.appJson(name)];
      }
      case 'channels.list':
        return [200, [...this.channels.values()].map((c) => c.json)];
      case 'channels.get':
        return channelOp((c) => [200, c.json]);
      case 'channels.answer':
        return channelOp((c) => {
          if (c.json.state !== 'Up') {
            c.json.state = 'Up';
            c.outcome.answered = true;
            setImmediate(() => !c.gone && this.emitFor(c, 'ChannelStateChange', { channel: c.json }));
          }
          return [204];
        });
      case 'channels.hangup':
        return channelOp((c) => {
          setImmediate(() => this.hangup(c, 'app'));
          return [204];
        });
      case 'channels.play':
      case 'channels.playWithId':
        return channelOp((c) => {
          const id = call.path.playbackId ?? q.playbackId ?? crypto.randomUUID();
          if (this.playbacks.has(id)) return [409, { message: 'A playback with this id already exists' }];
          return [201, this.startPlayback(c, id, q.media!.split(','))];
        });
      case 'channels.record':
        return channelOp((c) => {
          const format = q.format!;
          if (!FORMATS.has(format)) return [422, { message: `Recording format "${format}" not found` }];
          const ifExists = q.ifExists ?? 'fail';
          if (this.liveRecordings.has(q.name!)) return [409, { message: 'Recording with the same name already in progress' }];
          if (ifExists === 'fail' && fs.existsSync(path.join(this.spoolDir, `${q.name}.${format}`))) {
            return [409, { message: 'Recording with the same name already exists on the system' }];
          }
          return [
            201,
            this.startRecording(c, {
              name: q.name!,
              format,
              maxDurationSeconds: Number(q.maxDurationSeconds ?? 0),
              maxSilenceSeconds: Number(q.maxSilenceSeconds ?? 0),
              ifExists,
              beep: /^(true|yes|1|on|y|t)$/i.test(q.beep ?? 'false'),
              terminateOn: q.terminateOn ?? 'none',
            }),
          ];
        });
      case 'channels.setChannelVar':
        return channelOp((c) => {
          c.vars.set(q.variable!, q.value ?? '');
          return [204];
        });
      case 'channels.getChannelVar':
        return channelOp((c) =>
          c.vars.has(q.variable!) ? [200, { value: c.vars.get(q.variable!) }] : [404, { message: 'Provided variable was not found' }],
        );
      case 'playbacks.get': {
        const p = this.playbacks.get(call.path.playbackId!);
        return p ? [200, p.json] : [404, { message: 'Playback not found' }];
      }
      case 'playbacks.stop': {
        const p = this.playbacks.get(call.path.playbackId!);
        if (!p) return [404, { message: 'Playback not found' }];
        setImmediate(() => p.stop());
        return [204];
      }
      case 'recordings.getLive': {
        const r = this.liveRecordings.get(call.path.recordingName!);
        return r ? [200, r.json] : [404, { message: 'Recording not found' }];
      }
      case 'recordings.stop':
      case 'recordings.cancel': {
        const r = this.liveRecordings.get(call.path.recordingName!);
        if (!r) return [404, { message: 'Recording not found' }];
        setImmediate(() => r.stop(call.operation === 'stop' ? 'done' : 'canceled'));
        return [204];
      }
      case 'recordings.listStored':
        return [200, this.stored().map((s) => ({ name: s.name, format: s.format }))];
      case 'recordings.getStored': {
        const s = this.stored().find((x) => x.name === call.path.recordingName);
        return s ? [200, { name: s.name, format: s.format }] : [404, { message: 'Recording not found' }];
      }
      case 'recordings.getStoredFile': {
        const s = this.stored().find((x) => x.name === call.path.recordingName);
        if (!s) return [404, { message: 'Recording not found' }];
        return [200, fs.readFileSync(s.file), { 'content-type': `audio/${s.format}` }];
      }
      case 'recordings.deleteStored': {
        const s = this.stored().find((x) => x.name === call.path.recordingName);
        if (!s) return [404, { message: 'Recording not found' }];
        fs.rmSync(s.file);
        return [204];
      }
      default:
        return [501, { message: `${call.resource}.${call.operation} is valid ARI but not simulated` }];
    }
  }

  private stored() {
    return fs.readdirSync(this.spoolDir).map((f) => {
      const ext = path.extname(f);
      return { name: f.slice(0, -ext.length), format: ext.slice(1), file: path.join(this.spoolDir, f) };
    });
  }

  private appNames(): string[] {
    const names = new Set<string>();
    for (const apps of this.sockets.values()) apps.forEach((a) => names.add(a));
    // An app whose socket dropped still holds its channels until they leave.
    for (const c of this.channels.values()) names.add(c.app);
    return [...names];
  }

  private appJson(name: string) {
    return {
      name,
      channel_ids: [...this.channels.values()].filter((c) => c.app === name).map((c) => c.json.id),
      bridge_ids: [],
      endpoint_ids: [],
      device_names: [],
      events_allowed: (this.filters.get(name)?.allowed ?? []).map((type) => ({ type })),
      events_disallowed: (this.filters.get(name)?.disallowed ?? []).map((type) => ({ type })),
    };
  }
}
