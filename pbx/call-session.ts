import { parseAriTime } from './ari/ari-time.js';
import { AriTimeoutError, type AriEvent, type AriRest, type ChannelSnapshot } from './ari/types.js';

/** The channel left the Stasis app (caller hung up, or we did): no further step can run. */
export class CallEnded extends Error {
  override name = 'CallEnded';
}

/** A step waited longer than it could ever take. */
export class StepTimeout extends Error {
  override name = 'StepTimeout';
}

export interface WaitOptions {
  what: string;
  timeoutMs: number;
  /**
   * After a WebSocket drop the awaited event may have been lost: asks ARI whether the
   * thing already happened and returns a stand-in event if so.
   */
  probe?: () => Promise<AriEvent | undefined>;
}

interface Waiter {
  match: (e: AriEvent) => boolean;
  resolve: (e: AriEvent) => void;
  reject: (err: Error) => void;
  probe?: WaitOptions['probe'];
}

const HISTORY = 64;
/**
 * How long a step keeps listening for a request's event after ARI failed to answer it in time.
 * An overloaded Asterisk answers late but still carries the request out: a recording started
 * that way is the caller's message, so the call must not be told goodbye over it. A few times
 * the wait already spent, at most 30 s; none for a request that never left.
 */
export function lateAnswerGraceMs(err: AriTimeoutError): number {
  return err.sent ? Math.min(30_000, 6 * (err.waitedMs ?? 5000)) : 0;
}

/**
 * One inbound call's channel as the core sees it: the events ARI sent for it, what the
 * flow is waiting for, and the call's times on Asterisk's clock (event timestamps), so a
 * call's duration is its real length even when events are handled late.
 */
export class CallSession {
  readonly channelId: string;
  readonly callerNumber: string;
  /** Asterisk time (ms) the channel was created. */
  readonly startedAt: number;
  /** Asterisk time (ms) the hang-up was requested, by either side. */
  endedAt: number | undefined;
  /** True once the channel has left the app (StasisEnd / ChannelDestroyed / vanished). */
  gone = false;
  /** Local time the session began: a reconcile only judges sessions older than its snapshot. */
  readonly createdLocalMs = Date.now();
  /** True when ARI itself said the channel left (not just inferred from a reconcile). */
  leftConfirmed = false;
  /** Asterisk accepted our hang-up request (DELETE /channels/{id} answered 204). */
  hangupAccepted = false;

  private lastAriMs: number;
  private lastLocalMs = Date.now();
  private readonly history: AriEvent[] = [];
  private readonly waiters = new Set<Waiter>();
  private readonly goneListeners: Array<() => void> = [];

  constructor(
    readonly channel: ChannelSnapshot,
    readonly did: string,
  ) {
    this.channelId = channel.id;
    this.callerNumber = channel.caller?.number || 'anonymous';
    this.startedAt = parseAriTime(channel.creationtime) ?? Date.now();
    this.lastAriMs = this.startedAt;
  }

  private answering: Promise<void> | undefined;

  /**
   * Answers the channel once, however many steps ask: the Stasis app answers as soon as
   * the call arrives, and the flow's own answer step then waits on that same request.
   */
  answer(rest: AriRest): Promise<void> {
    // A channel that is already up (a call taken over after a restart) needs no answer, and
    // must not get one: Asterisk queues it behind the channel's running operation, e.g. a
    // recording, and it would time out while the caller is still talking.
    this.answering ??= this.channel.state === 'Up' ? Promise.resolve() : this.answerOnce(rest);
    return this.answering;
  }

  /**
   * An answer ARI did not confirm in time is usually only late (Asterisk overloaded): the
   * channel going Up says it happened, and the call goes on (see steps.ts sendExpecting).
   */
  private async answerOnce(rest: AriRest): Promise<void> {
    const up = (ms: number) => this.waitFor((e) => e.type === 'ChannelStateChange' && e.channel?.state === 'Up', { what: 'answer', timeoutMs: ms });
    try {
      await rest.answer(this.channelId);
    } catch (err) {
      if (!(err instanceof AriTimeoutError) || lateAnswerGraceMs(err) === 0) throw err;
      await up(lateAnswerGraceMs(err)).catch((late: unknown) => {
        throw late instanceof CallEnded ? late : err;
      });
    }
  }

