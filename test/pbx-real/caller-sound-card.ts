// The test callers' sound cards: every CallerMedia's UDP socket and 20 ms clock, in a thread of
// their own (caller-media.ts starts it). A phone's audio leaves on a hardware clock whatever the
// answering side is doing; a caller sharing the event loop of the core under test did not: a
// busy loop (a loaded machine, a synchronous sox in a test) held its frames back, then they left
// in a burst, and Asterisk's mixing bridge keeps at most 80 ms of a participant's audio queued
// (bridge_softmix.c flushes the rest), so the agent heard the caller's question in fragments.
// Here nothing but the clocks runs, and arrival times are stamped when the packet lands. Should
// this thread itself be starved (load average 12–17 from other work: ticks over 100 ms late), the
// clock moves on rather than bursting: the words arrive with a gap, whole, instead of clipped.
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { FRAME } from './audio.js';
import { ulawDecode, ulawEncode, ULAW_SILENCE } from './g711.js';

export const DTMF_PT = 101;

export type ToCard =
  | { op: 'open'; id: number }
  | { op: 'remote'; id: number; address: string; port: number }
  /** Audio to say (`seq` numbers what the caller asked to send, spoken or dialled). */
  | { op: 'say'; id: number; seq: number; samples: Int16Array }
  | { op: 'digits'; id: number; seq: number; codes: number[] }
  | { op: 'close'; id: number };

/** What happened on one caller's line since the last report; times on the wall clock (timeOrigin + now). */
export interface LineReport {
  id: number;
  /** When the report was made: the line's state is known up to here. */
  at: number;
  /** Audio frames, with their RTP timestamps (the sender's media clock). */
  heard: Array<{ at: number; ts: number; samples: Int16Array }>;
  /** Addresses ("address:port") audio came from for the first time. */
  heardFrom: string[];
  /** First frame of an utterance left. */
  spokeAt: number[];
  packetsOut: number;
  /** Everything up to this `seq` has been sent, the last of it at `sentAt`. */
  sentUpTo: number;
  sentAt?: number;
  /** Clock ticks that found this thread over 80 ms late (starved): the caller's words went on after a gap. */
  lateTicks: number;
  remote?: { address: string; port: number };
  /** What reached the socket so far (RTP from anyone, RTCP) and the kernel's drops for it: where a greeting went missing. */
  wire: Wire;
  /** The line's last report: its socket is closed. */
  closed?: true;
}

/** Counts of what crossed one caller's socket (issue 61: who lost a silent caller's greeting). */
export interface Wire {
  rtpIn: number;
  /** RTP from an address other than the one the caller sends to. */
  rtpFromOthers: number;
  rtcpIn: number;
  /** Datagrams the kernel dropped for this socket, its receive buffer full (/proc/net/udp, last sample). */
  drops: number;
}

export type FromCard = { op: 'opened'; id: number; port: number } | { op: 'report'; lines: LineReport[] };

const wallNow = () => performance.timeOrigin + performance.now();

/** Drops per local port of the 127.0.0.1 UDP sockets (/proc/net/udp's last column); empty off Linux. */
function udpDrops(): Map<number, number> {
  const out = new Map<number, number>();
  let table = '';
  try {
    table = fs.readFileSync('/proc/net/udp', 'utf8');
  } catch {
    return out;
  }
  for (const row of table.split('\n').slice(1)) {
    const f = row.trim().split(/\s+/);
    if (f.length < 13 || !f[1]!.startsWith('0100007F:')) continue;
    out.set(parseInt(f[1]!.slice(9), 16), Number(f[12]));
  }
  return out;
}

