import crypto from 'node:crypto';
import dgram from 'node:dgram';
import { decodePayload, encodePayload, FORMATS, type FormatInfo, type MediaFormat } from './codecs.js';
import { JitterBuffer, type JitterStats } from './jitter-buffer.js';
import { parseRtp, buildRtp } from './rtp-packet.js';

// The core's end of an ARI externalMedia channel: one UDP socket per call. Asterisk sends
// the caller's audio here and plays back whatever RTP it receives from us. The far address
// is learnt from the first packet (symmetric RTP, as Asterisk's rtp_symmetric) unless ARI
// told us (the UNICASTRTP_LOCAL_ADDRESS/PORT channel variables of the externalMedia reply).

export interface RtpEndpointOptions {
  format: MediaFormat;
  /** Address to bind; Asterisk must be able to reach it (external_host). */
  host: string;
  port?: number;
  /** Frames held to reorder packets (60 ms by default). */
  jitterDepth?: number;
}

export class RtpEndpoint {
  readonly info: FormatInfo;
  readonly format: MediaFormat;
  private readonly socket = dgram.createSocket('udp4');
  private remote: { address: string; port: number } | undefined;
  private readonly jitter: JitterBuffer<Int16Array>;
  private readonly ssrc = crypto.randomBytes(4).readUInt32BE(0);
  private seq = crypto.randomInt(0, 0xffff);
  private ts = crypto.randomInt(0, 0x7fffffff);
  private frameListeners: Array<(frame: Int16Array) => void> = [];
  private closed = false;
  private nextMarker = true;
  packetsIn = 0;
  packetsOut = 0;

  private constructor(opts: RtpEndpointOptions) {
    this.format = opts.format;
    this.info = FORMATS[opts.format];
    this.jitter = new JitterBuffer(() => new Int16Array(this.info.frameSamples), opts.jitterDepth ?? 3);
    this.socket.on('message', (msg, rinfo) => this.receive(msg, rinfo));
    this.socket.on('error', () => undefined); // ICMP unreachable after the far end closes: nothing to do
  }

  static async open(opts: RtpEndpointOptions): Promise<RtpEndpoint> {
    const ep = new RtpEndpoint(opts);
    await new Promise<void>((resolve, reject) => {
      ep.socket.once('error', reject);
      ep.socket.bind(opts.port ?? 0, opts.host, () => {
        ep.socket.off('error', reject);
        resolve();
      });
    });
    return ep;
  }

  /** host:port to give ARI as external_host. */
  get address(): string {
    const a = this.socket.address();
    return `${a.address}:${a.port}`;
  }

  get jitterStats(): JitterStats {
    return this.jitter.stats;
  }

  setRemote(address: string, port: number): void {
    this.remote = { address, port };
  }

  onFrame(fn: (frame: Int16Array) => void): () => void {
    this.frameListeners.push(fn);
    return () => (this.frameListeners = this.frameListeners.filter((f) => f !== fn));
  }

  /** Sends one frame now; pacing is the caller's job (PacedPlayer). */
  sendFrame(samples: Int16Array): void {
    if (this.closed || !this.remote) return;
    const packet = buildRtp({
      payloadType: this.info.payloadType,
      marker: this.nextMarker, // first packet of a talk spurt (RFC 3551 §4.1)
      sequence: this.seq,
      timestamp: this.ts,
      ssrc: this.ssrc,
      payload: encodePayload(this.format, samples),
    });
    this.nextMarker = false;
    this.seq = (this.seq + 1) & 0xffff;
    this.ts = (this.ts + samples.length) >>> 0;
    this.packetsOut++;
    this.socket.send(packet, this.remote.port, this.remote.address);
  }

  /** The next frame starts a new talk spurt (after silence or a barge-in). */
  markTalkSpurt(): void {
    this.nextMarker = true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.frameListeners = [];
    this.socket.close();
  }

  private receive(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    const p = parseRtp(msg);
    if (!p) return;
    this.packetsIn++;
    this.remote ??= { address: rinfo.address, port: rinfo.port };
    for (const frame of this.jitter.push(p.sequence, decodePayload(this.format, p.payload))) {
      for (const fn of this.frameListeners) fn(frame);
    }
  }
}
