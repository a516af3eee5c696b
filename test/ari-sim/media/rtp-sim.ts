import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import path from 'node:path';
import { callerSpeech } from '../caller-audio.js';
import type { ChannelJson } from '../models.js';
import type { AriSimulator } from '../simulator.js';
import type { MatchedCall } from '../swagger.js';
import { encodeWav, readWav, SLIN8 } from '../wav.js';
import { changeRate as resample, codecTolerance, decodeFrame, encodeFrame, level as rms, readRtp, writeRtp } from './rtp-wire.js';

// The ARI simulator's media half, composed onto the pbx engineer's simulator without
// changing it: POST /channels/externalMedia (a UnicastRTP channel with its own StasisStart
// and the UNICASTRTP_LOCAL_ADDRESS/PORT channel variables), mixing bridges, bridge
// recordings (a real WAV of both sides), and RTP both ways once a scripted caller and an
// external media channel share a bridge: the caller speaks real espeak-ng audio on a
// 20 ms clock (optionally with loss and reordering), and everything the agent sends is
// kept as what the caller heard.

/**
 * The externalMedia formats, as Asterisk 20.17 handles them over RTP: ulaw on static
 * payload type 0 both ways; slin16 sent on dynamic type 118, but what arrives on 118 is
 * dropped (Asterisk maps only static payload types on receive), so the agent is never heard.
 */
interface SimFormat {
  name: 'ulaw' | 'slin16';
  rate: number;
  frame: number;
  payloadType: number;
  acceptsInbound: boolean;
}
const SIM_FORMATS: Record<string, SimFormat> = {
  ulaw: { name: 'ulaw', rate: 8000, frame: 160, payloadType: 0, acceptsInbound: true },
  slin16: { name: 'slin16', rate: 16000, frame: 320, payloadType: 118, acceptsInbound: false },
};

export type CallerTrigger =
  /** The agent spoke (since the caller last finished speaking) and has now been quiet this long. */
  | { agentQuietMs: number }
  /** This much agent audio arrived since the caller last finished speaking (a barge-in while it talks). */
  | { agentAudioMs: number }
  /** Plain time since the previous step. */
  | { ms: number };

export interface CallerStep {
  after: CallerTrigger;
  /** Words the caller speaks (espeak-ng, en-GB). */
  say?: string;
  /** Runs as the caller starts speaking, e.g. to tell the Whisper double what it will hear. */
  onSpeak?: () => void;
  hangUp?: boolean;
}

export interface Impairments {
  /** Fraction of caller packets never delivered. */
  loss?: number;
  /** Fraction of caller packets swapped with the next one. */
  reorder?: number;
}

interface SpokenTurn {
  text: string;
  /** Simulated-clock ms (since the media started) when the first voiced frame left. */
  speechStartAt: number;
  endAt: number;
  /** The agent was talking when this turn began. */
  overAgent: boolean;
}

export interface MediaSession {
  callerChannelId: string;
  /** Sample rate of the externalMedia format (8000 for ulaw). */
  rate: number;
  /** Agent audio as received, in arrival order. */
  heard: Int16Array[];
  /** Arrival time (ms since media start) of each `heard` frame. */
  heardAt: number[];
  turns: SpokenTurn[];
  stepsDone: number;
  done: boolean;
  /** Agent frames with sound in them. */
  agentVoicedFrames(): number;
  /** Whether the agent's audio contains `needle` (PCM at the session's rate, before the codec) contiguously. */
  heardAudio(needle: Int16Array): boolean;
  /** ms from the caller's barge-in to the agent's last voiced frame before it fell silent. */
  bargeInStopMs(turnIndex: number): number | undefined;
  /** Per caller turn: caller's end of speech → first agent voiced frame after it. */
  responseGapMs(turnIndex: number): number | undefined;
  writeHeardWav(file: string): void;
}

interface SimChannelLike {
  json: ChannelJson;
  app: string;
  script: Record<string, unknown>;
  queue: unknown[];
  current?: unknown;
  vars: Map<string, string>;
  outcome: { channelId: string; hungUpBy: 'caller' | 'app'; heard: string[]; failedMedia: string[]; answered: boolean; events: string[] };
  finished: (o: unknown) => void;
  gone: boolean;
}

