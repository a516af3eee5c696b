import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, adoptSession } from '../e2e/support/browser.js';
import { RATE, writeWav } from '../pbx-real/audio.js';
import type { ApiClient } from '../helpers/client.js';
import { PageAudio } from './page-audio.js';

// An owner at the console with a microphone: Debian's Chromium whose fake capture device
// plays a WAV once (from when a call takes the microphone), and the "Call my line" page with
// what it hears recorded (page-audio.ts). Used by the browser tests and the bench.

/**
 * The microphone's file: quiet for `leadSamples` (while the greeting plays), then `words`, then
 * quiet long enough for whatever the test waits for next (Chromium gives silence once it ends).
 */
export function microphoneFile(file: string, words: Int16Array, leadSamples: number): string {
  const samples = new Int16Array(leadSamples + words.length + 8 * RATE);
  samples.set(words, leadSamples);
  writeWav(file, samples);
  return file;
}

/**
 * Chromium with `wav` as its microphone, WebRTC allowed on loopback and audio allowed to play;
 * `extraArgs` e.g. map a host name and trust a certificate (the compose test's HTTPS console).
 */
export function launchWithMicrophone(wav: string, extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${wav}%noloop`,
      '--allow-loopback-in-peer-connection',
      '--autoplay-policy=no-user-gesture-required',
      ...extraArgs,
    ],
  });
}

/**
 * A fresh context signed in as the owner, on Phone Numbers (where the card is), its audio
 * recorded. `relayOnly`: the page's peer connections may use TURN relay candidates only (as a
 * browser behind a NAT that lets nothing else through), and are kept in `window.__peers`.
 */
export async function openCallMyLine(browser: Browser, baseUrl: string, owner: ApiClient, opts: { relayOnly?: boolean } = {}): Promise<{ page: Page; audio: PageAudio }> {
  // bypassCSP: the recorder's worklet module comes from a blob: URL (page-audio.ts).
  const ctx = await browser.newContext({ baseURL: baseUrl, bypassCSP: true });
  await ctx.grantPermissions(['microphone'], { origin: baseUrl });
  await PageAudio.install(ctx);
  if (opts.relayOnly) await ctx.addInitScript(RELAY_ONLY);
  const page = await ctx.newPage();
  await adoptSession(page, owner, baseUrl);
  await page.goto('/dashboard/phone-numbers');
  await page.getByRole('button', { name: 'Call my line' }).waitFor();
  return { page, audio: await PageAudio.start(page) };
}

// Runs in the page before its scripts (a string, as page-audio.ts explains): every
// RTCPeerConnection relays through TURN or not at all, kept in window.__peers.
const RELAY_ONLY = `(() => {
  const Native = window.RTCPeerConnection;
  const peers = [];
  window.__peers = peers;
  window.RTCPeerConnection = class extends Native {
    constructor(config, ...rest) {
      super({ ...(config || {}), iceTransportPolicy: 'relay' }, ...rest);
      peers.push(this);
    }
  };
})();`;

const SELECTED_PAIR = `(async () => {
  const pc = window.__peers && window.__peers[0];
  if (!pc) return {};
  const stats = [...(await pc.getStats()).values()];
  const transport = stats.find((s) => s.type === 'transport' && s.selectedCandidatePairId);
  const pair = stats.find((s) => transport && s.id === transport.selectedCandidatePairId);
  const type = (id) => { const c = stats.find((s) => s.id === id); return c ? c.candidateType : undefined; };
  return { local: pair ? type(pair.localCandidateId) : undefined, remote: pair ? type(pair.remoteCandidateId) : undefined };
})()`;

/** The candidate types (host, srflx, relay) of the selected pair of a `relayOnly` page's first peer connection. */
export function selectedCandidateTypes(page: Page): Promise<{ local?: string; remote?: string }> {
  return page.evaluate(SELECTED_PAIR) as Promise<{ local?: string; remote?: string }>;
}
