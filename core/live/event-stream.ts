import type { ServerResponse } from 'node:http';
import type { ApiLiveCall, LiveEventData, LiveEventName } from '../../contract/schemas/live.js';
import type { LiveChange } from './registry.js';

// One browser's Server-Sent Events stream of live calls: it knows which calls this viewer has
// been shown, so a call that comes into view (routing named the staff member) arrives as
// call-started and one that leaves it as call-ended, and nothing else leaks.

/** Keeps a proxy (and the browser's own idle timers) from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;

export class LiveEventStream {
  private readonly shown = new Set<number>();
  private seq = 0;
  private closed = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly visible: (change: LiveChange) => boolean,
  ) {}

  /** The first event: everything in view now. */
  snapshot(calls: ApiLiveCall[]): void {
    for (const c of calls) this.shown.add(c.id);
    this.send('snapshot', { calls });
  }

  /** Passes a registry change on as the events this viewer may see. */
  change(change: LiveChange): void {
    const id = change.entry.call.id;
    const seen = this.shown.has(id);
    if (change.type === 'call-ended') {
      if (seen) this.ended(id);
      return;
    }
    const inView = this.visible(change);
    if (!inView) {
      if (seen) this.ended(id);
      return;
    }
    if (!seen) {
      this.shown.add(id);
      this.send('call-started', { call: change.entry.call });
      return;
    }
    if (change.type === 'turn') this.send('turn', { callId: id, index: change.index, turn: change.turn });
    else this.send(change.type === 'call-started' ? 'call-started' : 'call-updated', { call: change.entry.call });
  }

  heartbeat(): void {
    this.write(': keep-alive\n\n');
  }

  close(): void {
    this.closed = true;
  }

  private ended(id: number): void {
    this.shown.delete(id);
    this.send('call-ended', { callId: id });
  }

  private send<N extends LiveEventName>(name: N, data: LiveEventData[N]): void {
    this.write(`id: ${++this.seq}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private write(chunk: string): void {
    // A browser that went away mid-write: its socket's error is handled where the stream was opened.
    if (this.closed || this.res.destroyed || this.res.writableEnded) return;
    this.res.write(chunk);
  }
}