interface SimInternals {
  channels: Map<string, SimChannelLike>;
  spoolDir: string;
  emit(app: string, type: string, payload: Record<string, unknown>): void;
  emitFor(channel: SimChannelLike, type: string, payload: Record<string, unknown>): void;
  hangup(channel: SimChannelLike, by: 'caller' | 'app', cause?: number): void;
  operate(call: MatchedCall): [number, unknown?, Record<string, string>?];
  now(): number;
}

interface Bridge {
  id: string;
  name: string;
  channels: string[];
  createdAt: number;
  recording?: BridgeRecording;
}

interface BridgeRecording {
  name: string;
  format: string;
  startedAt: number;
  stop(): void;
}

interface Session extends MediaSession {
  bridgeId: string;
  frame: number;
  stop(): void;
  /** Caller audio actually sent, by 20 ms slot. */
  sentSlots: Map<number, Int16Array>;
  startedAtReal: number;
  elapsed(): number;
}

export interface MediaSim {
  /** The caller's part for a channel placed with sim.call(): register before the app bridges it. */
  script(channelId: string, steps: CallerStep[], impairments?: Impairments): void;
  session(channelId: string): MediaSession | undefined;
  /** Resolves when the session for this caller exists. */
  sessionFor(channelId: string): Promise<MediaSession>;
  bridges(): string[];
  /**
   * How long an externalMedia channel takes to enter its app after the request is answered
   * (Asterisk runs Stasis() on the channel's own thread; a loaded box takes a while). Until
   * its StasisStart, bridges refuse it as Asterisk does: 422 "Channel not in Stasis application".
   */
  stasisStartDelayMs: number;
  close(): void;
}

const spareSockets: dgram.Socket[] = [];

async function openSocket(): Promise<dgram.Socket> {
  const s = dgram.createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
  s.unref();
  return s;
}

function seeded(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) % 1_000_000) / 1_000_000;
  };
}

const speechCache = new Map<string, Int16Array>();
function speechAt(text: string, rate: number): Int16Array {
  let pcm = speechCache.get(`${rate}:${text}`);
  if (!pcm) {
    const wav = readWav(callerSpeech(text));
    const s8 = new Int16Array(wav.data.length >> 1);
    for (let i = 0; i < s8.length; i++) s8[i] = wav.data.readInt16LE(i * 2);
    pcm = resample(s8, wav.sampleRate, rate);
    speechCache.set(`${rate}:${text}`, pcm);
  }
  return pcm;
}

/** Pre-warms espeak-ng audio for a script (synthesis is slow on two cores; do it before the call). */
function prepareCallerSpeech(steps: CallerStep[]): void {
  for (const s of steps) if (s.say) speechAt(s.say, 8000);
}