class Line {
  // 1 MiB of receive buffer (Linux's default, 208 KiB, holds about 3 s of a call's packets): a
  // knee run at load 30 stalled this thread 3.4 s and the kernel dropped 31–34 packets per
  // caller, the beep among them (issue 61). Bounded by net.core.rmem_max.
  readonly socket = dgram.createSocket({ type: 'udp4', recvBufferSize: 1 << 20 });
  remote: { address: string; port: number } | undefined;
  private readonly sources = new Set<string>();
  private readonly ssrc = crypto.randomBytes(4).readUInt32BE(0);
  private seqNo = crypto.randomInt(0, 0xffff);
  private ts = crypto.randomInt(0, 0x7fffffff);
  private queue: Int16Array[] = [];
  /** RFC 4733 packets to send, one per tick; null = an audio frame's turn. */
  private events: Array<{ code: number; duration: number; end: boolean; first: boolean } | null> = [];
  private eventTs = 0;
  private pendingSpeechStart = false;
  private timer: NodeJS.Timeout | undefined;
  private nextTick = 0;
  private lastSeq = 0;
  closed = false;
  report: LineReport;

  readonly wire: Wire = { rtpIn: 0, rtpFromOthers: 0, rtcpIn: 0, drops: 0 };
  /** The socket's local port, once bound. */
  port = 0;

  constructor(readonly id: number) {
    this.report = { id, at: 0, heard: [], heardFrom: [], spokeAt: [], packetsOut: 0, sentUpTo: 0, lateTicks: 0, wire: this.wire };
    this.socket.on('message', (msg, rinfo) => this.receive(msg, rinfo));
    this.socket.on('error', () => undefined);
  }

  say(seq: number, samples: Int16Array): void {
    const wasIdle = this.queue.length === 0;
    for (let i = 0; i < samples.length; i += FRAME) {
      const f = new Int16Array(FRAME);
      f.set(samples.subarray(i, Math.min(i + FRAME, samples.length)));
      this.queue.push(f);
    }
    if (wasIdle) this.pendingSpeechStart = true;
    this.asked(seq);
  }

  /** 100 ms per digit, then 60 ms of audio, in place of audio frames. */
  digits(seq: number, codes: number[]): void {
    for (const code of codes) {
      for (let i = 1; i <= 5; i++) this.events.push({ code, duration: i * FRAME, end: false, first: i === 1 });
      for (let i = 0; i < 3; i++) this.events.push({ code, duration: 5 * FRAME, end: true, first: false }); // the end, sent three times
      this.events.push(null, null, null);
    }
    this.asked(seq);
  }

  private asked(seq: number): void {
    this.lastSeq = seq;
    if (this.queue.length === 0 && this.events.length === 0) this.report.sentUpTo = seq; // nothing to send (or no clock yet)
  }

  setRemote(address: string, port: number): void {
    if (this.remote || this.closed) return;
    this.remote = { address, port };
    this.report.remote = this.remote;
    this.startClock();
  }

  private receive(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    if (msg.length < 12 || msg[0]! >> 6 !== 2) return;
    const at = wallNow();
    // RTCP is RTP's version too, with a packet type of 200–204 where RTP has its payload type.
    // It is no call's audio: another call's Asterisk sends its reports to that caller's port + 1,
    // which may be this socket, before this caller's own call is even answered.
    if (msg[1]! >= 200 && msg[1]! <= 204) {
      this.wire.rtcpIn++;
      return;
    }
    this.wire.rtpIn++;
    const pt = msg[1]! & 0x7f;
    const from = `${rinfo.address}:${rinfo.port}`;
    if (this.remote && (rinfo.port !== this.remote.port || rinfo.address !== this.remote.address)) this.wire.rtpFromOthers++;
    if (!this.sources.has(from)) {
      this.sources.add(from);
      this.report.heardFrom.push(from);
    }
    if (!this.remote) this.setRemote(rinfo.address, rinfo.port);
    if (pt !== 0) return; // only PCMU is audio for this caller
    const cc = msg[0]! & 0x0f;
    const ext = (msg[0]! & 0x10) !== 0;
    let off = 12 + cc * 4;
    if (ext) off += 4 + msg.readUInt16BE(off + 2) * 4;
    this.report.heard.push({ at, ts: msg.readUInt32BE(4), samples: ulawDecode(msg.subarray(off)) });
  }

