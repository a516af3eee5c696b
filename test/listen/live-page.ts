import type { Browser, Page } from 'playwright-core';
import { adoptSession } from '../e2e/support/browser.js';
import type { ApiClient } from '../helpers/client.js';
import { RATE, writeWav } from '../pbx-real/audio.js';
import { PageAudio } from '../call-my-line/page-audio.js';

// The owner at the Live page (issue 54) in Chromium, as Call my line's browser tests open the
// console (test/call-my-line/browser-caller.ts launches it with a fake microphone): what the
// page's WebRTC line receives is recorded (page-audio.ts) and matched as a SIPp caller's is.

/** A pure tone for the fake microphone: `seconds` of `hz` at a speaking level, then Chromium's silence. */
export function toneFile(file: string, hz: number, seconds: number): string {
  const samples = new Int16Array(seconds * RATE);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / RATE));
  writeWav(file, samples);
  return file;
}

/** A fresh context signed in as `owner`, on /dashboard/live with `callId`'s card shown, its audio recorded. */
export async function openLivePage(browser: Browser, baseUrl: string, owner: ApiClient, callId: number): Promise<{ page: Page; audio: PageAudio }> {
  // bypassCSP: the recorder's worklet module comes from a blob: URL (page-audio.ts).
  const ctx = await browser.newContext({ baseURL: baseUrl, bypassCSP: true });
  await ctx.grantPermissions(['microphone'], { origin: baseUrl });
  await PageAudio.install(ctx);
  const page = await ctx.newPage();
  await adoptSession(page, owner, baseUrl);
  await page.goto(`/dashboard/live?call=${callId}`);
  await page.getByTestId(`live-control-${callId}`).waitFor({ timeout: 60_000 });
  return { page, audio: await PageAudio.start(page) };
}
