import crypto from 'node:crypto';
import dgram from 'node:dgram';
import { FRAME } from './audio.js';
import { ulawDecode, ulawEncode, ULAW_SILENCE } from './g711.js';
import { HeardAudio } from './heard-audio.js';

// The test caller's audio: an RTP endpoint (PCMU, payload type 0, and RFC 4733
// telephone-events on 101) that SIPp's SDP advertises. Like a phone it sends a frame every
// 20 ms for the whole call (silence when the caller says nothing), so the test decides to
// the frame when the caller speaks, and it keeps every frame it hears with its arrival time.

export const DTMF_PT = 101;

export class CallerMedia extends HeardAudio {
  private readonly socket = dgram.createSocket('udp4');
  private remote: { address: string; port: number } | undefined;
  private readonly ssrc = crypto.randomBytes(4).readUInt32BE(0);
  private seq = crypto.randomInt(0, 0xffff);
  private ts = crypto.randomInt(0, 0x7fffffff);
  private queue: Int16Array[] = [];
  /** RFC 4733 packets to send, one per tick; null = an audio frame's turn. */
  private events: Array<{ code: number; duration: number; end: boolean; first: boolean } | null> = [];
  private eventTs = 0;
  private queueDrained: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;
  private nextTick = 0;
  private closed = false;
  /** performance.now() of the first sample of each spoken utterance. */
  readonly spokeAt: number[] = [];
  packetsOut = 0;

  /** The address the call's audio comes from (the answering Asterisk's, from its SDP); undefined until answered. */
  get remoteAddress(): string | undefined {
    return this.remote?.address;
  }

  /** Where this caller sends its audio ("address:port"), and every address:port audio came from: one and the same on a sound call. */
  get endpoints(): { sendsTo: string | undefined; heardFrom: string[] } {
    return { sendsTo: this.remote && `${this.remote.address}:${this.remote.port}`, heardFrom: [...this.sources] };
  }
  private readonly sources = new Set<string>();

  private constructor() {
    super();
    this.socket.on('message', (msg, rinfo) => this.receive(msg, rinfo));
    this.socket.on('error', () => undefined);
  }

  static async open(): Promise<CallerMedia> {
    const m = new CallerMedia();
    await new Promise<void>((resolve) => m.socket.bind(0, '127.0.0.1', resolve));
    return m;
  }

  get port(): number {
    return this.socket.address().port;
  }

  /** Queues the caller's words; resolves when the last frame has been sent. */
  say(samples: Int16Array): Promise<void> {
    const frames: Int16Array[] = [];
    for (let i = 0; i < samples.length; i += FRAME) {
      const f = new Int16Array(FRAME);
      f.set(samples.subarray(i, Math.min(i + FRAME, samples.length)));
      frames.push(f);
    }
    const wasIdle = this.queue.length === 0;
    this.queue.push(...frames);
    if (wasIdle) this.pendingSpeechStart = true;
    return new Promise((resolve) => this.queueDrained.push(resolve));
  }

  private pendingSpeechStart = false;

  /** Sends RFC 4733 digits (100 ms each, then 60 ms of audio), in place of audio frames. */
  digits(digits: string): Promise<void> {
    for (const d of digits) {
      const code = '0123456789*#ABCD'.indexOf(d.toUpperCase());
      if (code < 0) throw new Error(`not a DTMF digit: ${d}`);
      for (let i = 1; i <= 5; i++) this.events.push({ code, duration: i * FRAME, end: false, first: i === 1 });
      for (let i = 0; i < 3; i++) this.events.push({ code, duration: 5 * FRAME, end: true, first: false }); // the end, sent three times
      this.events.push(null, null, null);
    }
    return new Promise((resolve) => this.queueDrained.push(resolve));
  }

  /** Where to send (Asterisk's SDP answer): audio starts flowing now, as from a phone. */
  setRemote(address: string, port: number): void {
    if (this.remote || this.closed) return;
    this.remote = { address, port };
    this.startClock();
  }

  private receive(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    if (msg.length < 12 || msg[0]! >> 6 !== 2) return;
    // RTCP is RTP's version too, with a packet type of 200–204 where RTP has its payload type.
    // It is no call's audio: another call's Asterisk sends its reports to that caller's port + 1,
    // which may be this socket, before this caller's own call is even answered.
    if (msg[1]! >= 200 && msg[1]! <= 204) return;
    const pt = msg[1]! & 0x7f;
    this.sources.add(`${rinfo.address}:${rinfo.port}`);
    if (!this.remote) this.setRemote(rinfo.address, rinfo.port);
    if (pt !== 0) return; // only PCMU is audio for this caller
    const cc = msg[0]! & 0x0f;
    const ext = (msg[0]! & 0x10) !== 0;
    let off = 12 + cc * 4;
    if (ext) off += 4 + msg.readUInt16BE(off + 2) * 4;
    this.hear(performance.now(), ulawDecode(msg.subarray(off)), msg.readUInt32BE(4));
  }

  /** A drift-free 20 ms clock, like a phone's sound card. */
  private startClock(): void {
    this.nextTick = performance.now();
    const tick = () => {
      if (this.closed) return;
      const now = performance.now();
      while (this.nextTick <= now) {
        this.sendNext();
        this.nextTick += 20;
      }
      this.timer = setTimeout(tick, Math.max(1, this.nextTick - performance.now()));
    };
    tick();
  }

  private sendNext(): void {
    if (!this.remote) return;
    const event = this.events.shift();
    if (event) {
      // Every packet of one event carries the event's start timestamp (RFC 4733 §2.5.1.3).
      if (event.first) this.eventTs = this.ts;
      const payload = Buffer.alloc(4);
      payload[0] = event.code;
      payload[1] = (event.end ? 0x80 : 0) | 10; // E bit, volume -10 dBm0
      payload.writeUInt16BE(event.duration, 2);
      this.send(DTMF_PT, payload, event.first, this.eventTs);
    } else {
      const frame = this.queue.shift();
      if (frame && this.pendingSpeechStart) {
        this.pendingSpeechStart = false;
        this.spokeAt.push(performance.now());
      }
      this.send(0, frame ? ulawEncode(frame) : Buffer.alloc(FRAME, ULAW_SILENCE), false, this.ts);
    }
    this.ts = (this.ts + FRAME) >>> 0;
    if (this.queue.length === 0 && this.events.length === 0) for (const r of this.queueDrained.splice(0)) r();
  }

  private send(pt: number, payload: Buffer, marker: boolean, timestamp: number): void {
    const h = Buffer.alloc(12);
    h[0] = 0x80;
    h[1] = (marker ? 0x80 : 0) | pt;
    h.writeUInt16BE(this.seq, 2);
    h.writeUInt32BE(timestamp >>> 0, 4);
    h.writeUInt32BE(this.ssrc, 8);
    this.seq = (this.seq + 1) & 0xffff;
    this.packetsOut++;
    this.socket.send(Buffer.concat([h, payload]), this.remote!.port, this.remote!.address);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    for (const r of this.queueDrained.splice(0)) r();
    this.socket.close();
  }
}
