import { seqDelta } from './rtp-packet.js';

// A small reordering buffer for the caller's RTP. Packets are released in sequence order;
// a packet that has not arrived once `depth` later ones have is declared lost and replaced
// by silence (the VAD then sees a short gap, which its hangover bridges). Late and
// duplicate packets are dropped. It holds at most `depth` frames (60 ms by default), so
// it adds little delay to end-of-speech detection.

export interface JitterStats {
  received: number;
  released: number;
  lost: number;
  late: number;
  duplicate: number;
  reordered: number;
}

export class JitterBuffer<T> {
  private next: number | undefined;
  private highest: number | undefined;
  private readonly held = new Map<number, T>();
  readonly stats: JitterStats = { received: 0, released: 0, lost: 0, late: 0, duplicate: 0, reordered: 0 };

  constructor(
    private readonly conceal: () => T,
    private readonly depth = 3,
  ) {}

  /** Adds one packet; returns the frames now ready, in order (concealment for lost ones). */
  push(sequence: number, frame: T): T[] {
    this.stats.received++;
    if (this.next === undefined) this.next = sequence;
    const ahead = seqDelta(this.next, sequence);
    if (ahead < 0) {
      this.stats.late++;
      return [];
    }
    if (ahead > 1000) {
      // A jump far ahead: the sender restarted its sequence (a new SSRC, a re-INVITE). Resync.
      this.held.clear();
      this.next = sequence;
      this.highest = undefined;
    }
    if (this.held.has(sequence)) {
      this.stats.duplicate++;
      return [];
    }
    if (this.highest !== undefined && seqDelta(this.highest, sequence) < 0) this.stats.reordered++;
    else this.highest = sequence;
    this.held.set(sequence, frame);
    return this.drain();
  }

  /** Everything held, in order, with gaps concealed (the stream ended). */
  flush(): T[] {
    const out: T[] = [];
    while (this.held.size > 0) out.push(...this.releaseNext(true));
    return out;
  }

  private drain(): T[] {
    const out: T[] = [];
    for (;;) {
      if (this.held.has(this.next!)) {
        out.push(...this.releaseNext(false));
      } else if (this.held.size >= this.depth) {
        out.push(...this.releaseNext(true)); // waited long enough: the packet is lost
      } else {
        return out;
      }
    }
  }

  private releaseNext(allowLoss: boolean): T[] {
    const seq = this.next!;
    this.next = (seq + 1) & 0xffff;
    const frame = this.held.get(seq);
    if (frame !== undefined) {
      this.held.delete(seq);
      this.stats.released++;
      return [frame];
    }
    if (!allowLoss) return [];
    this.stats.lost++;
    return [this.conceal()];
  }
}