export async function attachMediaSim(sim: AriSimulator): Promise<MediaSim> {
  const internals = sim as unknown as SimInternals;
  const scripts = new Map<string, { steps: CallerStep[]; impairments: Impairments }>();
  const sessions = new Map<string, Session>();
  const waiting = new Map<string, Array<(s: MediaSession) => void>>();
  const bridges = new Map<string, Bridge>();
  const external = new Map<string, { host: string; port: number; socket: dgram.Socket; format: SimFormat }>();
  const enteringStasis = new Set<string>();
  let seq = 0;

  // Sockets must exist before the externalMedia reply names their port, and operate() is
  // synchronous: keep a few bound in advance.
  const refill = async () => {
    while (spareSockets.length < 4) spareSockets.push(await openSocket());
  };
  await refill();

  const originalOperate = internals.operate.bind(sim);
  const originalHangup = internals.hangup.bind(sim);

  internals.hangup = (channel, by, cause) => {
    // A channel leaving ends its media (and the bridge recording, written before StasisEnd).
    for (const s of sessions.values()) {
      const b = bridges.get(s.bridgeId);
      if (!s.done && (s.callerChannelId === channel.json.id || b?.channels.includes(channel.json.id))) {
        s.stop();
        b?.recording?.stop();
      }
    }
    const ext = external.get(channel.json.id);
    if (ext) {
      ext.socket.close();
      external.delete(channel.json.id);
    }
    for (const b of bridges.values()) b.channels = b.channels.filter((c) => c !== channel.json.id);
    originalHangup(channel, by, cause);
  };

  const bridgeJson = (b: Bridge) => ({
    id: b.id,
    technology: 'simple_bridge',
    bridge_type: 'mixing',
    bridge_class: 'stasis',
    creator: 'Stasis',
    name: b.name,
    channels: [...b.channels],
    creationtime: new Date(b.createdAt).toISOString().replace('Z', '+0000'),
    video_mode: 'none',
  });

  const appOfBridge = (b: Bridge) => {
    for (const id of b.channels) {
      const c = internals.channels.get(id);
      if (c && !external.has(id)) return c.app;
    }
    return undefined;
  };

  const maybeStartMedia = (b: Bridge) => {
    const callerId = b.channels.find((id) => scripts.has(id) && !sessions.has(id));
    const extId = b.channels.find((id) => external.has(id));
    if (!callerId || !extId) return;
    const { steps, impairments } = scripts.get(callerId)!;
    const ext = external.get(extId)!;
    const s = startSession(callerId, b.id, ext, steps, impairments);
    sessions.set(callerId, s);
    for (const w of waiting.get(callerId) ?? []) w(s);
    waiting.delete(callerId);
  };

  const startSession = (callerId: string, bridgeId: string, ext: { host: string; port: number; socket: dgram.Socket; format: SimFormat }, steps: CallerStep[], imp: Impairments): Session => {
    const fmt = ext.format;
    const FRAME = fmt.frame;
    const startedAtReal = performance.now();
    const elapsed = () => performance.now() - startedAtReal;
    const rand = seeded(callerId.split('').reduce((a, c) => a * 31 + c.charCodeAt(0), 7));
    const heard: Int16Array[] = [];
    const heardAt: number[] = [];
    const turns: SpokenTurn[] = [];
    const sentSlots = new Map<number, Int16Array>();
    let sentFrames = 0;
    let outSeq = crypto.randomInt(0, 0xffff);
    let outTs = crypto.randomInt(0, 0x7fffffff);
    const ssrc = crypto.randomBytes(4).readUInt32BE(0);
    let held: Buffer | undefined; // a packet delayed by one slot (reordering)
    let step = 0;
    let stepStartedAt = 0;
    let agentAudioSinceStep = 0;
    let agentSpokeSinceStep = false;
    let lastAgentVoiceAt = -1e9;
    let speaking: { pcm: Int16Array; pos: number; turn: SpokenTurn } | undefined;
    const noise = seeded(99);

    ext.socket.on('message', (msg) => {
      const p = readRtp(msg);
      if (!p || !fmt.acceptsInbound || p.payloadType !== fmt.payloadType) return;
      const frame = decodeFrame(fmt.name, p.payload);
      const at = elapsed();
      heard.push(frame);
      heardAt.push(at);
      if (rms(frame) > 100) {
        lastAgentVoiceAt = at;
        agentAudioSinceStep += 20;
        agentSpokeSinceStep = true;
      }
    });

    const send = (frame: Int16Array) => {
      const pkt = writeRtp({ payloadType: fmt.payloadType, sequence: outSeq, timestamp: outTs, ssrc, payload: encodeFrame(fmt.name, frame) });
      outSeq = (outSeq + 1) & 0xffff;
      outTs = (outTs + FRAME) >>> 0;
      const target = session.remote;
      if (!target) return;
      if (imp.loss && rand() < imp.loss) return;
      if (held) {
        ext.socket.send(pkt, target.port, target.host);
        ext.socket.send(held, target.port, target.host);
        held = undefined;
        return;
      }
      if (imp.reorder && rand() < imp.reorder) {
        held = pkt;
        return;
      }
      ext.socket.send(pkt, target.port, target.host);
    };

    const triggered = (t: CallerTrigger, now: number) => {
      if ('ms' in t) return now - stepStartedAt >= t.ms;
      if ('agentAudioMs' in t) return agentAudioSinceStep >= t.agentAudioMs;
      return agentSpokeSinceStep && now - lastAgentVoiceAt >= t.agentQuietMs;
    };

    const tick = () => {
      const now = elapsed();
      const due = Math.floor(now / 20);
      while (sentFrames <= due && !session.done) {
        // Script: start the next step when its trigger fires.
        const st = steps[step];
        if (!speaking && st && triggered(st.after, now)) {
          step++;
          session.stepsDone = step;
          stepStartedAt = now;
          agentAudioSinceStep = 0;
          agentSpokeSinceStep = false;
          if (st.hangUp) {
            const c = internals.channels.get(callerId);
            if (c) setImmediate(() => internals.hangup(c, 'caller'));
            session.stop();
            return;
          }
          if (st.say) {
            st.onSpeak?.();
            const turn: SpokenTurn = { text: st.say, speechStartAt: -1, endAt: -1, overAgent: now - lastAgentVoiceAt < 100 };
            turns.push(turn);
            speaking = { pcm: speechAt(st.say, fmt.rate), pos: 0, turn };
          }
        }
        let frame: Int16Array;
        if (speaking) {
          frame = new Int16Array(FRAME);
          frame.set(speaking.pcm.subarray(speaking.pos, speaking.pos + FRAME));
          speaking.pos += FRAME;
          const t = sentFrames * 20;
          if (speaking.turn.speechStartAt < 0 && rms(frame) > 150) speaking.turn.speechStartAt = t;
          if (rms(frame) > 300) speaking.turn.endAt = t + 20;
          if (speaking.pos >= speaking.pcm.length) {
            speaking = undefined;
            // Triggers count the agent's reaction to what the caller has just finished saying.
            agentAudioSinceStep = 0;
            agentSpokeSinceStep = false;
          }
        } else {
          // A quiet line: faint noise rather than digital silence.
          frame = Int16Array.from({ length: FRAME }, () => Math.round((noise() - 0.5) * 40));
        }
        sentSlots.set(sentFrames, frame);
        sentFrames++;
        send(frame);
      }
    };
    const timer = setInterval(tick, 10);

    const session: Session & { remote?: { host: string; port: number } } = {
      callerChannelId: callerId,
      rate: fmt.rate,
      bridgeId,
      heard,
      heardAt,
      turns,
      stepsDone: 0,
      done: false,
      sentSlots,
      startedAtReal,
      elapsed,
      frame: FRAME,
      remote: { host: ext.host, port: ext.port },
      stop() {
        if (session.done) return;
        session.done = true;
        clearInterval(timer);
      },
      agentVoicedFrames: () => heard.filter((f) => rms(f) > 100).length,
      heardAudio(original) {
        // What the agent sent went through µ-law: each sample may come back up to one step off.
        const near = (heardSample: number, sent: number) => Math.abs(heardSample - sent) <= codecTolerance(fmt.name, sent);
        const all = new Int16Array(heard.length * FRAME);
        heard.forEach((f, i) => all.set(f, i * FRAME));
        // A 40 ms signature from the loudest part of what was sent, then a full check.
        let best = 0;
        let bestRms = 0;
        for (let i = 0; i + 2 * FRAME <= original.length; i += FRAME) {
          const r = rms(original.subarray(i, i + 2 * FRAME));
          if (r > bestRms) (bestRms = r), (best = i);
        }
        const sig = original.subarray(best, best + 2 * FRAME);
        outer: for (let i = 0; i + sig.length <= all.length; i++) {
          for (let j = 0; j < sig.length; j++) if (!near(all[i + j]!, sig[j]!)) continue outer;
          const start = i - best;
          if (start < 0 || start + original.length > all.length) return false;
          for (let j = 0; j < original.length; j++) if (!near(all[start + j]!, original[j]!)) return false;
          return true;
        }
        return false;
      },
      bargeInStopMs(turnIndex) {
        const t = turns[turnIndex];
        if (!t || t.speechStartAt < 0) return undefined;
        // Any agent frame counts (a pause inside a word is still playback); a paused or
        // cleared player sends nothing, so the first gap in arrivals is where it stopped.
        let last: number | undefined;
        for (let i = 0; i < heard.length; i++) {
          const at = heardAt[i]!;
          if (at < t.speechStartAt) continue;
          if (at - (last ?? t.speechStartAt) > 100) break;
          last = at;
        }
        return last === undefined ? 0 : last - t.speechStartAt;
      },
      responseGapMs(turnIndex) {
        const t = turns[turnIndex];
        if (!t || t.endAt < 0) return undefined;
        for (let i = 0; i < heard.length; i++) if (heardAt[i]! > t.endAt && rms(heard[i]!) > 100) return heardAt[i]! - t.endAt;
        return undefined;
      },
      writeHeardWav(file) {
        const pcm = Buffer.alloc(heard.length * FRAME * 2);
        heard.forEach((f, i) => f.forEach((v, j) => pcm.writeInt16LE(v, (i * FRAME + j) * 2)));
        fs.writeFileSync(file, encodeWav(pcm, { sampleRate: fmt.rate, channels: 1, bitsPerSample: 16 }));
      },
    };
    return session;
  };

  const startBridgeRecording = (b: Bridge, name: string, format: string): BridgeRecording => {
    const app = appOfBridge(b);
    const json = { name, format, target_uri: `bridge:${b.id}`, state: 'recording' as string, duration: undefined as number | undefined };
    const rec: BridgeRecording = {
      name,
      format,
      startedAt: internals.now(),
      stop() {
        if (b.recording !== rec) return;
        b.recording = undefined;
        // The mix of both sides, slot by slot, at 8 kHz (Asterisk's wav is slin 8 kHz).
        const s = [...sessions.values()].find((x) => x.bridgeId === b.id);
        const slots = s ? Math.ceil(s.elapsed() / 20) : 0;
        const FRAME = s?.frame ?? 160;
        const mix = new Int16Array(slots * FRAME);
        if (s) {
          for (const [slot, f] of s.sentSlots) if (slot < slots) mix.set(f, slot * FRAME);
          s.heard.forEach((f, i) => {
            const slot = Math.min(slots - 1, Math.floor(s.heardAt[i]! / 20));
            for (let j = 0; j < FRAME && slot >= 0; j++) {
              const k = slot * FRAME + j;
              mix[k] = Math.max(-32768, Math.min(32767, mix[k]! + f[j]!));
            }
          });
        }
        const down = resample(mix, s?.rate ?? 8000, 8000);
        const pcm = Buffer.alloc(down.length * 2);
        down.forEach((v, i) => pcm.writeInt16LE(v, i * 2));
        fs.writeFileSync(path.join(internals.spoolDir, `${name}.${format}`), format === 'wav' ? encodeWav(pcm, SLIN8) : pcm);
        json.state = 'done';
        json.duration = Math.floor(down.length / 8000);
        if (app) internals.emit(app, 'RecordingFinished', { recording: { ...json } });
      },
    };
    if (app) internals.emit(app, 'RecordingStarted', { recording: { ...json } });
    return rec;
  };

  internals.operate = (call: MatchedCall) => {
    const q = call.query;
    switch (`${call.resource}.${call.operation}`) {
      case 'channels.externalMedia': {
        if (q.encapsulation && q.encapsulation !== 'rtp') return [501, { message: `encapsulation ${q.encapsulation} is not simulated` }];
        const format = SIM_FORMATS[q.format ?? ''];
        if (!format) return [501, { message: `format ${q.format} is not simulated (ulaw or slin16)` }];
        const hostPort = /^(.+):(\d+)$/.exec(q.external_host ?? '');
        if (!hostPort) return [400, { message: 'external_host is required for RTP' }];
        const socket = spareSockets.shift();
        void refill();
        if (!socket) return [500, { message: 'no RTP port available' }];
        const id = q.channelId || `${Math.floor(internals.now() / 1000)}.m${++seq}`;
        if (internals.channels.has(id)) return [409, { message: 'Channel with given unique ID already exists' }];
        const local = socket.address();
        const json: ChannelJson = {
          id,
          protocol_id: '',
          name: `UnicastRTP/${hostPort[1]}:${hostPort[2]}-0x${seq.toString(16)}`,
          state: 'Up',
          caller: { name: '', number: '' },
          connected: { name: '', number: '' },
          accountcode: '',
          dialplan: { context: 'default', exten: 's', priority: 1, app_name: 'Stasis', app_data: q.app! },
          creationtime: new Date(internals.now()).toISOString().replace('Z', '+0000'),
          language: 'en',
        };
        const channel: SimChannelLike = {
          json,
          app: q.app!,
          script: {},
          queue: [],
          vars: new Map([
            ['UNICASTRTP_LOCAL_ADDRESS', local.address],
            ['UNICASTRTP_LOCAL_PORT', String(local.port)],
          ]),
          outcome: { channelId: id, hungUpBy: 'app', heard: [], failedMedia: [], answered: true, events: [] },
          finished: () => undefined,
          gone: false,
        };
        internals.channels.set(id, channel);
        external.set(id, { host: hostPort[1]!, port: Number(hostPort[2]), socket, format });
        enteringStasis.add(id);
        setTimeout(() => {
          enteringStasis.delete(id);
          if (!channel.gone) internals.emitFor(channel, 'StasisStart', { args: [], channel: json });
        }, media.stasisStartDelayMs);
        return [200, { ...json, channelvars: { UNICASTRTP_LOCAL_ADDRESS: local.address, UNICASTRTP_LOCAL_PORT: String(local.port) } }];
      }
      case 'bridges.create':
      case 'bridges.createWithId': {
        const id = call.path.bridgeId ?? q.bridgeId ?? crypto.randomUUID();
        if (bridges.has(id)) return [409, { message: 'Bridge with this id already exists' }];
        const b: Bridge = { id, name: q.name ?? '', channels: [], createdAt: internals.now() };
        bridges.set(id, b);
        return [200, bridgeJson(b)];
      }
      case 'bridges.get': {
        const b = bridges.get(call.path.bridgeId!);
        return b ? [200, bridgeJson(b)] : [404, { message: 'Bridge not found' }];
      }
      case 'bridges.list':
        return [200, [...bridges.values()].map(bridgeJson)];
      case 'bridges.addChannel': {
        const b = bridges.get(call.path.bridgeId!);
        if (!b) return [404, { message: 'Bridge not found' }];
        const ids = q.channel!.split(',');
        for (const id of ids) if (!internals.channels.has(id)) return [422, { message: 'Channel not found' }];
        for (const id of ids) if (enteringStasis.has(id)) return [422, { message: 'Channel not in Stasis application' }];
        for (const id of ids) {
          if (!b.channels.includes(id)) b.channels.push(id);
          const c = internals.channels.get(id)!;
          setImmediate(() => !c.gone && internals.emitFor(c, 'ChannelEnteredBridge', { bridge: bridgeJson(b), channel: c.json }));
        }
        maybeStartMedia(b);
        return [204];
      }
      case 'bridges.record': {
        const b = bridges.get(call.path.bridgeId!);
        if (!b) return [404, { message: 'Bridge not found' }];
        if (q.format !== 'wav' && q.format !== 'sln') return [422, { message: `Recording format "${q.format}" not found` }];
        if (b.recording) return [409, { message: 'Recording with the same name already in progress' }];
        b.recording = startBridgeRecording(b, q.name!, q.format!);
        return [201, { name: q.name, format: q.format, target_uri: `bridge:${b.id}`, state: 'queued' }];
      }
      case 'bridges.destroy': {
        const b = bridges.get(call.path.bridgeId!);
        if (!b) return [404, { message: 'Bridge not found' }];
        b.recording?.stop();
        for (const s of sessions.values()) if (s.bridgeId === b.id) s.stop();
        bridges.delete(b.id);
        return [204];
      }
      default:
        return originalOperate(call);
    }
  };

  const media: MediaSim = {
    stasisStartDelayMs: 0,
    script(channelId, steps, impairments = {}) {
      prepareCallerSpeech(steps);
      scripts.set(channelId, { steps, impairments });
    },
    session: (id) => sessions.get(id),
    sessionFor(id) {
      const s = sessions.get(id);
      if (s) return Promise.resolve(s);
      return new Promise((r) => waiting.set(id, [...(waiting.get(id) ?? []), r]));
    },
    bridges: () => [...bridges.keys()],
    close() {
      for (const s of sessions.values()) s.stop();
      for (const e of external.values()) e.socket.close();
      external.clear();
    },
  };
  return media;
}
