import type { Worker } from 'node:worker_threads';
import { tsWorker } from '../../models/threads/module-worker.js';
import type { FromCard, LineReport, ToCard, Wire } from './caller-sound-card.js';
import { HeardAudio } from './heard-audio.js';

// The test caller's audio: an RTP endpoint (PCMU, payload type 0, and RFC 4733
// telephone-events on 101) that SIPp's SDP advertises. Like a phone it sends a frame every
// 20 ms for the whole call (silence when the caller says nothing), so the test decides to
// the frame when the caller speaks, and it keeps every frame it hears with its arrival time.
// The socket and its clock run in the callers' sound-card thread (caller-sound-card.ts), so
// the core under test, in this thread, never holds the caller's audio back.

/** The one sound-card thread of this process, started by the first caller. */
let card: { worker: Worker; lines: Map<number, CallerMedia>; opening: Map<number, (port: number) => void> } | undefined;
let nextId = 0;

function soundCard(): NonNullable<typeof card> {
  if (card) return card;
  const worker = tsWorker(new URL('./caller-sound-card.ts', import.meta.url));
  worker.unref(); // a test process ends whether or not a caller is still open
  const c = { worker, lines: new Map<number, CallerMedia>(), opening: new Map<number, (port: number) => void>() };
  worker.on('message', (m: FromCard) => {
    if (m.op === 'opened') return c.opening.get(m.id)?.(m.port);
    for (const r of m.lines) c.lines.get(r.id)?.apply(r);
  });
  worker.on('error', (err) => {
    console.error('caller sound card failed', err);
    card = undefined;
  });
  card = c;
  return c;
}

/** The sound card's wall-clock stamp as this thread's performance.now(). */
const local = (wallMs: number) => wallMs - performance.timeOrigin;

export class CallerMedia extends HeardAudio {
  private remote: { address: string; port: number } | undefined;
  private seq = 0;
  private sent: Array<{ seq: number; resolve: () => void }> = [];
  private closed = false;
  /** performance.now() of the first sample of each spoken utterance (when it left). */
  readonly spokeAt: number[] = [];
  /** performance.now() when the last frame (or digit) asked for so far left: the end of the caller's words. */
  sentAt = 0;
  packetsOut = 0;
  /** Times the caller's clock was starved (over 80 ms late): what it said then went on after a gap. */
  lateTicks = 0;
  /** What reached this caller's socket (its counts as of the sound card's last report; final once `ended`). */
  wire: Wire = { rtpIn: 0, rtpFromOthers: 0, rtcpIn: 0, drops: 0 };
  /** The line is closed and its counts are final. */
  ended = false;
  private beepWaiters: Array<(at: number | undefined) => void> = [];

  /** The address the call's audio comes from (the answering Asterisk's, from its SDP); undefined until answered. */
  get remoteAddress(): string | undefined {
    return this.remote?.address;
  }

  /** Where this caller sends its audio ("address:port"), and every address:port audio came from: one and the same on a sound call. */
  get endpoints(): { sendsTo: string | undefined; heardFrom: string[] } {
    return { sendsTo: this.remote && `${this.remote.address}:${this.remote.port}`, heardFrom: [...this.sources] };
  }
  private readonly sources = new Set<string>();

  /** When the sound card last reported (it does every 10 ms while the line is up): what it has heard is known until then. */
  private reportedAt = 0;

  private constructor(
    private readonly id: number,
    readonly port: number,
  ) {
    super();
  }

  static async open(): Promise<CallerMedia> {
    const c = soundCard();
    const id = ++nextId;
    const port = await new Promise<number>((resolve) => {
      c.opening.set(id, resolve);
      c.worker.postMessage({ op: 'open', id } satisfies ToCard);
    });
    c.opening.delete(id);
    const m = new CallerMedia(id, port);
    c.lines.set(id, m);
    return m;
  }

  /** Queues the caller's words; resolves when the last frame has been sent. */
  say(samples: Int16Array): Promise<void> {
    return this.ask((seq) => ({ op: 'say', id: this.id, seq, samples }));
  }

  /** Sends RFC 4733 digits (100 ms each, then 60 ms of audio), in place of audio frames. */
  digits(digits: string): Promise<void> {
    const codes = [...digits].map((d) => {
      const code = '0123456789*#ABCD'.indexOf(d.toUpperCase());
      if (code < 0) throw new Error(`not a DTMF digit: ${d}`);
      return code;
    });
    return this.ask((seq) => ({ op: 'digits', id: this.id, seq, codes }));
  }

  private ask(message: (seq: number) => ToCard): Promise<void> {
    if (this.closed) return Promise.resolve();
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.sent.push({ seq, resolve });
      card?.worker.postMessage(message(seq));
    });
  }

  /** Where to send (Asterisk's SDP answer): audio starts flowing now, as from a phone. */
  setRemote(address: string, port: number): void {
    if (this.remote || this.closed) return;
    this.remote = { address, port };
    card?.worker.postMessage({ op: 'remote', id: this.id, address, port } satisfies ToCard);
  }

  /** The sound card's news for this line. */
  apply(r: LineReport): void {
    this.wire = r.wire;
    if (r.closed) {
      this.ended = true;
      card?.lines.delete(this.id);
    }
    // A line closed here (its call ended) still takes the card's last report: the frames that
    // reached the socket before the card closed it, the end of the goodbye a test may judge.
    this.remote ??= r.remote;
    this.reportedAt = local(r.at);
    for (const from of r.heardFrom) this.sources.add(from);
    for (const f of r.heard) this.hear(local(f.at), f.samples, f.ts);
    for (const at of r.spokeAt) this.spokeAt.push(local(at));
    this.packetsOut = r.packetsOut;
    this.lateTicks = r.lateTicks;
    if (r.sentAt !== undefined) this.sentAt = local(r.sentAt);
    while (this.sent.length && this.sent[0]!.seq <= r.sentUpTo) this.sent.shift()!.resolve();
    if (this.beepWaiters.length) this.judgeBeep();
  }

  /**
   * When the record beep ended (beepEndedAfter), judged as the sound card's reports arrive: no
   * poll per caller (the knee bench's 3,000 callers polling every 20 ms were most of its CPU,
   * issue 61). Undefined if the line closes first.
   */
  beepEnded(): Promise<number | undefined> {
    return new Promise((resolve) => {
      this.beepWaiters.push(resolve);
      this.judgeBeep();
    });
  }

  private judgeBeep(): void {
    const at = this.beepEndedAfter();
    if (at === undefined && !this.closed) return;
    for (const resolve of this.beepWaiters.splice(0)) resolve(at);
  }

  /** Nothing arriving means nothing was said only up to the card's last report: later frames may be on their way to this thread. */
  protected override heardUntil(): number {
    return this.reportedAt;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.sent.splice(0)) s.resolve();
    this.judgeBeep();
    card?.worker.postMessage({ op: 'close', id: this.id } satisfies ToCard);
  }
}