  /**
   * A drift-free 20 ms clock. A late tick sends the frames it missed at once, up to the 80 ms
   * Asterisk's mixing bridge keeps queued; a tick later than that (this thread starved on a
   * loaded machine) moves the clock on instead, so the caller's words arrive with a gap rather
   * than in a burst whose head Asterisk would drop.
   */
  private startClock(): void {
    this.nextTick = performance.now();
    const tick = () => {
      if (this.closed) return;
      const now = performance.now();
      if (now - this.nextTick > 3 * 20) {
        this.report.lateTicks++;
        this.nextTick = now - 3 * 20;
      }
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
        this.report.spokeAt.push(wallNow());
      }
      this.send(0, frame ? ulawEncode(frame) : Buffer.alloc(FRAME, ULAW_SILENCE), false, this.ts);
    }
    this.ts = (this.ts + FRAME) >>> 0;
    if (this.queue.length === 0 && this.events.length === 0 && this.report.sentUpTo !== this.lastSeq) {
      this.report.sentUpTo = this.lastSeq;
      this.report.sentAt = wallNow();
    }
  }

  private send(pt: number, payload: Buffer, marker: boolean, timestamp: number): void {
    const h = Buffer.alloc(12);
    h[0] = 0x80;
    h[1] = (marker ? 0x80 : 0) | pt;
    h.writeUInt16BE(this.seqNo, 2);
    h.writeUInt32BE(timestamp >>> 0, 4);
    h.writeUInt32BE(this.ssrc, 8);
    this.seqNo = (this.seqNo + 1) & 0xffff;
    this.report.packetsOut++;
    this.socket.send(Buffer.concat([h, payload]), this.remote!.port, this.remote!.address);
  }

  /** What to tell the caller's CallerMedia since the last report, if anything happened. */
  takeReport(): LineReport | undefined {
    const r = this.report;
    const moved = r.packetsOut !== this.reported.packetsOut || r.sentUpTo !== this.reported.sentUpTo || r.lateTicks !== this.reported.lateTicks;
    if (!moved && !this.closed && r.heard.length === 0 && r.heardFrom.length === 0 && r.spokeAt.length === 0 && r.remote === undefined) return undefined;
    this.reported = { packetsOut: r.packetsOut, sentUpTo: r.sentUpTo, lateTicks: r.lateTicks };
    this.report = { id: this.id, at: 0, heard: [], heardFrom: [], spokeAt: [], packetsOut: r.packetsOut, sentUpTo: r.sentUpTo, lateTicks: r.lateTicks, wire: this.wire };
    r.at = wallNow();
    r.wire = { ...this.wire };
    if (this.closed) r.closed = true;
    return r;
  }
  private reported = { packetsOut: 0, sentUpTo: 0, lateTicks: 0 };

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.socket.close();
  }
}

if (parentPort) {
  const port = parentPort;
  const lines = new Map<number, Line>();
  port.on('message', (m: ToCard) => {
    if (m.op === 'open') {
      const line = new Line(m.id);
      lines.set(m.id, line);
      line.socket.bind(0, '127.0.0.1', () => {
        line.port = line.socket.address().port;
        port.postMessage({ op: 'opened', id: m.id, port: line.port } satisfies FromCard);
      });
      return;
    }
    const line = lines.get(m.id);
    if (!line || line.closed) return;
    if (m.op === 'remote') line.setRemote(m.address, m.port);
    else if (m.op === 'say') line.say(m.seq, m.samples);
    else if (m.op === 'digits') line.digits(m.seq, m.codes);
    else if (m.op === 'close') {
      line.close();
      lines.delete(m.id);
      // Its last counts, so the caller's story can say what reached the socket in the whole call.
      port.postMessage({ op: 'report', lines: [line.takeReport()!] } satisfies FromCard);
    }
  });
  // The kernel's drops per socket (a full receive buffer while this thread stalled), once a
  // second: one read of /proc/net/udp for every line, not one per line.
  setInterval(() => {
    if (lines.size === 0) return;
    const drops = udpDrops();
    for (const line of lines.values()) line.wire.drops = drops.get(line.port) ?? line.wire.drops;
  }, 1000);
  // What each line heard and sent, every 10 ms: one message for all of them.
  setInterval(() => {
    const reports: LineReport[] = [];
    for (const line of lines.values()) {
      const r = line.takeReport();
      if (r) reports.push(r);
    }
    if (reports.length) port.postMessage({ op: 'report', lines: reports } satisfies FromCard);
  }, 10);
}