  /** Asterisk's clock now, extrapolated from the last event seen. */
  ariNow(): number {
    return this.lastAriMs + (Date.now() - this.lastLocalMs);
  }

  get hangupRequested(): boolean {
    return this.endedAt !== undefined;
  }

  deliver(e: AriEvent): void {
    const t = parseAriTime(e.timestamp);
    if (t !== undefined) {
      this.lastAriMs = t;
      this.lastLocalMs = Date.now();
    }
    this.history.push(e);
    if (this.history.length > HISTORY) this.history.shift();
    for (const w of [...this.waiters]) {
      if (w.match(e)) {
        this.waiters.delete(w);
        w.resolve(e);
      }
    }
    if (e.type === 'ChannelHangupRequest' && this.endedAt === undefined) this.endedAt = t ?? this.ariNow();
    // Playback and recording results arrive between the hang-up request and StasisEnd,
    // so waiters are only failed once the channel has really left the app.
    if (e.type === 'StasisEnd' || e.type === 'ChannelDestroyed') {
      this.leftConfirmed = true;
      this.markGone(t);
    }
  }

  /** Playbacks on this channel that started and have not finished (from the recent events). */
  playbacksInProgress(): string[] {
    const playing = new Set<string>();
    for (const e of this.history) {
      const id = e.playback?.id;
      if (!id) continue;
      if (e.type === 'PlaybackStarted') playing.add(id);
      else if (e.type === 'PlaybackFinished') playing.delete(id);
    }
    return [...playing];
  }

  /** The channel is no longer in the app (also used when a reconcile finds it missing). */
  markGone(at?: number): void {
    if (this.gone) return;
    this.gone = true;
    this.endedAt ??= at ?? this.ariNow();
    for (const w of this.waiters) w.reject(new CallEnded(`call ${this.channelId} ended`));
    this.waiters.clear();
    for (const fn of this.goneListeners.splice(0)) fn();
  }

  /** Resolves when the channel has left the app, or after `ms` (false). */
  whenGone(ms: number): Promise<boolean> {
    if (this.gone) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), ms);
      this.goneListeners.push(() => (clearTimeout(t), resolve(true)));
    });
  }

  /**
   * Waits for the first event matching `match`. Register the wait BEFORE the REST call
   * that causes the event: ARI may send the event before the HTTP answer arrives.
   */
  waitFor(match: (e: AriEvent) => boolean, opts: WaitOptions): Promise<AriEvent> {
    const seen = this.history.find(match);
    if (seen) return Promise.resolve(seen);
    const waiting = this.gone ? Promise.reject(new CallEnded(`call ${this.channelId} ended`)) : this.register(match, opts);
    // The caller awaits this only after its REST request returns; if the call ends in
    // between, the rejection must not count as unhandled meanwhile (awaiting still throws).
    waiting.catch(() => undefined);
    return waiting;
  }

  private register(match: (e: AriEvent) => boolean, opts: WaitOptions): Promise<AriEvent> {
    return new Promise<AriEvent>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new StepTimeout(`${opts.what}: no event within ${opts.timeoutMs} ms`));
      }, opts.timeoutMs);
      const waiter: Waiter = {
        match,
        probe: opts.probe,
        resolve: (e) => (clearTimeout(timer), resolve(e)),
        reject: (err) => (clearTimeout(timer), reject(err)),
      };
      this.waiters.add(waiter);
    });
  }

  /** After a reconnect: finds out what was missed while the socket was down. */
  async resync(rest: AriRest): Promise<void> {
    if (this.gone) return;
    const channel = await rest.getChannel(this.channelId);
    if (!channel) return this.markGone();
    for (const w of [...this.waiters]) {
      const standIn = await w.probe?.();
      if (standIn && this.waiters.has(w)) this.deliver(standIn);
    }
  }
}
