import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { adoptSession } from '../e2e/support/browser.js';
import { ensureConsoleBuilt } from '../e2e/support/build-console.js';
import type { ApiClient } from '../helpers/client.js';
import { hearsAgent } from '../pbx-real/agent-caller.js';
import { RATE, writeWav } from '../pbx-real/audio.js';
import { ANSWERS_ONLY, startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { launchWithMicrophone } from '../call-my-line/browser-caller.js';
import { ownerWithLine } from '../call-my-line/owner-line.js';
import { PageAudio } from '../call-my-line/page-audio.js';

// The owner at the Live page (issue 54) in Chromium, as Call my line's browser tests open the
// console (test/call-my-line/browser-caller.ts launches it with a fake microphone): what the
// page's WebRTC line receives is recorded (page-audio.ts) and matched as a SIPp caller's is.

/** `seconds` of a pure `hz` tone at a speaking level: what the caller or the owner "says". */
export function toneSamples(hz: number, seconds: number): Int16Array {
  const samples = new Int16Array(seconds * RATE);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / RATE));
  return samples;
}

/** A pure tone for the fake microphone: `seconds` of `hz` at a speaking level, then Chromium's silence. */
function toneFile(file: string, hz: number, seconds: number): string {
  writeWav(file, toneSamples(hz, seconds));
  return file;
}

/** A fresh context signed in as `owner`, on /dashboard/live with `callId`'s card shown, its audio recorded. */
async function openLivePage(browser: Browser, baseUrl: string, owner: ApiClient, callId: number): Promise<{ page: Page; audio: PageAudio }> {
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

/** An agent call in progress, and its owner on the Live page with that call's card. */
export interface AgentCallOnLivePage {
  owner: Awaited<ReturnType<typeof ownerWithLine>>;
  call: Awaited<ReturnType<RealPbx['call']>>;
  row: Awaited<ReturnType<RealPbx['rows']>>[number];
  page: Page;
  audio: PageAudio;
  card: Locator;
}

/**
 * The real PBX with the agent and the built console for one describe block (started before its
 * tests, closed after them with the browsers they launched): the agent answers every question
 * "not known", so it only ever speaks its greeting, and a listen or a take-over is all that follows.
 */
export function livePageOnRealPbx(tempPrefix: string): { pbx(): RealPbx; agentCallOnLivePage(did: string, ownerHz: number): Promise<AgentCallOnLivePage> } {
  let h: RealPbx | undefined;
  const browsers: Browser[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), tempPrefix));
  beforeAll(async () => {
    h = await startRealPbx({ consoleDir: ensureConsoleBuilt(), agent: true, env: ANSWERS_ONLY });
    h.ollama.replier = () => JSON.stringify({ intent: 'question', answered: false, answer: '' });
  }, 240_000);
  afterAll(async () => {
    for (const b of browsers) await b.close();
    await h?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const pbx = (): RealPbx => {
    if (!h) throw new Error('the real PBX is not started: livePageOnRealPbx() belongs in a describe block');
    return h;
  };
  return {
    pbx,
    /**
     * Hale Plumbing's agent call on `did`, its greeting heard; the owner's Chromium plays an
     * `ownerHz` tone into its fake microphone for two minutes: Chromium plays the file from when
     * the line takes the microphone, and a leg may join the call long after the page opened.
     */
    async agentCallOnLivePage(did, ownerHz) {
      const h = pbx();
      const owner = await ownerWithLine(h.server, did, { businessName: 'Hale Plumbing' }, { aiMode: 'agent', knowledgeBase: 'Q: Do you cover York?\nA: Yes.' });
      const call = await h.call(owner.did);
      await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'));
      const row = (await h.rows(owner.did))[0]!;
      const browser = await launchWithMicrophone(toneFile(path.join(dir, 'owner.wav'), ownerHz, 120));
      browsers.push(browser);
      const { page, audio } = await openLivePage(browser, h.server.url, owner.client, row.id);
      return { owner, call, row, page, audio, card: page.getByTestId(`live-control-${row.id}`) };
    },
  };
}
