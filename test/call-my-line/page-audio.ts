import type { BrowserContext, Page } from 'playwright-core';
import { RATE, FRAME } from '../pbx-real/audio.js';
import { HeardAudio } from '../pbx-real/heard-audio.js';

// What the owner hears in "Call my line": the call's received track, recorded inside the page
// by an AudioWorklet in an 8 kHz AudioContext (Chromium resamples into it), cut into 20 ms
// frames stamped with when they were output, and read into the test in batches onto this
// process's clock, so test/pbx-real's matching (hearsAudio, hearsAgent) applies as to a SIPp
// caller. The page is tapped, not changed: RTCPeerConnection is wrapped before the console
// loads. Chromium gives a remote track's audio only while an <audio> element plays it too, so
// silence here also means the card did not play the call.

const TAP_MODULE = `
class HeardTap extends AudioWorkletProcessor {
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (channel) this.port.postMessage({ frame: currentFrame, samples: channel.slice() });
    return true;
  }
}
registerProcessor('heard-tap', HeardTap);
`;

interface PageHeard {
  /** [output time on the page's clock, 160 samples] */
  frames: Array<[number, number[]]>;
  /** [the button's text, when it was pressed] */
  clicks: Array<[string, number]>;
}

// Runs in the page before any of its scripts. A string, not a function, so no transpiler
// helper (esbuild's __name under tsx) ends up in a page that does not define it.
const RECORDER = `(() => {
  const heard = { frames: [], clicks: [] };
  window.__heard = heard;
  // When a button was pressed, on the page's clock (the bench's "Call my line" pressed).
  document.addEventListener('click', (e) => {
    const button = e.target && e.target.closest ? e.target.closest('button') : null;
    if (button) heard.clicks.push([(button.textContent || '').trim(), performance.now()]);
  }, true);
  const tap = async (track) => {
    const ctx = new AudioContext({ sampleRate: ${RATE} });
    await ctx.audioWorklet.addModule(URL.createObjectURL(new Blob([${JSON.stringify(TAP_MODULE)}], { type: 'text/javascript' })));
    const node = new AudioWorkletNode(ctx, 'heard-tap');
    let pending = [];
    let pendingAt = 0;
    node.port.onmessage = ({ data }) => {
      // The moment these samples leave for the speaker, from the context's output clock.
      const out = ctx.getOutputTimestamp();
      const at = out.performanceTime ? out.performanceTime + (data.frame / ctx.sampleRate - out.contextTime) * 1000 : performance.now();
      data.samples.forEach((v, i) => {
        if (pending.length === 0) pendingAt = at + (i * 1000) / ctx.sampleRate;
        pending.push(Math.round(Math.max(-1, Math.min(1, v)) * 32767));
        if (pending.length === ${FRAME}) {
          heard.frames.push([pendingAt, pending]);
          pending = [];
        }
      });
    };
    ctx.createMediaStreamSource(new MediaStream([track])).connect(node);
    node.connect(ctx.destination); // pulls the worklet; it writes nothing to its output
    await ctx.resume();
  };
  const Native = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('track', (ev) => {
        if (ev.track.kind === 'audio') tap(ev.track).catch((err) => console.error('heard-tap', err));
      });
    }
  };
})();`;

export class PageAudio extends HeardAudio {
  /**
   * What a page plays has been through Chromium's jitter buffer, which stretches and squeezes
   * speech while it adapts (at the start of a call, and under load): the same greeting scored
   * 0.78–0.97 over 60 calls (bench/call-my-line.ts, load 3–9), other sentences at most 0.72
   * (26 November 2026).
   */
  override readonly hearsAt = 0.75;
  private readonly clicks: Array<[string, number]> = [];
  private pulledUntil = 0;
  private stopped = false;
  private pulling: Promise<void> = Promise.resolve();

  private constructor(
    private readonly page: Page,
    /** Add to a page time to get this process's performance.now(). */
    private readonly offset: number,
  ) {
    super();
  }

  /**
   * Taps every page of `context`: call before opening the console. The context must be made
   * with `bypassCSP: true`: the console's CSP allows scripts from 'self' only, and Playwright's
   * routing does not see a worklet module's fetch, so the module comes from a blob: URL.
   */
  static async install(context: BrowserContext): Promise<void> {
    await context.addInitScript(RECORDER);
  }

  /** Starts reading what `page` hears (every 100 ms), on this process's clock. */
  static async start(page: Page): Promise<PageAudio> {
    const before = performance.now();
    const pageNow = await page.evaluate(() => performance.now());
    const after = performance.now();
    const audio = new PageAudio(page, (before + after) / 2 - pageNow);
    audio.loop();
    return audio;
  }

  private loop(): void {
    if (this.stopped) return;
    this.pulling = this.pull().then(
      () => void setTimeout(() => this.loop(), 100),
      () => void (this.stopped = true), // the page closed
    );
  }

  private async pull(): Promise<void> {
    const got = await this.page.evaluate(() => {
      const heard = (globalThis as unknown as { __heard: PageHeard }).__heard;
      return { frames: heard.frames.splice(0), clicks: heard.clicks.splice(0), now: performance.now() };
    });
    for (const [at, samples] of got.frames) this.hear(at + this.offset, Int16Array.from(samples));
    for (const [text, at] of got.clicks) this.clicks.push([text, at + this.offset]);
    this.pulledUntil = got.now + this.offset;
  }

  protected override heardUntil(): number {
    return this.pulledUntil;
  }

  /** When the button reading `text` was last pressed, on this process's clock. */
  pressedAt(text: string): number | undefined {
    return this.clicks.filter(([t]) => t === text).at(-1)?.[1];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.pulling;
  }
}
